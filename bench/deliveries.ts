/**
 * Webhook deliveries (issue 6, "Speed"), to a loopback receiver in a child process
 * (deliveries-receiver.ts):
 *
 * 1. Throughput: N signed JSON push deliveries, from enqueue (transactions of 100) to the last
 *    receipt, against the floor — a plain undici POST loop of the same bodies and headers with
 *    the same concurrency. Target: ≥ 50% of the floor. Floor and engine runs alternate (floor,
 *    engine, floor, engine, … ROUNDS pairs, after one warm-up pair), so a change of load on the
 *    shared machine hits both alike; reported: the median of each and the median of the pairs'
 *    ratios.
 * 2. Latency: push actions at a steady 100 events/s for 10 s (after 2 s of warm-up), round-robin
 *    over the demo's five repositories, each delivered to its repository's hook; p50, p99 and max
 *    from the start of the action to the receipt, beside the p99 of the same actions with no hook
 *    (to the commit). Target (issue 43): p99 < 25 ms. Then the same at 500 events/s, where the
 *    engine (or the actions themselves) stop keeping up: that row states the rate of receipts
 *    achieved over the measured window and how the latency grew across it (p50 of its first and
 *    last tenth). `BENCH_DELIVERIES_RATES` (default `100,500`) and `BENCH_DELIVERIES_PARTS`
 *    (`throughput,latency`, the default, or either alone) choose what runs.
 *
 * The engine runs as the server runs it — pg-boss on PGlite in memory; with
 * `BENCH_DELIVERIES_DISK=1` also on disk (`serve`'s default), and with `BENCH_DATABASE_URL` (or
 * TEST_DATABASE_URL, an admin URL: a scratch database is made) also on PostgreSQL; concurrency
 * 16 — but in this process, without the HTTP hosts, so actions and enqueues are plain calls.
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { request } from "undici";
import { DatabaseUnavailableError, openDatabase, type Database } from "../reference/db/database.ts";
import { redactUrl } from "../reference/db/postgres.ts";
import { migrate } from "../reference/db/migrate.ts";
import { seedDatabase } from "../reference/seed/load.ts";
import { startDeliveries, type DeliveryEngine } from "../reference/deliveries/engine.ts";
import { buildRequest } from "../reference/deliveries/request.ts";
import { ensureSecretKey, sealSecret } from "../reference/hooks/secret-box.ts";
import { insertHook } from "../reference/store/hooks.ts";
import { runAction } from "../reference/domain/index.ts";
import { median, printSection } from "./lib/report.ts";

export const CONCURRENCY = 16;
const ROUNDS = Number(process.env.BENCH_DELIVERIES_ROUNDS ?? 3);
const COUNT = Number(process.env.BENCH_DELIVERIES_COUNT ?? 3000);
const RATES = (process.env.BENCH_DELIVERIES_RATES ?? "100,500").split(",").map(Number);
const PARTS = (process.env.BENCH_DELIVERIES_PARTS ?? "throughput,latency").split(",");
const SECONDS = Number(process.env.BENCH_DELIVERIES_SECONDS ?? 10);
const WARM_UP_SECONDS = 2;
const now = () => performance.timeOrigin + performance.now();
export const URLS = { api: "http://127.0.0.1:3000", auth: "http://127.0.0.1:3001" };

interface Receiver {
  url: string;
  /** Resolves with the time the n-th request (from now) arrived. */
  expect(n: number): Promise<() => Promise<number>>;
  marks(): Promise<Map<number, number>>;
  stop(): void;
}

