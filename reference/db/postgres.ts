/**
 * PostgreSQL adapter (`--database-url`/`DATABASE_URL`): a `pg` pool, so several server
 * instances can share one database. Transactions take one pooled client for their duration.
 */
import pg from "pg";
import { DatabaseUnavailableError, type Database, type Queryable } from "./database.ts";

// BIGINT and NUMERIC come back as strings by default; ids and counts here fit in a double, and
// the same code must see the same types on PGlite (which returns numbers).
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/** The URL as it may be shown: without its password. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.href;
  } catch {
    return "the database URL";
  }
}

/**
 * Runs `fn` again, a few times with a short jittered pause, while it fails with one of `codes`
 * (SQLSTATE): for work PostgreSQL rolled back whole, so that running it again is what was asked.
 */
export async function retryOnCodes<T>(codes: readonly string[], fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== "string" || !codes.includes(code) || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 50));
    }
  }
}

/**
 * A statement that is a transaction of its own, run again when PostgreSQL chose it as a
 * deadlock's victim (40P01). Two instances on one database meet this: a hook's `DELETE` against
 * another instance's delivery worker writing that hook's log answered 500 in the two-instance suite.
 */
const againOnDeadlock = <T>(fn: () => Promise<T>): Promise<T> => retryOnCodes(["40P01"], fn);

/** A host that drops packets would otherwise hold the first connection for minutes. */
const CONNECT_TIMEOUT_MS = 10_000;

export async function openPostgres(url: string): Promise<Database> {
  // One probe connection, bounded in time, so a wrong URL is one clear error at start.
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  probe.on("error", () => {});
  try {
    await probe.connect();
    await probe.query("select 1");
  } catch (error) {
    const e = error as Error & { code?: string };
    const message = e.message || e.code || String(error);
    throw new DatabaseUnavailableError(`cannot connect to ${redactUrl(url)}: ${message}`);
  } finally {
    await probe.end().catch(() => {});
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client's connection error must not crash the process; the next query reports it.
  pool.on("error", () => {});
  // `alone`: statements on the pool, each its own transaction, which a deadlock rolls back whole,
  // so they are run again (againOnDeadlock). Inside a transaction the caller's whole transaction
  // is lost instead, and the error is the caller's.
  const wrap = (q: { query: pg.Pool["query"] }, alone: boolean): Queryable => {
    const run = alone ? <R>(fn: () => Promise<R>) => againOnDeadlock(fn) : <R>(fn: () => Promise<R>) => fn();
    return {
      async query<T>(sql: string, params: readonly unknown[] = []) {
        return (await run(() => q.query(sql, params as unknown[]))).rows as T[];
      },
      async exec(sql: string) {
        // Without parameters pg uses the simple query protocol, which accepts several statements.
        await run(() => q.query(sql));
      },
    };
  };
  return {
    kind: "postgres",
    ...wrap(pool, true),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const result = await fn(wrap(client, false));
        await client.query("commit");
        return result;
      } catch (error) {
        await client.query("rollback").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
