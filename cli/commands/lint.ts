/**
 * `service-contract lint`: the spec must load (swagger-parser: OpenAPI 3.1 schema, every $ref
 * resolved) and pass Redocly lint with the committed config. Exit 1 on any error, naming each
 * problem's code and JSON pointer; warnings are printed but do not fail the run.
 *
 * The spec linted may be a stranger's (a pull request's, in CI), so nothing that came with it
 * runs: the Redocly config is `--config`'s, or for the package's own contract its committed
 * spec/redocly.yaml, never a redocly.yaml found beside another spec (its `plugins:` are code and
 * its `extends:` may be URLs); and the contract passes the guard (generators/contract-guard/)
 * before Redocly, which follows a `$ref` to a URL, reads it.
 */
import { Command } from "commander";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { CommandFactory } from "../main.ts";
import { EXIT_CHECK_FAILED, EXIT_OK, UsageError } from "../exit-codes.ts";
import { formatProblem, SpecError, type Problem } from "../../generators/problems.ts";
import { DEFAULT_SPEC } from "../options.ts";
import { PACKAGE_SPEC } from "../../generators/package-files.ts";

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
    .option("--config <file>", "Redocly config (default: Redocly's recommended rules; the package's own contract, its committed spec/redocly.yaml). A redocly.yaml beside another spec is never used: it came with the spec, and its plugins would run")
    .option("--json", "print the problems as JSON")
    .addHelpText("after", "\nExamples:\n  service-contract lint\n  service-contract lint --spec my/openapi.yaml --json")
    .action(async (opts: { spec: string; config?: string; json?: boolean }) => {
      if (!existsSync(opts.spec)) throw new UsageError(`no such file: ${opts.spec}`);
      // A config named with --config must exist; without one, a spec is linted with Redocly's
      // recommended rules, except the package's own, whose config is the package's too.
      if (opts.config !== undefined && !existsSync(opts.config)) throw new UsageError(`no Redocly config at ${opts.config}: --config takes a redocly.yaml, or leave it out for Redocly's recommended rules`);
      const own = join(dirname(PACKAGE_SPEC), "redocly.yaml");
      const config = opts.config ?? (resolve(opts.spec) === PACKAGE_SPEC && existsSync(own) ? own : undefined);

      // Loaded here, not at the CLI's start: swagger-parser and Redocly are large.
      const [{ loadSpec }, { redoclyLint }, { guardContract }] = await Promise.all([
        import("../../generators/load-spec.ts"),
        import("../../generators/redocly-lint.ts"),
        import("../../generators/contract-guard/guard.ts"),
      ]);
      // Refused (exit 2, one line) before Redocly starts: it would fetch a URL $ref.
      guardContract(opts.spec);
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
