/**
 * `service-contract bundle --out DIR [--check]`: the contract for other tools and languages
 * (generators/editions/bundle.ts): a single-file OpenAPI 3.1 document, an OpenAPI 3.0.3 edition
 * and plain JSON Schema files (2020-12 and draft-07) per webhook event and per response resource.
 * Only the files the bundle owns are replaced in DIR; `--check` writes nothing and exits 1 when
 * DIR differs, as `generate --check` does (the package's own copy, bundle/, is checked so).
 */
import { Command } from "commander";
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { CommandFactory } from "../main.ts";
import { EXIT_CHECK_FAILED, EXIT_OK, UsageError } from "../exit-codes.ts";
import { formatProblem, SpecError } from "../../generators/problems.ts";
import { diffOutput, hasDrift, isWithin, writeOutput } from "../../generators/output.ts";
import { DEFAULT_SPEC } from "../options.ts";

export const bundleCommand: CommandFactory = (setExit) =>
  new Command("bundle")
    .description("Write the contract as one OpenAPI 3.1 file, an OpenAPI 3.0.3 edition and plain JSON Schema files.")
    .requiredOption("--out <dir>", "output folder (its openapi.json, openapi-3.0.json, json-schema/ and README.md are replaced)")
    .option("--spec <file>", "the OpenAPI document (default: this package's contract)", DEFAULT_SPEC)
    .option("--check", "write nothing; exit 1 if the folder differs from what would be written")
    .addHelpText(
      "after",
      "\nExamples:\n  service-contract bundle --out contract\n  service-contract bundle --out bundle --check\n" +
        "\nA copy ships in the package (service-contract/bundle/…) and `serve` serves it under /docs/bundle/.\n" +
        "Exit codes: 0 written or up to date, 1 --check found a difference, 2 a usage or spec error.",
    )
    .action(async (opts: { out: string; spec: string; check?: boolean }) => {
      if (opts.out.trim() === "") throw new UsageError("--out needs a folder name");
      if (!existsSync(opts.spec)) throw new UsageError(`no such file: ${opts.spec}`);
      const out = resolve(opts.out);
      if (existsSync(out) && !statSync(out).isDirectory()) throw new UsageError(`--out ${opts.out} is a file, not a folder`);
      const schemas = join(dirname(resolve(opts.spec)), "schemas");
      if (isWithin(schemas, out)) throw new UsageError(`--out ${opts.out} is inside the spec's schemas/ folder, which the bundle would add files to`);
      let files;
      try {
        // Loaded here: swagger-parser and the editions are needed by this command only.
        const { buildBundle, BUNDLE_SCOPE } = await import("../../generators/editions/bundle.ts");
        files = { list: (await buildBundle(opts.spec)).files, scope: BUNDLE_SCOPE };
      } catch (error) {
        if (error instanceof SpecError) throw new UsageError(`the spec has errors:\n${error.problems.map(formatProblem).join("\n")}`);
        throw error;
      }
      if (!opts.check) {
        try {
          writeOutput(opts.out, files.list, files.scope);
        } catch (error) {
          if (typeof (error as NodeJS.ErrnoException).code !== "string") throw error;
          throw new UsageError(`cannot write --out ${opts.out}: ${(error as Error).message}`);
        }
        process.stdout.write(`wrote ${files.list.length} files to ${opts.out}/\n`);
        setExit(EXIT_OK);
        return;
      }
      const drift = diffOutput(opts.out, files.list, files.scope);
      if (!hasDrift(drift)) {
        process.stdout.write(`${opts.out}/ is up to date (${files.list.length} files)\n`);
        setExit(EXIT_OK);
        return;
      }
      const lines = [...drift.added.map((f) => `  new:     ${f}`), ...drift.changed.map((f) => `  changed: ${f}`), ...drift.deleted.map((f) => `  deleted: ${f}`)];
      process.stdout.write(`${opts.out}/ is out of date:\n${lines.join("\n")}\nrun: service-contract bundle --out ${opts.out}\n`);
      setExit(EXIT_CHECK_FAILED);
    });
