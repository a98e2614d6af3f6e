/**
 * `service-contract bench`: the benchmarks through the CLI, as DESIGN.md lists it beside
 * `npm run bench`. A section runs and prints its figures as ratios to its baseline; an unknown
 * section is a usage error naming the known ones. No figure is asserted: speed is for the bench,
 * never a test's pass or fail.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runLauncher } from "./run-cli.ts";
import { SECTION_NAMES } from "../../bench/sections.ts";
import { isMissingDevDependency } from "../../cli/commands/bench.ts";
import { ceiling } from "../ceilings.ts";

describe("service-contract bench", () => {
  it("runs a named section and prints each figure beside its baseline", async () => {
    const result = await runLauncher(["bench", "validators"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^# service-contract benchmarks \(node v\d+/m);
    expect(result.stdout).toMatch(/JSON\.parse of the same bytes \(floor\)\s+[\d,]+ ops\/s\s+baseline/);
    expect(result.stdout).toMatch(/validateWebhook \(precompiled\)\s+[\d,]+ ops\/s\s+[\d.]+× baseline/);
    // Only the section asked for.
    expect(result.stdout).not.toMatch(/import|generate|feed|deliver/i);
  }, ceiling(60_000));

  it("exits 2 on an unknown section, naming the known ones", async () => {
    const result = await runLauncher(["bench", "validators", "bogus"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown bench section(s): bogus");
    for (const name of SECTION_NAMES) expect(result.stderr).toContain(name);
    expect(result.stdout).toBe("");
  });

  it("calls only autocannon or tinybench not being installed a missing development dependency", async () => {
    const missing = (code: string, message: string) => Object.assign(new Error(message), { code });
    expect(isMissingDevDependency(missing("ERR_MODULE_NOT_FOUND", "Cannot find package 'tinybench' imported from /x/bench/validators.ts"))).toBe(true);
    expect(isMissingDevDependency(missing("MODULE_NOT_FOUND", "Cannot find module 'autocannon'\nRequire stack:\n- /x/bench/feeds.ts"))).toBe(true);
    expect(isMissingDevDependency(missing("ERR_MODULE_NOT_FOUND", "Cannot find package 'yaml' imported from /x/bench/generate.ts"))).toBe(false);
    expect(isMissingDevDependency(missing("ERR_MODULE_NOT_FOUND", "Cannot find module '/x/bench/tinybench' imported from /x/bench/sections.ts"))).toBe(false);
    expect(isMissingDevDependency(new Error("Cannot find package 'tinybench'"))).toBe(false);
    // A project file that is missing, as Node reports it: not a dependency to install.
    const error = await import(join(import.meta.dirname, "no-such-section.ts")).catch((e: unknown) => e);
    expect((error as NodeJS.ErrnoException).code).toBe("ERR_MODULE_NOT_FOUND");
    expect(isMissingDevDependency(error)).toBe(false);
  });

  it("lists the sections in --help", async () => {
    const result = await runLauncher(["bench", "--help"]);
    expect(result.code).toBe(0);
    for (const name of SECTION_NAMES) expect(result.stdout).toContain(name);
  });
});
