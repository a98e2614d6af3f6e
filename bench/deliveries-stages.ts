/**
 * Where a delivery's latency goes, by stage (bench/README.md, "Deliveries": the per-stage
 * profile). Runs the latency half of bench/deliveries.ts — push actions at a steady rate
 * (BENCH_DELIVERIES_RATES, first one; default 100 events/s) for BENCH_DELIVERIES_SECONDS (10)
 * after 2 s of warm-up — on PGlite in memory, or on PostgreSQL with BENCH_DATABASE_URL /
 * TEST_DATABASE_URL (an admin URL: a scratch database is made), and stamps every delivery
 * as it passes each stage, by wrapping methods of the engine's classes on their prototypes (no
 * tracing code in the engine itself):
 *
 *   action start ─ enqueue (the domain listener's enqueueMany, inside the action's transaction)
 *   ─ commit (runAction resolves) ─ fetch issued (pg-boss fetch called) ─ fetched (it resolved)
 *   ─ signed (the request built and signed, its start being written: AttemptStarts.mark)
 *   ─ start written (mark resolved: the request leaves) ─ receipt (at the receiver)
 *   ─ answer read (Recorder.add) ─ recorded (pg-boss complete, in the recorder's transaction)
 *
 * and prints the p50 / p99 of each step over the measured deliveries. On PGlite it also times
 * every protocol message (`execProtocolRawSync`, synchronous WebAssembly: the one thread is
 * busy for exactly that long) and prints the database's time per delivery by statement, and
 * the share of the wall-clock the thread spent in the database.
 *
 *   node --import tsx bench/deliveries-stages.ts     (add --cpu-prof --cpu-prof-dir=/tmp/… for a CPU profile)
 */
import pg from "pg";
import { createRequire } from "node:module";
import type PgBoss from "pg-boss";
import { openDatabase, type Database } from "../reference/db/database.ts";
import { migrate } from "../reference/db/migrate.ts";
import { seedDatabase } from "../reference/seed/load.ts";
import { startDeliveries } from "../reference/deliveries/engine.ts";
import { DeliveryQueue } from "../reference/deliveries/queue.ts";
import { AttemptStarts } from "../reference/deliveries/starts.ts";
import { Recorder } from "../reference/deliveries/recorder.ts";
import { timePgliteStatements } from "./lib/pglite-statements.ts";
import { CONCURRENCY, hooksTo, latencyRun, percentile, pushSample, startReceiver, URLS } from "./deliveries.ts";

const RATE = Number((process.env.BENCH_DELIVERIES_RATES ?? "100").split(",")[0]);
const now = () => performance.timeOrigin + performance.now();

type Stage = "enqueue" | "fetchIssued" | "fetched" | "signed" | "startWritten" | "answer" | "recorded";
const stamps = new Map<string, Partial<Record<Stage, number>>>();
const indexOf = new Map<string, number>();
const stamp = (guid: string, stage: Stage, at = now()) => {
  const s = stamps.get(guid) ?? {};
  s[stage] ??= at;
  stamps.set(guid, s);
};
const jobGuid = new Map<string, string>();

// enqueue: guid ↔ the bench's event number (its push's commit message, "bench-<n>").
const enqueueMany = DeliveryQueue.prototype.enqueueMany;
DeliveryQueue.prototype.enqueueMany = async function (this: DeliveryQueue, tx, deliveries) {
  const at = now();
  const guids = await enqueueMany.call(this, tx, deliveries);
  guids.forEach((guid, k) => {
    stamp(guid, "enqueue", at);
    const match = /bench-(\d+)/.exec(JSON.stringify(deliveries[k]!.payload));
    if (match) indexOf.set(guid, Number(match[1]));
  });
  return guids;
};
// pg-boss copies its manager's methods onto the instance when it is made: wrap the manager's.
const Manager = (createRequire(import.meta.url)("pg-boss/src/manager.js") as { prototype: Record<string, (...a: unknown[]) => Promise<unknown>> }).prototype;
const fetch = Manager.fetch!;
// pg-boss promotes them by name: the wrappers keep it.
Manager.fetch = { async fetch(this: unknown, ...args: unknown[]) {
  const at = now();
  const jobs = ((await fetch.apply(this, args)) ?? []) as PgBoss.Job<{ guid: string }>[];
  const done = now();
  for (const job of jobs) {
    jobGuid.set(job.id, job.data.guid);
    stamp(job.data.guid, "fetchIssued", at);
    stamp(job.data.guid, "fetched", done);
  }
  return jobs;
} }.fetch;
const mark = AttemptStarts.prototype.mark;
AttemptStarts.prototype.mark = async function (this: AttemptStarts, start) {
  stamp(start.guid, "signed");
  await mark.call(this, start);
  stamp(start.guid, "startWritten");
};
const add = Recorder.prototype.add;
Recorder.prototype.add = function (this: Recorder, finished) {
  const guid = jobGuid.get(finished.jobId);
  if (guid) stamp(guid, "answer");
  add.call(this, finished);
};
const complete = Manager.complete!;
Manager.complete = { async complete(this: unknown, ...args: unknown[]) {
  const result = await complete.apply(this, args);
  const at = now();
  for (const id of (Array.isArray(args[1]) ? args[1] : [args[1]]) as string[]) {
    const guid = jobGuid.get(id);
    if (guid) stamp(guid, "recorded", at);
  }
  return result;
} }.complete;

