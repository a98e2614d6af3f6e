/**
 * Every attempt is in the delivery log, also one a crash cut short (DECISIONS: The delivery log
 * holds every attempt). Just before an attempt's request is sent, a start is written
 * (`hook_delivery_starts`, keyed by its pg-boss job); the transaction that logs the outcome removes
 * it (recorder.ts). A start still there when pg-boss hands the same job out again (it expired: its
 * process died mid-attempt) is turned into an `interrupted` attempt of that delivery — same
 * delivery id, numbered before the retry — when the retry writes its own start. Starts gather
 * for one tick and go in one statement, since PGlite's cost is per statement.
 */
import type { Database } from "../db/database.ts";
import { insertAttempts, type AttemptRecord } from "./store.ts";

export const INTERRUPTED = "interrupted";

export interface AttemptStart {
  jobId: string;
  guid: string;
  hookId: number;
  redelivery: boolean;
  startedAt: Date;
  url: string;
  requestHeaders: Record<string, string>;
}

interface StaleStart {
  guid: string;
  hook_id: number;
  redelivery: boolean;
  started_at: Date | string;
  url: string;
  request_headers: Record<string, string>;
}

/** The log's record of an attempt that began and never finished. */
function interrupted(s: StaleStart): AttemptRecord {
  return {
    guid: s.guid, hookId: Number(s.hook_id), event: "", action: null, redelivery: s.redelivery, deliveredAt: new Date(s.started_at), durationMs: 0,
    status: INTERRUPTED, statusCode: 0, nextAttemptAt: null, url: s.url, requestHeaders: s.request_headers, responseHeaders: {}, responseBody: null,
  };
}

export class AttemptStarts {
  readonly #db: Database;
  #queue: { start: AttemptStart; done: (error?: unknown) => void }[] = [];
  #scheduled = false;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Resolves once the start is stored (with the starts of the same tick); rejects if it could not be. */
  mark(start: AttemptStart): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ start, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => void this.#write());
      }
    });
  }

  async #write(): Promise<void> {
    this.#scheduled = false;
    const batch = this.#queue.splice(0);
    try {
      const rows = batch.map(({ start: s }) => ({
        job_id: s.jobId, guid: s.guid, hook_id: s.hookId, redelivery: s.redelivery, started_at: s.startedAt.toISOString(), url: s.url, request_headers: s.requestHeaders,
      }));
      // One statement on the hot path: the new starts in, the same jobs' earlier starts (their
      // attempts were cut short) read out. Only when there are such does a transaction follow.
      const old = await this.#db.query<StaleStart & { id: number }>(
        `with ins as (
           insert into hook_delivery_starts (job_id, guid, hook_id, redelivery, started_at, url, request_headers)
           select x.job_id, x.guid, x.hook_id, x.redelivery, x.started_at, x.url, x.request_headers
             from json_to_recordset($1::json) as x(job_id uuid, guid uuid, hook_id bigint, redelivery boolean, started_at timestamptz, url text, request_headers jsonb)
         )
         select s.id::int as id, s.guid::text as guid, s.hook_id::int as hook_id, s.redelivery, s.started_at, s.url, s.request_headers
           from hook_delivery_starts s where s.job_id = any($2::uuid[]) order by s.id`,
        [JSON.stringify(rows), rows.map((r) => r.job_id)],
      );
      if (old.length > 0) {
        // Logged and removed together: a crash in between leaves them to be found again.
        await this.#db.transaction(async (tx) => {
          await insertAttempts(tx, old.map(interrupted));
          await tx.query("delete from hook_delivery_starts where id = any($1::bigint[])", [old.map((o) => o.id)]);
        });
      }
      for (const b of batch) b.done();
    } catch (error) {
      for (const b of batch) b.done(error ?? new Error("the attempt's start could not be written"));
    }
  }
}
