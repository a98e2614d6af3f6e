/**
 * PGlite adapter: Postgres in WASM with its files in the data folder, so a local server keeps
 * its data across restarts with nothing to install. PGlite runs one statement at a time and
 * serialises transactions itself; one process at a time may hold a folder (data-lock.ts).
 */
import { readdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { DataDirError, type Database, type Queryable } from "./database.ts";
import { pgliteTemplate } from "./pglite-template.ts";
import { LOCK_FILE, lockDataDir } from "./data-lock.ts";
import { makeFolder } from "../../generators/make-folder.ts";

/** Makes and locks the folder; returns whether it holds no database yet, and the release. */
function claim(dataDir: string): { fresh: boolean; release: () => void } {
  try {
    makeFolder(dataDir);
    const release = lockDataDir(dataDir);
    return { fresh: readdirSync(dataDir).every((name) => name.startsWith(LOCK_FILE)), release };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== "string") throw error;
    throw new DataDirError(`cannot use data folder ${dataDir}: ${(error as Error).message}`);
  }
}

export async function openPglite(dataDir?: string): Promise<Database> {
  // A new database (in memory, or a folder without one yet) starts from the template image.
  const { fresh, release } = dataDir ? claim(dataDir) : { fresh: true, release: () => {} };
  let pg: PGlite;
  try {
    const loadDataDir = fresh ? await pgliteTemplate() : undefined;
    pg = await PGlite.create({ ...(dataDir ? { dataDir } : {}), ...(loadDataDir ? { loadDataDir } : {}) });
  } catch (error) {
    release();
    // PGlite writes the folder through Node's fs: a refusal there is the folder's fault, not ours.
    const code = (error as NodeJS.ErrnoException).code;
    if (dataDir && typeof code === "string" && /^E[A-Z]+$/.test(code)) throw new DataDirError(`cannot use data folder ${dataDir}: ${(error as Error).message}`);
    throw error;
  }
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