// PGlite: the database's time by statement (bench/lib/pglite-statements.ts).
const statements = timePgliteStatements(70);
const { spent } = statements;

async function open(): Promise<{ db: Database; databaseUrl?: string; cleanup(): Promise<void> }> {
  const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!admin) return { db: await openDatabase({}), cleanup: async () => {} };
  const name = `bench_stages_${process.pid}`;
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  return {
    db: await openDatabase({ databaseUrl: url.href }),
    databaseUrl: url.href,
    cleanup: async () => {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}

const receiver = await startReceiver();
const { db, databaseUrl, cleanup } = await open();
await migrate(db);
await seedDatabase(db, "demo");
const engine = await startDeliveries(db, URLS, { concurrency: CONCURRENCY, databaseUrl, onError: (e) => process.stderr.write(`${String(e)}\n`) });
const { repos, hookId } = await hooksTo(db, receiver.url);
await pushSample(db, engine, receiver, hookId);

// The action's commit, by event number.
const committedAt = new Map<number, number>();
const startedAt = new Map<number, number>();
statements.reset();
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
const run = await latencyRun(db, engine, receiver, repos, RATE, undefined, { startedAt, committedAt });
const wallMs = performance.now() - wall0;
const cpu = process.cpuUsage(cpu0);
await new Promise((r) => setTimeout(r, 500));
const marks = await receiver.marks();
await engine.stop();

const warmUp = RATE * 2;
const steps: [string, (g: string, i: number) => number | undefined][] = [];
const at = (g: string, s: Stage) => stamps.get(g)?.[s];
const diff = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : b - a);
steps.push(["action start → enqueue called (the action's own work before its listener)", (g, i) => diff(startedAt.get(i), at(g, "enqueue"))]);
steps.push(["enqueue called → commit (enqueue, rest of the action, COMMIT)", (g, i) => diff(at(g, "enqueue"), committedAt.get(i))]);
steps.push(["commit → fetch issued (waiting to be looked for)", (g, i) => diff(committedAt.get(i), at(g, "fetchIssued"))]);
steps.push(["fetch issued → fetched (pg-boss fetch)", (g) => diff(at(g, "fetchIssued"), at(g, "fetched"))]);
steps.push(["fetched → signed (read rows, wait for a slot, build and sign)", (g) => diff(at(g, "fetched"), at(g, "signed"))]);
steps.push(["signed → start written (the attempt's start in the log)", (g) => diff(at(g, "signed"), at(g, "startWritten"))]);
steps.push(["start written → receipt (send)", (g, i) => diff(at(g, "startWritten"), marks.get(i))]);
steps.push(["action start → receipt (the figure)", (g, i) => diff(startedAt.get(i), marks.get(i))]);
steps.push(["receipt → answer read", (g, i) => diff(marks.get(i), at(g, "answer"))]);
steps.push(["answer read → recorded (pg-boss complete, in the log's transaction)", (g) => diff(at(g, "answer"), at(g, "recorded"))]);

const measured = [...indexOf].filter(([, i]) => i >= warmUp);
process.stdout.write(`${db.kind}: ${measured.length} deliveries at ${RATE} events/s (${run.startedRate.toFixed(0)} started/s, ${run.achievedRate.toFixed(0)} received/s); ` +
  `this process's CPU ${(((cpu.user + cpu.system) / 1000 / wallMs) * 100).toFixed(0)} % of a core over the run\n`);
process.stdout.write(`${"step".padEnd(74)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"max ms".padStart(8)}\n`);
for (const [name, f] of steps) {
  const values = measured.map(([g, i]) => f(g, i)).filter((v): v is number => v !== undefined);
  if (values.length === 0) continue;
  process.stdout.write(`${name.padEnd(74)} ${percentile(values, 50).toFixed(2).padStart(8)} ${percentile(values, 99).toFixed(2).padStart(8)} ${Math.max(...values).toFixed(2).padStart(8)}\n`);
}
if (db.kind === "pglite") {
  const n = run.latencies.length * (1 + 2 / 10);
  process.stdout.write(`\nPGlite: the thread in the database ${((statements.total() / wallMs) * 100).toFixed(0)} % of the run's wall-clock; µs per event (actions and deliveries, warm-up included) by statement:\n`);
  let total = 0;
  for (const [name, s] of [...spent].sort((a, b) => b[1].ms - a[1].ms).slice(0, 30)) {
    total += s.ms;
    process.stdout.write(`  ${((s.ms * 1000) / n).toFixed(0).padStart(6)}  ${(s.calls / n).toFixed(2).padStart(6)} msgs/event  ${name}\n`);
  }
  process.stdout.write(`  ${((statements.total() * 1000) / n).toFixed(0).padStart(6)}  total (${spent.size} statements; top 30 above: ${((total * 1000) / n).toFixed(0)})\n`);
}
await db.close();
await cleanup();
receiver.stop();
