/**
 * The delivery engine of one server process: pg-boss on the server's database, the queue side
 * (domain listener, pings, tests, redeliveries) and the worker that sends. On PGlite the data
 * folder belongs to one process, so a job still marked active at start was abandoned by a
 * process that died (SIGKILL) mid-attempt: it is handed out again at once. On PostgreSQL other
 * instances may be working, so abandoned jobs wait for pg-boss's expiry (`expireInSeconds`).
 * PGlite also gets the vacuuming PostgreSQL's autovacuum does (housekeeping.ts).
 *
 * `worker: false` gives the queue side only — for `simulate`, which enqueues on a database
 * directly and exits, leaving the sending to the server that runs on it next (or now, over
 * PostgreSQL: its NOTIFY wakes the servers' workers).
 */
import type PgBoss from "pg-boss";
import { openDatabase, type Database } from "../db/database.ts";
import type { Urls } from "../context.ts";
import { DELIVERY_QUEUE, startBoss } from "./boss.ts";
import { failJobs } from "./boss-calls.ts";
import { resolveOptions, type DeliveryOptions } from "./options.ts";
import { Housekeeping } from "./housekeeping.ts";
import { PendingPayloads } from "./payloads.ts";
import { DeliveryQueue, WAKE_CHANNEL } from "./queue.ts";
import { listenForWakeups, type Wakeups } from "./wakeups.ts";
import { DeliveryWorker } from "./worker.ts";

export interface EngineOptions extends DeliveryOptions {
  /** The PostgreSQL URL the database was opened with: the LISTEN connection for wake-ups. */
  databaseUrl?: string;
  /** Run a worker (default true). */
  worker?: boolean;
}

export interface DeliveryEngine {
  queue: DeliveryQueue;
  stop(): Promise<void>;
}

async function recoverAbandoned(db: Database, boss: PgBoss): Promise<void> {
  const rows = await db.query<{ id: string }>("select id::text as id from pgboss.job where name = $1 and state = 'active'", [DELIVERY_QUEUE]);
  if (rows.length > 0) await failJobs(boss, rows.map((r) => r.id), "the process died during the attempt");
}

export async function startDeliveries(db: Database, urls: Urls, options: EngineOptions = {}): Promise<DeliveryEngine> {
  const resolved = resolveOptions(options);
  const runWorker = options.worker ?? true;
  // On PostgreSQL the engine's own statements (fetching, logging) get a pool of their own, so
  // they never queue behind the API's requests for a connection; enqueues use the caller's.
  const own = runWorker && db.kind === "postgres" && options.databaseUrl ? await openDatabase({ databaseUrl: options.databaseUrl }) : undefined;
  const engineDb = own ?? db;
  const boss = await startBoss(engineDb, {
    supervise: runWorker,
    maintenanceIntervalSeconds: resolved.maintenanceIntervalSeconds,
    expireInSeconds: resolved.expireInSeconds,
    onError: resolved.onError,
  });
  const payloads = runWorker ? new PendingPayloads() : undefined;
  let worker: DeliveryWorker | undefined;
  let housekeeping: Housekeeping | undefined;
  let wakeups: Wakeups | undefined;
  try {
    if (runWorker) {
      if (db.kind === "pglite") {
        await recoverAbandoned(db, boss);
        housekeeping = new Housekeeping(db, resolved.onError);
        await housekeeping.start();
      }
      const h = housekeeping;
      const w = new DeliveryWorker(engineDb, boss, resolved, { payloads, onWritten: h && ((n: number) => h.written(n)) });
      worker = w;
      if (db.kind === "postgres" && options.databaseUrl) wakeups = await listenForWakeups(options.databaseUrl, WAKE_CHANNEL, () => w.wake(), resolved.onError);
      w.start();
    }
  } catch (error) {
    await boss.stop({ graceful: false, close: false }).catch(() => {});
    await own?.close();
    throw error;
  }
  const w = worker;
  const queue = new DeliveryQueue(boss, urls, {
    notify: db.kind === "postgres",
    payloads,
    // On PGlite the worker's next read waits for the enqueuing transaction, so it sees the job.
    wake: w && db.kind === "pglite" ? () => w.wake() : undefined,
  });
  let stopping: Promise<void> | undefined;
  return {
    queue,
    stop() {
      stopping ??= (async () => {
        await wakeups?.close();
        await worker?.stop();
        await housekeeping?.idle();
        await boss.stop({ graceful: false, close: false });
        await own?.close();
      })();
      return stopping;
    },
  };
}
