/**
 * `service-contract lint`: the spec must load (swagger-parser: OpenAPI 3.1 schema, every $ref
 * resolved) and pass Redocly lint with the committed config. Exit 1 on any error, naming each
 * problem's code and JSON pointer; warnings are printed but do not fail the run.
 */
import { Command } from "commander";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CommandFactory } from "../main.ts";
import { EXIT_CHECK_FAILED, EXIT_OK, UsageError } from "../exit-codes.ts";
import { formatProblem, SpecError, type Problem } from "../../generators/problems.ts";
import { DEFAULT_SPEC } from "../options.ts";

/**
 * Runs `lint(config)` with a config of Redocly's recommended rules and nothing else, for a spec
 * that has no redocly.yaml of its own: written to a temporary folder (Redocly reports sources
 * relative to the working folder, not to the config's) and removed after.
 */
async function withRecommendedConfig<T>(lint: (config: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "service-contract-lint-"));
  try {
    const config = join(dir, "redocly.yaml");
    writeFileSync(config, "extends:\n  - recommended\n");
    return await lint(config);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const lintCommand: CommandFactory = (setExit) =>
  new Command("lint")
    .description("Validate the OpenAPI document (swagger-parser) and lint it (Redocly).")
    .option("--spec <file>", "the OpenAPI document", DEFAULT_SPEC)
    .option("--config <file>", "Redocly config (default: redocly.yaml beside the spec if there is one, else Redocly's recommended rules)")
    .option("--json", "print the problems as JSON")
    .addHelpText("after", "\nExamples:\n  service-contract lint\n  service-contract lint --spec my/openapi.yaml --json")
    .action(async (opts: { spec: string; config?: string; json?: boolean }) => {
      if (!existsSync(opts.spec)) throw new UsageError(`no such file: ${opts.spec}`);
      // A config named with --config must exist; without one, a spec with no redocly.yaml beside it
      // is linted with Redocly's recommended rules (as `redocly lint` itself would).
      if (opts.config !== undefined && !existsSync(opts.config)) throw new UsageError(`no Redocly config at ${opts.config}: --config takes a redocly.yaml, or leave it out for the one beside the spec (else Redocly's recommended rules)`);
      const beside = join(dirname(opts.spec), "redocly.yaml");
      const config = opts.config ?? (existsSync(beside) ? beside : undefined);

      // Loaded here, not at the CLI's start: swagger-parser and Redocly are large.
      const [{ loadSpec }, { redoclyLint }] = await Promise.all([import("../../generators/load-spec.ts"), import("../../generators/redocly-lint.ts")]);
      const problems: Problem[] = [];
      try {
        await loadSpec(opts.spec);
      } catch (error) {
        if (!(error instanceof SpecError)) throw error;
        problems.push(...error.problems);
      }
      problems.push(...(await (config ? redoclyLint(opts.spec, config) : withRecommendedConfig((c) => redoclyLint(opts.spec, c)))));

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
