/**
 * Writing what attempts came to, in batches: each batch is one transaction that completes the
 * attempts' jobs, logs them, updates the hooks' last_response and schedules the retries — so a
 * process dying at any point leaves either all of it or none (then the job is still active, and
 * pg-boss's expiry hands it out again: at least once). A batch gathers the attempts that finish
 * within GATHER_MS of the first (or BATCH of them), and attempts finishing while a batch is being
 * written wait for the next one (group commit): each batch costs a handful of statements
 * whatever its size, and on PGlite a statement's fixed cost is what limits a single connection.
 * Only the log waits for this; the receivers have their requests already. The same transaction
 * removes the attempts' starts (starts.ts), so an attempt is in the log as begun or as finished.
 */
import type PgBoss from "pg-boss";
import type { Database } from "../db/database.ts";
import { setLastResponses, type LastResponse } from "../store/hooks.ts";
import { inTransaction } from "./boss.ts";
import { completeJobs, insertJobs, type ScheduledJob } from "./boss-calls.ts";
import { insertAttempts, type AttemptRecord } from "./store.ts";

export interface Finished {
  jobId: string;
  /** Absent when nothing was sent (hook gone or paused, service not taking the event). */
  attempt?: AttemptRecord;
  lastResponse?: LastResponse;
  retry?: ScheduledJob;
}

const BATCH = 1000;
const GATHER_MS = 20;

/** Thrown inside a batch when one of its jobs was no longer active (expired and handed out again). */
class StaleJob extends Error {}

export class Recorder {
  readonly #db: Database;
  readonly #boss: PgBoss;
  readonly #onError: (error: unknown) => void;
  readonly #onScheduled: (at: Date) => void;
  readonly #onWritten: ((n: number) => void) | undefined;
  #queue: Finished[] = [];
  #writing: Promise<void> | undefined;

  constructor(db: Database, boss: PgBoss, hooks: { onError: (error: unknown) => void; onScheduled: (at: Date) => void; onWritten?: (n: number) => void }) {
    this.#db = db;
    this.#boss = boss;
    this.#onError = hooks.onError;
    this.#onScheduled = hooks.onScheduled;
    this.#onWritten = hooks.onWritten;
  }

  add(finished: Finished): void {
    this.#queue.push(finished);
    this.#writing ??= this.#drainQueue().finally(() => {
      this.#writing = undefined;
    });
  }

  /** Resolves once everything added so far is written. */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  async #drainQueue(): Promise<void> {
    while (this.#queue.length > 0) {
      // PGlite runs a whole transaction without yielding to I/O: let the answers that come in
      // meanwhile join this batch first, or every batch would be a few attempts.
      if (this.#queue.length < BATCH) await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
      const batch = this.#queue.splice(0, BATCH);
      try {
        await this.#write(batch, true);
      } catch (error) {
        if (!(error instanceof StaleJob)) {
          this.#onError(error);
          continue;
        }
        // Rare: find the stale job(s) one by one; the others are written as usual.
        for (const one of batch) await this.#write([one], false).catch((e: unknown) => e instanceof StaleJob || this.#onError(e));
      }
    }
  }

  async #write(batch: Finished[], strict: boolean): Promise<void> {
    const retries = batch.flatMap((f) => (f.retry ? [f.retry] : []));
    await this.#db.transaction(async (tx) => {
      // PostgreSQL: no waiting for the WAL flush. A batch lost with the database server (never
      // with this process: the server has it) is lost whole, jobs still active, so its attempts
      // are made again — at least once holds. Not on PGlite, whose WAL dies with this process.
      if (this.#db.kind === "postgres") await tx.query("set local synchronous_commit = off");
      const db = inTransaction(tx);
      const done = await completeJobs(this.#boss, batch.map((f) => f.jobId), db);
      if (done.affected !== batch.length) {
        if (strict || done.affected === 0) throw new StaleJob();
      }
      // The attempts' starts (starts.ts) are done with: logged now, or nothing was sent.
      await tx.query("delete from hook_delivery_starts where job_id = any($1::uuid[])", [batch.map((f) => f.jobId)]);
      await insertAttempts(tx, batch.flatMap((f) => (f.attempt ? [f.attempt] : [])));
      const latest = new Map<number, LastResponse>();
      for (const f of batch) if (f.attempt && f.lastResponse) latest.set(f.attempt.hookId, f.lastResponse);
      await setLastResponses(tx, latest);
      await insertJobs(this.#boss, retries, db);
    });
    for (const r of retries) this.#onScheduled(r.startAfter);
    this.#onWritten?.(batch.length);
  }
}
