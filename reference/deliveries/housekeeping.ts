/**
 * PGlite has no autovacuum. Every delivery updates its pg-boss job twice (taken, completed),
 * leaving dead row versions that the queue's scans then wade through, and without statistics
 * the planner takes the job table for a small one: pg-boss's completion (`id IN (SELECT
 * UNNEST(…))`) then scans every job of the queue instead of looking each up by its key, a cost
 * growing with every job ever completed. So on PGlite the engine does what autovacuum would:
 * once at start and then after FIRST attempts written, then twice as many each time up to
 * EVERY_MAX, a `VACUUM ANALYZE` of the job table and an `ANALYZE`
 * of the delivery log. A run holds the one connection for its duration (tens of ms for tens
 * of thousands of jobs), so it is rare: its cost per delivery stays constant as the tables
 * grow. PostgreSQL's autovacuum does this there.
 */
import type { Database } from "../db/database.ts";

const FIRST = 500;
const EVERY_MAX = 100_000;
// The job table is vacuumed too (its rows are small); the log only analysed: it is appended to,
// and vacuuming its 5 KB bodies would cost more than it saves.
// Two statements: a multi-statement string would run as one transaction, which VACUUM refuses.
const STATEMENTS = ["vacuum (analyze) pgboss.job", "analyze hook_deliveries, hook_delivery_attempts"];

export class Housekeeping {
  readonly #db: Database;
  readonly #onError: (error: unknown) => void;
  #written = 0;
  #every = FIRST;
  #running: Promise<void> | undefined;

  constructor(db: Database, onError: (error: unknown) => void) {
    this.#db = db;
    this.#onError = onError;
  }

  /** At start: a database left by an earlier run may never have been analysed. */
  start(): Promise<void> {
    return this.#run();
  }

  /** `n` attempts were written. */
  written(n: number): void {
    this.#written += n;
    if (this.#written >= this.#every && !this.#running) void this.#run();
  }

  /** Resolves once a run in progress is over. */
  async idle(): Promise<void> {
    await this.#running;
  }

  #run(): Promise<void> {
    if (this.#written > 0) this.#every = Math.min(EVERY_MAX, this.#every * 2);
    this.#written = 0;
    this.#running = (async () => {
      for (const statement of STATEMENTS) await this.#db.exec(statement);
    })()
      .catch(this.#onError)
      .finally(() => {
        this.#running = undefined;
      });
    return this.#running;
  }
}
