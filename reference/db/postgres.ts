/**
 * PostgreSQL adapter (`--database-url`/`DATABASE_URL`): a `pg` pool, so several server
 * instances can share one database. Transactions take one pooled client for their duration.
 */
import pg from "pg";
import type { Database, Queryable } from "./database.ts";

// BIGINT and NUMERIC come back as strings by default; ids and counts here fit in a double, and
// the same code must see the same types on PGlite (which returns numbers).
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client's connection error must not crash the process; the next query reports it.
  pool.on("error", () => {});
  await pool.query("select 1");
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
