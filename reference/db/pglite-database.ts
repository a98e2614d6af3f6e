/**
 * The Database view of an open PGlite, shared by the server's adapter (pglite.ts) and the
 * template maker (pglite-template.ts), which migrates its template through the same migrate().
 */
import { PGlite } from "@electric-sql/pglite";
import type { Database, Queryable } from "./database.ts";

/**
 * PGlite's start parameters: its defaults with `shared_buffers` at 16MB instead of 128MB.
 * Postgres sets up every buffer of the pool at start, and in WebAssembly that is most of an
 * open's CPU (an in-memory open: ~2.9 s → ~1.4 s; an existing folder ~1.4 s → ~0.5 s, measured
 * with .open-bench.mts, see bench/README.md "Opening the database"). The reference's databases are
 * small (the demo with its 300-event history is ~10 MB of tables) and PGlite's files are in memory
 * or in the OS page cache anyway, so a smaller pool costs nothing the feeds and deliveries benches
 * could see (their ratios before and after are in the same section).
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
