/**
 * What V8's optimizing compiler (TurboFan) costs and earns on PGlite's WebAssembly, the reason the
 * `service-contract` command runs it Liftoff-only (bin/service-contract.js). Each variant runs in
 * fresh processes, alternating, with and without `--liftoff-only` on the command line:
 *   - start: open an in-memory database, migrate, seed the demo data, record the 300-action demo
 *     history (what `serve` does before its ready line);
 *   - then: 5,000 feed-like queries on the same database (a server that has been up a while:
 *     whatever TurboFan was going to optimize is optimized by then).
 * Prints CPU (user + system, including V8's background compiler threads) and wall of each phase,
 * medians, and the ratio Liftoff-only / default.
 *
 *   node --import tsx bench/pglite-tiering.ts [runs]     (default 3 of each)
 *
 * Not a section of `npm run bench` (it takes about a minute): figures in bench/README.md,
 * "PGlite's WebAssembly: Liftoff only".
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const RUNS = Number(process.argv[2] ?? 3);
const QUERIES = 5_000;

const WORKLOAD = `
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
const { openDatabase } = await import("./reference/db/database.ts");
const { migrate } = await import("./reference/db/migrate.ts");
const { seedDatabase } = await import("./reference/seed/load.ts");
const { seedHistory } = await import("./reference/seed/history.ts");
await import("@electric-sql/pglite");
const c0 = cpu(), w0 = performance.now();
const db = await openDatabase({});
await migrate(db);
await seedDatabase(db, "demo");
await seedHistory(db, { now: new Date("2026-06-01T12:00:00Z"), count: 300 });
const c1 = cpu(), w1 = performance.now();
for (let i = 0; i < ${QUERIES}; i++) await db.query("select * from events order by id desc limit 30");
const c2 = cpu(), w2 = performance.now();
await db.close();
console.log(JSON.stringify({ startCpu: c1 - c0, startWall: (w1 - w0) / 1e3, runCpu: c2 - c1, runWall: (w2 - w1) / 1e3 }));`;

interface Figures {
  startCpu: number;
  startWall: number;
  runCpu: number;
  runWall: number;
}

function once(liftoffOnly: boolean): Figures {
  const args = [...(liftoffOnly ? ["--liftoff-only"] : []), "--import", "tsx", "--input-type=module", "-e", WORKLOAD];
  return JSON.parse(execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" }).trim().split("\n").at(-1)!) as Figures;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const runs: Record<"default" | "liftoff", Figures[]> = { default: [], liftoff: [] };
for (let i = 0; i < RUNS; i++) {
  runs.default.push(once(false));
  runs.liftoff.push(once(true));
}
const keys = ["startCpu", "startWall", "runCpu", "runWall"] as const;
const labels = { startCpu: "start CPU s", startWall: "start wall s", runCpu: `${QUERIES} queries CPU s`, runWall: `${QUERIES} queries wall s` };
console.log(`# PGlite's WebAssembly, default tiering vs --liftoff-only (median of ${RUNS} fresh processes each)`);
for (const key of keys) {
  const d = median(runs.default.map((r) => r[key]));
  const l = median(runs.liftoff.map((r) => r[key]));
  console.log(`${labels[key].padEnd(24)} default ${d.toFixed(2).padStart(6)}  liftoff-only ${l.toFixed(2).padStart(6)}  ratio ${(l / d).toFixed(2)}×`);
}
