/**
 * `--shuffle[=SEED]` (issue 40): the order a seed draws is the same every time, a permutation of
 * the selection, different from the registered order, and the seed is printed and kept in the
 * report so an order that showed a dependence can be run again. The verdicts against real servers
 * in shuffled orders: test/conformance/order-independence.test.ts.
 */
import { describe, expect, it } from "vitest";
import { parseShuffleSeed, shuffled } from "../../conformance/run/shuffle.ts";
import { ALL_CASES } from "../../conformance/cases/index.ts";
import { runCliInProcess } from "../cli/in-process.ts";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunSummary } from "../../conformance/core/types.ts";
import { ceiling } from "../ceilings.ts";

describe("a shuffled order", () => {
  const ids = ALL_CASES.map((c) => c.id);

  it("is a permutation, the same for the same seed, another for another seed", () => {
    const a = shuffled(ids, 42);
    expect([...a].sort()).toEqual([...ids].sort());
    expect(shuffled(ids, 42)).toEqual(a);
    expect(a).not.toEqual(ids);
    expect(shuffled(ids, 43)).not.toEqual(a);
  });

  it.each([["7", 7], ["2147483647", 2147483647], ["0", undefined], ["-1", undefined], ["1.5", undefined], ["abc", undefined], ["2147483648", undefined]])("seed %j → %s", (text, seed) => {
    expect(parseShuffleSeed(text)).toBe(seed);
  });

  it("a bad seed is a usage error, one line, before anything is contacted", async () => {
    const result = await runCliInProcess(["conformance", "--base-url", "http://127.0.0.1:9", "--auth-url", "http://127.0.0.1:9", "--shuffle=soon"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("service-contract: --shuffle takes a whole number from 1 to 2147483647 as its seed, got soon\n");
  });

  it("the seed is printed and kept in results.json, and the cases ran in its order", async () => {
    const out = mkdtempSync(join(tmpdir(), "sc-shuffle-"));
    const only = "CONTRACT-REQ-00*";
    const result = await runCliInProcess(["conformance", "--reference", "--only", only, "--shuffle=5", "--reporter", "json", "--out", out]);
    expect(result.stderr).toContain("Cases in shuffled order, seed 5 (run the same order again: --shuffle=5)");
    expect(result.code, result.stdout).toBe(0);
    const report = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as RunSummary;
    expect(report.order).toEqual({ shuffle: 5 });
    const selected = ALL_CASES.filter((c) => c.id.startsWith("CONTRACT-REQ-00")).map((c) => c.id);
    expect(report.results.map((r) => r.id)).toEqual(shuffled(selected, 5));
  }, ceiling(60_000));
});
