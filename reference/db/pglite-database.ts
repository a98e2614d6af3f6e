/**
 * The Database view of an open PGlite, shared by the server's adapter (pglite.ts) and the
 * template maker (pglite-template.ts), which migrates its template through the same migrate().
 */
import { PGlite } from "@electric-sql/pglite";
import type { Database, Queryable } from "./database.ts";

/**
 * PGlite's start parameters: its defaults with `shared_buffers` at 16MB instead of 128MB.
 * Postgres sets up its whole buffer pool at start, and in WebAssembly that was most of an open's
 * CPU: an in-memory open from the same image took 2.0–2.9 s of CPU with 128MB and 1.4–2.2 s with
 * 16MB, an existing folder 1.2–1.5 s and 0.4–1.0 s (bench/README.md, "Opening the database").
 * 16MB still holds a whole demo database: after `serve` with its 300-event history the database
 * is about 10 MB on disk (base/5, catalog included). Beyond the pool PGlite's files are in memory
 * or in the OS page cache anyway. The feeds bench showed no loss (same section).
 */
export const PGLITE_START_PARAMS: readonly string[] = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

export function pgliteDatabase(pg: PGlite, release: () => void = () => {}): Database {
  const wrap = (q: { query: PGlite["query"]; exec: PGlite["exec"] }): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      return (await q.query<T>(sql, params as unknown[])).rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  return {
    kind: "pglite",
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    async close() {
      try {
        await pg.close();
      } finally {
        release();
      }
    },
  };
}
