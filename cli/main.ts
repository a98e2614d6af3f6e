/**
 * Entry point of the `service-contract` CLI: one program, one subcommand per file under
 * `cli/commands/`. Commander parses; this module owns the exit-code contract (0 ok, 1 check
 * failed, 2 usage or input error), so every subcommand just returns its code or throws a
 * UsageError, and commander's own usage errors become 2 as well.
 */
import { Command, CommanderError } from "commander";
import { EXIT_OK, EXIT_USAGE, UsageError } from "./exit-codes.ts";
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
    if (error instanceof UsageError || error instanceof MissingPeerError) {
      process.stderr.write(`service-contract: ${error.message}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
}
