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
  const wrap = (q: { query: pg.Pool["query"] }): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      return (await q.query(sql, params as unknown[])).rows as T[];
    },
    async exec(sql: string) {
      // Without parameters pg uses the simple query protocol, which accepts several statements.
      await q.query(sql);
    },
  });
  return {
    kind: "postgres",
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const result = await fn(wrap(client));
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