export async function startReceiver(): Promise<Receiver> {
  const child: ChildProcess = fork(join(import.meta.dirname, "deliveries-receiver.ts"), { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const next = (type: string) => new Promise<Record<string, unknown>>((resolve) => {
    const on = (m: Record<string, unknown>) => {
      if (m.type !== type) return;
      child.off("message", on);
      resolve(m);
    };
    child.on("message", on);
  });
  const { url } = (await next("ready")) as { url: string };
  return {
    url,
    async expect(n) {
      const done = next("done");
      child.send({ type: "expect", n });
      await next("expecting");
      return async () => (await done).at as number;
    },
    async marks() {
      const reply = next("marks");
      child.send({ type: "marks" });
      return new Map((await reply).marks as [number, number][]);
    },
    stop: () => child.kill(),
  };
}

/** The demo's repositories, each with a signed JSON push hook to the receiver; returns the repositories and the first hook's id. */
export async function hooksTo(db: Database, url: string): Promise<{ repos: string[]; hookId: number }> {
  await ensureSecretKey(db);
  const repos = await db.query<{ id: number; full: string }>("select r.id::int as id, o.login || '/' || r.name as full from repositories r join accounts o on o.id = r.owner_id order by r.id");
  const ids: number[] = [];
  for (const repo of repos) {
    const row = await insertHook(db, {
      repoId: repo.id, orgId: null, name: "web", events: ["push"], active: true,
      config: { url, content_type: "json", insecure_ssl: "0" }, secretSealed: sealSecret("bench secret"), appId: null, creatorId: null, now: new Date(),
    });
    ids.push(row.id);
  }
  return { repos: repos.map((r) => r.full), hookId: ids[0]! };
}

/**
 * A real push payload — one push action on octocat/hello-world (three commits), delivered once to
 * the hook `hookId` — and the exact request the engine sent for it (the floor's).
 */
export async function pushSample(db: Database, engine: DeliveryEngine, receiver: Receiver, hookId: number): Promise<{ payload: Record<string, unknown>; sample: { headers: Record<string, string>; body: string } }> {
  const first = await receiver.expect(1);
  await runAction({ db, urls: URLS, now: () => new Date(), listeners: [engine.queue.listener] }, "push", { repo: "octocat/hello-world", actor: "octocat", params: { commits: "3" } });
  await first();
  let delivery: { body: string; guid: string } | undefined;
  // Received comes before logged: wait for the attempt's row.
  while (!(delivery = (await db.query<{ body: string; guid: string }>("select body, guid::text as guid from hook_deliveries where event = 'push' order by id desc limit 1"))[0])) {
    await new Promise((r) => setTimeout(r, 10));
  }
  const payload = JSON.parse(delivery!.body) as Record<string, unknown>;
  const [hook] = await db.query<{ config: Record<string, string>; secret_sealed: string }>("select config, secret_sealed from hooks where id = $1", [hookId]);
  const sample = buildRequest({
    guid: delivery!.guid, hook_id: hookId, event: "push", action: null, payload: delivery!.body, content_type: null, body: null,
    hook_name: "web", hook_active: true, config: hook!.config, secret_sealed: hook!.secret_sealed,
  })!;
  return { payload, sample };
}

/**
 * Deliveries/s from the first enqueue to the last receipt. Then, unless `drain` is false, waits
 * (untimed) until no job is active, so the log's writes do not fall into the next run.
 */
export async function engineRun(db: Database, engine: DeliveryEngine, receiver: Receiver, hookId: number, payload: Record<string, unknown>, n: number, { drain = true } = {}): Promise<number> {
  const received = await receiver.expect(n);
  const t0 = now();
  for (let done = 0; done < n; done += 100) {
    await db.transaction((tx) => engine.queue.enqueueMany(tx, Array.from({ length: Math.min(100, n - done) }, () => ({ hookId, event: "push", action: null, payload }))));
  }
  const rate = n / ((await received()) - t0) * 1000;
  if (!drain) return rate;
  // Untimed: let the log catch up, so its writes do not fall into the next floor run.
  for (let i = 0; i < 250; i++) {
    const [{ n: active } = { n: 0 }] = await db.query<{ n: number }>("select count(*)::int as n from pgboss.job where state = 'active'");
    if (active === 0) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return rate;
}

/** Requests/s of a plain undici POST loop with the same concurrency, bodies and headers. */
async function floorRun(receiver: Receiver, sample: { headers: Record<string, string>; body: string }, n: number): Promise<number> {
  const received = await receiver.expect(n);
  let sent = 0;
  const t0 = now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sent < n) {
        sent++;
        const res = await request(receiver.url, { method: "POST", headers: sample.headers, body: sample.body });
        await res.body.dump();
      }
    }),
  );
  return n / ((await received()) - t0) * 1000;
}

export interface LatencyRun {
  /** Per measured event: action start → receipt (or → commit with no engine), ms. */
  latencies: number[];
  /** Events started per second over the measured window (the generator's own pace). */
  startedRate: number;
  /** Measured events per second from the first measured start to the last receipt (or commit). */
  achievedRate: number;
  /** p50 of the first and of the last tenth of the measured events, in start order: the growth across the run. */
  firstTenthP50: number;
  lastTenthP50: number;
}

/**
 * Latencies (ms) of push actions started at `rate`/s, round-robin over `repos` (one repository
 * takes its pushes one at a time: they all update its row), after `WARM_UP_SECONDS` at the same
 * rate that are not counted: from the start of each action to the receipt of its delivery — or,
 * with `engine` undefined, to the action's commit (no hook listening: what the action alone
 * costs at that rate, the floor of the figure).
 */
