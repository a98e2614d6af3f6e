/**
 * pg-boss calls with the signatures its implementation has. Its type declarations describe
 * `complete(name, ids, options)` and `fail(name, ids, options)`, but the code takes
 * `(name, ids, data, options)` — a third argument is the job output, so the declared form would
 * run the statement outside our transaction. These wrappers pin the real order (and the counts
 * the implementation returns, which the declarations omit).
 */
import type PgBoss from "pg-boss";
import { DELIVERY_QUEUE, type DeliveryJobData } from "./boss.ts";

type Db = { executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }> };
type Counted = Promise<{ requested: number; affected: number }>;
type Completion = (name: string, ids: string[], data: object | null, options: { db?: Db }) => Counted;

/** Marks active jobs completed; `affected` says how many still were active. */
export function completeJobs(boss: PgBoss, ids: string[], db?: Db): Counted {
  return (boss.complete as unknown as Completion).call(boss, DELIVERY_QUEUE, ids, null, db ? { db } : {});
}

/** Fails jobs, which pg-boss retries (after the queue's retry delay) until its retry limit. */
export function failJobs(boss: PgBoss, ids: string[], reason: string, db?: Db): Counted {
  return (boss.fail as unknown as Completion).call(boss, DELIVERY_QUEUE, ids, { message: reason }, db ? { db } : {});
}

export interface ScheduledJob {
  data: DeliveryJobData;
  startAfter: Date;
}

export async function insertJobs(boss: PgBoss, jobs: ScheduledJob[], db: Db): Promise<void> {
  if (jobs.length === 0) return;
  await boss.insert(
    jobs.map((j) => ({ name: DELIVERY_QUEUE, data: j.data, startAfter: j.startAfter.toISOString() })),
    { db: db as PgBoss.Db },
  );
}
