/**
 * pg-boss on the reference server's own Database (PGlite or PostgreSQL) instead of its own
 * connection pool, so the queue lives in the same database as the hooks and the delivery log and
 * a job can be sent, completed or scheduled in the transaction that logs or causes it.
 *
 * PGlite is one connection: pg-boss's multi-statement maintenance commands (`BEGIN; … COMMIT;`
 * in one string) are run inside one Database transaction, so a failure among them is rolled
 * back before anything else can use the connection, and nothing of pg-boss's ever keeps a
 * transaction open across our awaits. Its cron scheduler is off (no schedules here).
 */
import PgBoss from "pg-boss";
import type { Database, Queryable } from "../db/database.ts";
import { retryOnCodes } from "../db/postgres.ts";

/** The one queue of deliveries; every job is one attempt (or one chain of crash retries of it). */
export const DELIVERY_QUEUE = "hook-deliveries";

export interface DeliveryJobData {
  /** The delivery: X-Service-Delivery, the same on every attempt. */
  guid: string;
  /** Automatic attempt number in the retry chain (1 = first); a redelivery is one attempt outside it. */
  try: number;
  /** Requested through the API: one attempt, never retried automatically. */
  redelivery: boolean;
  /**
   * Only in jobs enqueued before migration 009, which wrote the delivery's row with its first
   * attempt: the delivery itself. Now the row is written at enqueue (queue.ts).
   */
  first?: { hook: number; event: string; action: string | null; payload: string };
}

type Db = { executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }> };

const MULTI_STATEMENT = /^\s*BEGIN\s*;/i;

function databaseAdapter(db: Database): Db {
  return {
    async executeSql(text, values) {
      if (MULTI_STATEMENT.test(text)) {
        // Its own BEGIN/COMMIT nest inside ours with a warning; an error rolls back at once.
        await db.transaction((tx) => tx.exec(text));
        return { rows: [] };
      }
      return { rows: await db.query(text, values ?? []) };
    },
  };
}

/** pg-boss statements bound to `tx`: what they write commits or rolls back with it. */
export function inTransaction(tx: Queryable): Db {
  return {
    async executeSql(text, values) {
      return { rows: await tx.query(text, values ?? []) };
    },
  };
}

export interface BossOptions {
  /** Run maintenance (expiry of abandoned jobs, archiving); off for short-lived producers (simulate). */
  supervise: boolean;
  maintenanceIntervalSeconds?: number;
  expireInSeconds: number;
  onError: (error: unknown) => void;
}

/**
 * A started pg-boss with the delivery queue created. Crash retries (a job whose process died or
 * whose handler failed outright) go through pg-boss's own retry; delivery failures do not — the
 * engine schedules each retry itself as a new job (see worker.ts), with its own backoff.
 */
export async function startBoss(db: Database, options: BossOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    db: databaseAdapter(db),
    schedule: false,
    supervise: options.supervise,
    migrate: true,
    ...(options.maintenanceIntervalSeconds ? { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds } : {}),
  });
  boss.on("error", options.onError);
  await boss.start();
  await retryOnConflict(() =>
    boss.createQueue(DELIVERY_QUEUE, {
      name: DELIVERY_QUEUE,
      retryLimit: 10,
      retryDelay: 1,
      expireInSeconds: options.expireInSeconds,
      retentionDays: 7,
    }),
  );
  // createQueue keeps the settings of an existing queue; a changed expiry must still apply.
  await retryOnConflict(() => boss.updateQueue(DELIVERY_QUEUE, { name: DELIVERY_QUEUE, expireInSeconds: options.expireInSeconds }));
  return boss;
}

/**
 * Several instances starting together on one PostgreSQL run createQueue at the same moment, and
 * pg-boss's statements for it can deadlock each other (seen in the two-instance test): PostgreSQL
 * aborts one side, which simply tries again.
 */
function retryOnConflict<T>(fn: () => Promise<T>): Promise<T> {
  return retryOnCodes(["40P01", "40001", "23505"], fn);
}
