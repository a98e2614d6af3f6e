/**
 * `service-contract generate [--check]`: write `generated/` from the spec, or, with --check,
 * write nothing and report whether `generated/` is exactly what would be written (exit 1 with
 * the added, changed and deleted files when not). Spec errors exit 2 with their JSON pointers.
 */
import { Command } from "commander";
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { CommandFactory } from "../main.ts";
import { EXIT_CHECK_FAILED, EXIT_OK, UsageError } from "../exit-codes.ts";
import { makeFolder } from "../../generators/make-folder.ts";
import { diffOutput, hasDrift, isWithin, writeOutput } from "../../generators/output.ts";
import { formatProblem, SpecError } from "../../generators/problems.ts";
import { missingNeeds, scopeOf, TARGET_NAMES } from "../../generators/targets/registry.ts";
import { DEFAULT_SPEC } from "../options.ts";
import { firstMissing, removeMade } from "../made-folders.ts";

/**
 * The output folder is emptied before writing, so refuse the folders where that would destroy
 * work: the working directory or one above it (`--out .`), a folder holding the spec or its
 * schema files, a file.
 */
function checkOutFolder(outOption: string, spec: string): void {
  if (outOption.trim() === "") throw new UsageError("--out needs a folder name");
  const out = resolve(outOption);
  if (isWithin(out, process.cwd())) {
    throw new UsageError(`--out ${outOption} is the working directory or above it, and would be emptied; give generate a folder of its own (e.g. generated)`);
  }
  const schemas = join(dirname(resolve(spec)), "schemas");
  if (isWithin(out, resolve(spec)) || isWithin(out, schemas) || isWithin(schemas, out)) {
    throw new UsageError(`--out ${outOption} overlaps the spec ${spec} or its schemas/ folder, which emptying it would delete; give generate a folder of its own`);
  }
  if (existsSync(out) && !statSync(out).isDirectory()) throw new UsageError(`--out ${outOption} is a file, not a folder`);
}

/** Makes the output folder and checks it can be written before the seconds generation takes. */
function prepareOutFolder(outOption: string): void {
  try {
    makeFolder(outOption);
    accessSync(outOption, constants.W_OK);
  } catch (error) {
    if (typeof (error as NodeJS.ErrnoException).code !== "string") throw error;
    throw new UsageError(`cannot write --out ${outOption}: ${(error as Error).message}`);
  }
}

interface GenerateCliOptions {
  spec: string;
  out: string;
  targets: string;
  check?: boolean;
}

export const generateCommand: CommandFactory = (setExit) =>
  new Command("generate")
    .description("Generate types, validators, client and server stubs from the spec.")
    .option("--spec <file>", "the OpenAPI document", DEFAULT_SPEC)
    .option("--out <dir>", "output folder (emptied before writing; with --targets, only those targets' files)", "generated")
    .option("--targets <list>", `comma-separated subset of ${TARGET_NAMES.join(",")}`, TARGET_NAMES.join(","))
    .option("--check", "write nothing; exit 1 if the output folder differs from what would be generated")
    .addHelpText(
      "after",
      "\nExamples:\n  service-contract generate\n  service-contract generate --check\n  service-contract generate --targets types,validators --out src/generated\n" +
        "\nOutside this package, client/ and server/ import their runtime from service-contract/runtime/…,\n" +
        "so the project they are written into needs service-contract (and fastify, for server/) installed.\n" +
        "validators/ is JavaScript with declarations, which tsc does not copy: a project that compiles into\n" +
        "another folder (outDir) copies the validators/ folder there too, with its subfolders.\n" +
        "Exit codes: 0 written or up to date, 1 --check found drift, 2 a usage or spec error.",
    )
    .action(async (opts: GenerateCliOptions) => {
      const targets = opts.targets.split(",").map((t) => t.trim()).filter(Boolean);
      const unknown = targets.filter((t) => !TARGET_NAMES.includes(t));
      if (targets.length === 0 || unknown.length > 0) throw new UsageError(`--targets takes ${TARGET_NAMES.join(",")}; got ${opts.targets}`);
      if (!existsSync(opts.spec)) throw new UsageError(`no such file: ${opts.spec}`);
      checkOutFolder(opts.out, opts.spec);
      const missing = missingNeeds(targets, (path) => existsSync(join(opts.out, path)));
      if (missing.length > 0) {
        throw new UsageError(`--targets ${targets.join(",")} imports from ${missing.join(" and ")}, which ${opts.out}/ does not have: add ${missing.join(",")} to --targets`);
      }

      // A failed generate leaves nothing behind: the folders it made for --out go again.
      const made = opts.check ? undefined : firstMissing(opts.out);
      try {
        await generateInto(opts, targets, setExit);
      } catch (error) {
        removeMade(made);
        throw error;
      }
    });

/** The generation itself, into --out (or compared with it, --check). */
async function generateInto(opts: GenerateCliOptions, targets: string[], setExit: (code: number) => void): Promise<void> {
  if (!opts.check) prepareOutFolder(opts.out);

  let files;
  try {
    // Loaded here: the generators (swagger-parser, the targets) are the heaviest part of the CLI.
    const { generate } = await import("../../generators/generate.ts");
    files = await generate({ spec: opts.spec, targets, out: opts.out });
  } catch (error) {
    if (error instanceof SpecError) throw new UsageError(`the spec has errors:\n${error.problems.map(formatProblem).join("\n")}`);
    throw error;
  }

  if (!opts.check) {
    try {
      writeOutput(opts.out, files, scopeOf(targets));
    } catch (error) {
      // ENOTDIR, EACCES, EROFS, ENOENT under /proc: the folder's fault, said in one line.
      if (typeof (error as NodeJS.ErrnoException).code !== "string") throw error;
      throw new UsageError(`cannot write --out ${opts.out}: ${(error as Error).message}`);
    }
    process.stdout.write(`wrote ${files.length} files to ${opts.out}/\n`);
    setExit(EXIT_OK);
    return;
  }
  const drift = diffOutput(opts.out, files, scopeOf(targets));
  if (!hasDrift(drift)) {
    process.stdout.write(`${opts.out}/ is up to date (${files.length} files)\n`);
    setExit(EXIT_OK);
    return;
  }
  const lines = [
    ...drift.added.map((f) => `  new:     ${opts.out}/${f}`),
    ...drift.changed.map((f) => `  changed: ${opts.out}/${f}`),
    ...drift.deleted.map((f) => `  deleted: ${opts.out}/${f}`),
  ];
  const state = existsSync(opts.out) ? "is out of date" : "does not exist";
  process.stdout.write(
    `${opts.out}/ ${state}: ${drift.added.length} new, ${drift.changed.length} changed, ${drift.deleted.length} deleted\n` +
      `${lines.join("\n")}\nrun: service-contract generate\n`,
  );
  setExit(EXIT_CHECK_FAILED);
}