export async function latencyRun(
  db: Database, engine: DeliveryEngine | undefined, receiver: Receiver, repos: string[], rate: number, seconds = SECONDS,
  times: { startedAt: Map<number, number>; committedAt: Map<number, number> } = { startedAt: new Map(), committedAt: new Map() },
): Promise<LatencyRun> {
  const warmUp = rate * WARM_UP_SECONDS;
  const total = warmUp + rate * seconds;
  const received = engine ? await receiver.expect(total) : undefined;
  const started = times.startedAt;
  const committed = times.committedAt;
  const running: Promise<unknown>[] = [];
  const listeners = engine ? [engine.queue.listener] : [];
  const t0 = now();
  for (let i = 0; i < total; i++) {
    const wait = t0 + (i * 1000) / rate - now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    started.set(i, now());
    const repo = repos[i % repos.length]!;
    running.push(runAction({ db, urls: URLS, now: () => new Date(), listeners }, "push", { repo, actor: "octocat", params: { message: `bench-${i}` } }).then(() => committed.set(i, now())));
  }
  await Promise.all(running);
  const measured = [...started].filter(([i]) => i >= warmUp);
  let ends = committed;
  if (received) {
    await received();
    ends = await receiver.marks();
    // The count can be reached early — an attempt of an earlier run handed back and made again
    // (a job that waited past its slot time under overload) arrives meanwhile — so wait (untimed)
    // for every measured event's own receipt.
    while (measured.some(([i]) => !ends.has(i))) {
      await new Promise((r) => setTimeout(r, 50));
      ends = await receiver.marks();
    }
  }
  const latencies = measured.map(([i, at]) => ends.get(i)! - at);
  const first = measured[0]![1];
  const lastEnd = Math.max(...measured.map(([i]) => ends.get(i)!));
  const tenth = Math.max(1, Math.floor(latencies.length / 10));
  return {
    latencies,
    startedRate: ((measured.length - 1) * 1000) / (measured.at(-1)![1] - first),
    achievedRate: (measured.length * 1000) / (lastEnd - first),
    firstTenthP50: percentile(latencies.slice(0, tenth), 50),
    lastTenthP50: percentile(latencies.slice(-tenth), 50),
  };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Storage {
  name: string;
  open(): Promise<{ db: Database; databaseUrl?: string; cleanup(): Promise<void> }>;
}

/** PGlite in memory (as the tests run), on disk (`serve`'s default), and PostgreSQL when a URL is given. */
function storages(): Storage[] {
  const list: Storage[] = [{ name: "PGlite in memory", open: async () => ({ db: await openDatabase({}), cleanup: async () => {} }) }];
  if (process.env.BENCH_DELIVERIES_DISK === "1") {
    list.push({
      name: "PGlite on disk",
      open: async () => {
        const dir = mkdtempSync(join(tmpdir(), "bench-deliveries-"));
        return { db: await openDatabase({ dataDir: dir }), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
      },
    });
  }
  const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (admin) {
    list.push({
      name: "PostgreSQL",
      open: async () => {
        const name = `bench_deliveries_${process.pid}`;
        const url = new URL(admin);
        url.pathname = `/${name}`;
        const client = new pg.Client({ connectionString: admin });
        await client.connect();
        await client.query(`create database ${name}`);
        await client.end();
        return {
          db: await openDatabase({ databaseUrl: url.href }),
          databaseUrl: url.href,
          cleanup: async () => {
            const c = new pg.Client({ connectionString: admin });
            await c.connect();
            await c.query(`drop database if exists ${name} with (force)`);
            await c.end();
          },
        };
      },
    });
  }
  return list;
}

interface Figures {
  bytes: number;
  floor: number;
  engine: number;
  /** Median of engine / floor over the pairs of runs. */
  ratio: number;
  /** Per rate: the same actions with no hook (action start → commit), then with the engine (→ receipt). */
  latency: { rate: number; alone: LatencyRun; delivered: LatencyRun }[];
}

async function measure(storage: Storage, receiver: Receiver): Promise<Figures> {
  const { db, databaseUrl, cleanup } = await storage.open();
  let engine: DeliveryEngine | undefined;
  try {
    await migrate(db);
    await seedDatabase(db, "demo");
    engine = await startDeliveries(db, URLS, { concurrency: CONCURRENCY, databaseUrl, onError: (e) => process.stderr.write(`bench/deliveries: ${String(e)}\n`) });
    const { repos, hookId } = await hooksTo(db, receiver.url);
    const { payload, sample } = await pushSample(db, engine, receiver, hookId);

    const floors: number[] = [];
    const engines: number[] = [];
    const ratios: number[] = [];
    if (PARTS.includes("throughput")) {
      await floorRun(receiver, sample, 500);
      await engineRun(db, engine, receiver, hookId, payload, 500);
      for (let round = 0; round < ROUNDS; round++) {
        floors.push(await floorRun(receiver, sample, COUNT));
        engines.push(await engineRun(db, engine, receiver, hookId, payload, COUNT));
        ratios.push(engines.at(-1)! / floors.at(-1)!);
      }
    }
    const latency: Figures["latency"] = [];
    if (PARTS.includes("latency")) {
      for (const rate of RATES) {
        const alone = await latencyRun(db, undefined, receiver, repos, rate);
        latency.push({ rate, alone, delivered: await latencyRun(db, engine, receiver, repos, rate) });
      }
    }
    return { bytes: Buffer.byteLength(sample.body), floor: median(floors), engine: median(engines), ratio: median(ratios), latency };
  } finally {
    await engine?.stop();
    await db.close();
    await cleanup();
  }
}

/**
 * The PostgreSQL admin URL, checked before minutes of measuring on PGlite: one that does not
 * connect is a DatabaseUnavailableError naming the variable (the CLI prints it as one line).
 */
async function checkAdminUrl(): Promise<void> {
  const variable = process.env.BENCH_DATABASE_URL !== undefined ? "BENCH_DATABASE_URL" : "TEST_DATABASE_URL";
  const admin = process.env[variable];
  if (!admin) return;
  const client = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 10_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("select 1");
  } catch (error) {
    const e = error as Error & { code?: string };
    throw new DatabaseUnavailableError(
      `${variable} does not connect (${redactUrl(admin)}: ${e.message || e.code || String(error)}): give an admin URL of a running PostgreSQL, or unset it to measure PGlite only`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

export async function benchDeliveries(): Promise<void> {
  await checkAdminUrl();
  const receiver = await startReceiver();
  try {
    const results: [string, Figures][] = [];
    for (const storage of storages()) results.push([storage.name, await measure(storage, receiver)]);
    for (const [name, f] of results) {
      if (!PARTS.includes("throughput")) continue;
      printSection(
        `deliveries (${name}): ${COUNT} signed JSON pushes (${f.bytes} bytes) to a loopback receiver, concurrency ${CONCURRENCY}, ${ROUNDS} alternating floor/engine pairs, medians`,
        [
          { name: "plain undici POST loop, same bodies (floor)", value: f.floor, unit: "req/s", better: "higher", baseline: true },
          { name: "delivery engine, enqueue → receipt", value: f.engine, unit: "del/s", better: "higher" },
        ],
        "≥ 0.30× floor (issue 43)",
      );
      process.stdout.write(`  median of the pairs' ratios: ${f.ratio.toFixed(2)}×\n`);
    }
    for (const [name, f] of results) {
      for (const { rate, alone, delivered } of f.latency) {
        const l = delivered.latencies;
        printSection(
          `deliveries: push action → receipt at a steady ${rate} events/s for ${SECONDS} s after ${WARM_UP_SECONDS} s of warm-up, round-robin over the demo's repositories (${l.length} events, ${name})`,
          [
            { name: "p99 of the actions alone, no hook (start → commit)", value: percentile(alone.latencies, 99), unit: "ms", better: "lower", baseline: true },
            { name: "p50 action → receipt", value: percentile(l, 50), unit: "ms", better: "lower" },
            { name: "p99 action → receipt", value: percentile(l, 99), unit: "ms", better: "lower" },
            { name: "max action → receipt", value: Math.max(...l), unit: "ms", better: "lower" },
          ],
          rate === 100 ? "p99 < 25 ms (issue 43)" : undefined,
        );
        process.stdout.write(
          `  rate: ${delivered.startedRate.toFixed(0)} events/s started, ${delivered.achievedRate.toFixed(0)} received/s (first measured start → last receipt); ` +
            `actions alone ${alone.achievedRate.toFixed(0)} committed/s (p50 ${percentile(alone.latencies, 50).toPrecision(3)} ms)\n` +
            `  p50 of the first tenth ${delivered.firstTenthP50.toPrecision(3)} ms → of the last tenth ${delivered.lastTenthP50.toPrecision(3)} ms` +
            `${delivered.lastTenthP50 > 4 * Math.max(delivered.firstTenthP50, 25) ? " (growing: not keeping up)" : ""}\n`,
        );
      }
    }
  } finally {
    receiver.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchDeliveries();
