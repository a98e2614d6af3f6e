/**
 * Where a whole `conformance --reference` run spends its time, case by case: the in-process run
 * (`runReference`, what the CLI runs) with, at the server's start and after every case, the wall
 * time, the process's CPU (all threads), the main thread's own CPU (/proc/self/task/<pid>/stat,
 * Linux) and the event loop's idle time (`performance.eventLoopUtilization()`: waiting on timers,
 * sockets and the thread pool's scrypt). Writes every phase to OUT (JSON) and prints the totals.
 * Run it from two trees alternately (the one before a change and the one after) to compare.
 *
 *   node --import tsx/esm bench/conformance-phases.ts OUT.json [only]
 *
 * tsx's ESM loader, as bin/service-contract.js registers it. (Under `--import tsx`, its CommonJS hook
 * too, the reference once answered GET /repos/o/r/hooks/abc with a 500: the explaining validators'
 * default import of ajv-formats was undefined there. Fixed; either loader works now.)
 *
 * Not a section of `npm run bench` (a run takes 25 s or more): figures in bench/README.md,
 * "Conformance suite against the reference".
 */
import { setFlagsFromString } from "node:v8";
// As bin/service-contract.js runs it: PGlite's WebAssembly Liftoff-only, before any is compiled.
setFlagsFromString("--liftoff-only");
import { readFileSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const [out, only] = process.argv.slice(2);
if (!out) throw new Error("usage: node --import tsx/esm bench/conformance-phases.ts OUT.json [only]");

/** The main thread's CPU in ms (utime + stime, in 10 ms clock ticks). */
function mainCpu(): number {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const cpu = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => (b.user - a.user + b.system - a.system) / 1000;

interface Sample { t: number; c: NodeJS.CpuUsage; m: number; e: ReturnType<typeof performance.eventLoopUtilization> }
const sample = (): Sample => ({ t: performance.now(), c: process.cpuUsage(), m: mainCpu(), e: performance.eventLoopUtilization() });
const first = sample();
let last = first;
const phases: { name: string; wall: number; cpu: number; mainCpu: number; idle: number }[] = [];
const mark = (name: string) => {
  const now = sample();
  phases.push({ name, wall: Math.round(now.t - last.t), cpu: Math.round(cpu(last.c, now.c)), mainCpu: now.m - last.m, idle: Math.round(performance.eventLoopUtilization(now.e, last.e).idle) });
  last = now;
};

const { runReference } = await import("../conformance/reference-profile.ts");
const summary = await runReference({
  ...(only ? { only } : {}),
  onStarted: () => mark("start"),
  onProgress: (e) => {
    if (e.type === "start") mark("first case");
    if (e.type === "case") mark(e.result.status === "passed" ? e.result.id : `${e.result.id}: ${e.result.status}`);
  },
});
mark("close");
const end = sample();
const totals = { wall: Math.round(end.t - first.t), cpu: Math.round(cpu(first.c, end.c)), mainCpu: end.m - first.m, idle: Math.round(performance.eventLoopUtilization(end.e, first.e).idle) };
writeFileSync(out, JSON.stringify({ totals, counts: summary.counts, phases }, null, 1));
console.log(JSON.stringify(totals), JSON.stringify(summary.counts));
process.exit(0);
