/**
 * PGlite adapter: Postgres in WASM with its files in the data folder, so a local server keeps
 * its data across restarts with nothing to install. PGlite runs one statement at a time and
 * serialises transactions itself.
 */
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import type { Database, Queryable } from "./database.ts";
import { pgliteTemplate } from "./pglite-template.ts";

export async function openPglite(dataDir?: string): Promise<Database> {
  // A new database (in memory, or a folder without one yet) starts from the template image.
  const fresh = !dataDir || !existsSync(dataDir) || readdirSync(dataDir).length === 0;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const loadDataDir = fresh ? await pgliteTemplate() : undefined;
  const pg = await PGlite.create({ ...(dataDir ? { dataDir } : {}), ...(loadDataDir ? { loadDataDir } : {}) });
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
    close: () => pg.close(),
  };
}
