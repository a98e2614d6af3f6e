/**
 * `generate --check` cold, as a pipeline pays it: a fresh `service-contract` process each time,
 * timed from outside, against openapi-typescript's own CLI on the same spec in the same run (the
 * one step a TypeScript contract pipeline pays anyway). The two alternate, so a change in the
 * machine's load falls on both; the load average is printed beside the figures.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { median, printSection } from "./lib/report.ts";

const root = join(import.meta.dirname, "..");
const RUNS = 5;

/** Wall milliseconds of one process; it must exit 0 (a failed check is not a figure). */
function wall(args: string[]): number {
  const t = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
  const ms = performance.now() - t;
  if (run.status !== 0) throw new Error(`node ${args.join(" ")} exited ${run.status}: ${run.stderr || run.stdout}`);
  return ms;
}

export async function benchGenerateCheck(): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), "bench-ots-"));
  const cli = ["bin/service-contract.js", "generate", "--check"];
  const ots = [join(root, "node_modules/openapi-typescript/bin/cli.js"), "spec/openapi.yaml", "-o", join(out, "types.ts"), "--silent"];
  try {
    // One untimed run of each: the file cache warm for both, as on a CI runner after checkout.
    wall(cli);
    wall(ots);
    const a: number[] = [];
    const b: number[] = [];
    const load = [loadavg()[0]!];
    for (let i = 0; i < RUNS; i++) {
      b.push(wall(ots));
      a.push(wall(cli));
    }
    load.push(loadavg()[0]!);
    printSection(`generate --check cold, as a process (median of ${RUNS}, alternating; load ${load.map((l) => l.toFixed(2)).join(" → ")})`, [
      { name: "openapi-typescript CLI on spec/openapi.yaml (baseline)", value: median(b), unit: "ms", better: "lower", baseline: true },
      { name: "service-contract generate --check", value: median(a), unit: "ms", better: "lower" },
    ], "generate --check ≤ 2 s (issue 43)");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
