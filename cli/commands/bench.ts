/**
 * `service-contract bench [section…]`: the project's benchmarks (bench/), each figure printed as a
 * ratio to a baseline measured in the same run — the same as `npm run bench`. The sections need
 * the development dependencies (autocannon, tinybench), so they work in a clone after `npm ci`;
 * where those are missing the command says so and exits 2 rather than printing a stack trace.
 */
import { Command } from "commander";
import type { CommandFactory } from "../main.ts";
import { EXIT_OK, UsageError } from "../exit-codes.ts";
import { runSections, SECTION_NAMES, unknownSections } from "../../bench/sections.ts";

export const benchCommand: CommandFactory = (setExit) =>
  new Command("bench")
    .description(`Run the benchmarks (${SECTION_NAMES.join(", ")}; all when none is named), as ratios to baselines measured in the same run.`)
    .argument("[sections...]", `any of: ${SECTION_NAMES.join(", ")}`)
    .addHelpText(
      "after",
      "\nExamples:\n  service-contract bench validators startup\n" +
        "  TEST_DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/postgres service-contract bench deliveries\n" +
        "\nFigures and how to read them: bench/README.md. Exit codes: 0 ran, 2 an unknown section or missing development dependencies.",
    )
    .action(async (sections: string[]) => {
      const unknown = unknownSections(sections);
      if (unknown.length) throw new UsageError(`unknown bench section(s): ${unknown.join(", ")}; known: ${SECTION_NAMES.join(", ")}`);
      try {
        await runSections(sections);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ERR_MODULE_NOT_FOUND") throw new UsageError(`the benchmarks need the development dependencies (run npm ci in a clone of service-contract): ${(error as Error).message}`);
        throw error;
      }
      setExit(EXIT_OK);
    });
