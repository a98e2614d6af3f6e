/**
 * Entry point of the `service-contract` CLI: one program, one subcommand per file under
 * `cli/commands/`. Commander parses; this module owns the exit-code contract (0 ok, 1 check
 * failed, 2 usage or input error, 3 conformance decisions failed, 4 internal error), so every subcommand just returns its code or throws a
 * UsageError, and commander's own usage errors become 2 as well.
 */
import { Command, CommanderError } from "commander";
import { EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, UsageError } from "./exit-codes.ts";
import { benchCommand } from "./commands/bench.ts";
import { bundleCommand } from "./commands/bundle.ts";
import { conformanceCommand } from "./commands/conformance.ts";
import { diffCommand } from "./commands/diff.ts";
import { generateCommand } from "./commands/generate.ts";
import { lintCommand } from "./commands/lint.ts";
import { mockCommand } from "./commands/mock.ts";
import { serveCommand } from "./commands/serve.ts";
import { simulateCommand } from "./commands/simulate.ts";
import { validateCommand } from "./commands/validate.ts";
import { webhooksCommand } from "./commands/webhooks.ts";
import { MissingPeerError, PACKAGE_JSON } from "../generators/package-files.ts";
import { UnsafeContractError } from "../generators/contract-guard/refused.ts";
import { inert } from "../conformance/core/inert-text.ts";

/** Each subcommand module exports a factory that receives a setter for the final exit code. */
export type CommandFactory = (setExit: (code: number) => void) => Command;

const COMMANDS: CommandFactory[] = [benchCommand, bundleCommand, conformanceCommand, diffCommand, generateCommand, lintCommand, mockCommand, serveCommand, simulateCommand, validateCommand, webhooksCommand];

export async function main(argv: string[]): Promise<number> {
  let exitCode = EXIT_OK;
  const program = new Command("service-contract")
    .description("Contract toolkit for the service: spec, generators, reference server, conformance suite.")
    .version(PACKAGE_JSON.version, "-V, --version", "print the version of service-contract")
    .showHelpAfterError()
    .exitOverride();
  for (const factory of COMMANDS) {
    program.addCommand(factory((code) => (exitCode = code)).exitOverride());
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version are successes; everything else commander rejects is usage.
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (error instanceof UsageError || error instanceof MissingPeerError || error instanceof UnsafeContractError) {
      // A message may carry a target's text (a reason, a message it answered): made inert.
      process.stderr.write(`service-contract: ${inert(error.message)}\n`);
      return EXIT_USAGE;
    }
    return internalError(error);
  }
}

/**
 * An error no command expected: said as such, with its stack (it is a bug to report), and exit 4 —
 * never 1, which means a check failed. bin/service-contract.js routes an uncaught exception or
 * an unhandled rejection here too, so a crash of any kind cannot pass for a failed check.
 */
export function internalError(error: unknown): number {
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  process.stderr.write(`service-contract: internal error (a bug of service-contract; please report it with this text): ${inert(text)}\n`);
  return EXIT_INTERNAL;
}
