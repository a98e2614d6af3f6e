/**
 * `service-contract lint`: the spec must load (swagger-parser: OpenAPI 3.1 schema, every $ref
 * resolved) and pass Redocly lint with the committed config. Exit 1 on any error, naming each
 * problem's code and JSON pointer; warnings are printed but do not fail the run.
 */
import { Command } from "commander";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CommandFactory } from "../main.ts";
import { EXIT_CHECK_FAILED, EXIT_OK, UsageError } from "../exit-codes.ts";
import { formatProblem, SpecError, type Problem } from "../../generators/problems.ts";
import { DEFAULT_SPEC } from "../options.ts";

export const lintCommand: CommandFactory = (setExit) =>
  new Command("lint")
    .description("Validate the OpenAPI document (swagger-parser) and lint it (Redocly).")
    .option("--spec <file>", "the OpenAPI document (default: this package's contract)", DEFAULT_SPEC)
    .option("--config <file>", "Redocly config (default: redocly.yaml beside the spec)")
    .option("--json", "print the problems as JSON")
    .addHelpText("after", "\nExamples:\n  service-contract lint\n  service-contract lint --spec my/openapi.yaml --json")
    .action(async (opts: { spec: string; config?: string; json?: boolean }) => {
      if (!existsSync(opts.spec)) throw new UsageError(`no such file: ${opts.spec}`);
      const config = opts.config ?? join(dirname(opts.spec), "redocly.yaml");
      if (!existsSync(config)) throw new UsageError(`no Redocly config at ${config} (pass --config)`);

      // Loaded here, not at the CLI's start: swagger-parser and Redocly are large.
      const [{ loadSpec }, { redoclyLint }] = await Promise.all([import("../../generators/load-spec.ts"), import("../../generators/redocly-lint.ts")]);
      const problems: Problem[] = [];
      try {
        await loadSpec(opts.spec);
      } catch (error) {
        if (!(error instanceof SpecError)) throw error;
        problems.push(...error.problems);
      }
      problems.push(...(await redoclyLint(opts.spec, config)));

      const errors = problems.filter((p) => p.severity === "error");
      if (opts.json) {
        process.stdout.write(JSON.stringify({ valid: errors.length === 0, problems }, null, 2) + "\n");
      } else {
        for (const p of problems) process.stdout.write(formatProblem(p) + "\n");
        const warnings = problems.length - errors.length;
        process.stdout.write(`${opts.spec}: ${errors.length} error(s), ${warnings} warning(s)\n`);
      }
      setExit(errors.length === 0 ? EXIT_OK : EXIT_CHECK_FAILED);
    });
