/**
 * `service-contract bench [section…]`: the project's benchmarks (bench/), each figure printed as a
 * ratio to a baseline measured in the same run — the same as `npm run bench`. The sections need
 * the development dependencies (autocannon, tinybench), so they work in a clone after `npm ci`;
 * where those are missing the command says so and exits 2 rather than printing a stack trace.
 */
import { Command } from "commander";
import type { CommandFactory } from "../main.ts";
import { EXIT_OK, UsageError } from "../exit-codes.ts";
import { existsSync } from "node:fs";

/** What bench/sections.ts offers (declared here so that the build does not compile bench/ into dist/). */
interface BenchSections {
  SECTION_NAMES: readonly string[];
  unknownSections(wanted: readonly string[]): string[];
  runSections(wanted: readonly string[]): Promise<void>;
}

/**
 * bench/ is part of a clone, not of the installed package (its load generators are development
 * dependencies), so it is loaded by a path the compiler does not follow: from the sources it is
 * there; from the installed dist/ it is not, and the command says so.
 */
const sectionsFile = new URL("../../bench/sections.ts", import.meta.url);
const bench = existsSync(sectionsFile) ? ((await import(sectionsFile.href)) as BenchSections) : undefined;
const SECTION_NAMES = bench?.SECTION_NAMES ?? [];

/** The development dependencies the sections load (validators.ts imports tinybench, feeds.ts requires autocannon). */
const DEV_DEPENDENCIES = ["autocannon", "tinybench"];

/**
 * Whether `error` is one of those packages not being installed — Node's "Cannot find package 'x'"
 * (import) or "Cannot find module 'x'" (require). Any other missing module, a project file
 * included, is a bug to see in full, not a hint to run npm ci.
 */
export function isMissingDevDependency(error: unknown): boolean {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  const specifier = /^Cannot find (?:package|module) '([^']+)'/.exec(message ?? "")?.[1];
  return specifier !== undefined && DEV_DEPENDENCIES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

export const benchCommand: CommandFactory = (setExit) =>
  new Command("bench")
    .description(
      bench
        ? `Run the benchmarks (${SECTION_NAMES.join(", ")}; all when none is named), as ratios to baselines measured in the same run.`
        : "Run the benchmarks (in a clone of the repository only).",
    )
    .argument("[sections...]", `any of: ${SECTION_NAMES.join(", ")}`)
    .addHelpText(
      "after",
      "\nExamples:\n  service-contract bench validators startup\n" +
        "  TEST_DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/postgres service-contract bench deliveries\n" +
        "\nFigures and how to read them: bench/README.md. Exit codes: 0 ran, 2 an unknown section or missing development dependencies.",
    )
    .action(async (sections: string[]) => {
      if (!bench) throw new UsageError("bench runs in a clone of service-contract (git clone, then npm ci): the installed package has no benchmarks");
      const { runSections, unknownSections } = bench;
      const unknown = unknownSections(sections);
      if (unknown.length) throw new UsageError(`unknown bench section(s): ${unknown.join(", ")}; known: ${SECTION_NAMES.join(", ")}`);
      try {
        await runSections(sections);
      } catch (error) {
        if (isMissingDevDependency(error)) throw new UsageError(`the benchmarks need the development dependencies (run npm ci in a clone of service-contract): ${(error as Error).message}`);
        // A database URL that does not connect (bench deliveries on PostgreSQL): one line, no stack.
        if ((error as Error).name === "DatabaseUnavailableError") throw new UsageError((error as Error).message);
        throw error;
      }
      setExit(EXIT_OK);
    });
