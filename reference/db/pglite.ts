/**
 * PGlite adapter: Postgres in WASM with its files in the data folder, so a local server keeps
 * its data across restarts with nothing to install. PGlite runs one statement at a time and
 * serialises transactions itself; one process at a time may hold a folder (data-lock.ts).
 */
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { DataDirError, type Database } from "./database.ts";
import { copyTemplate, templateImage, type TemplateOptions } from "./pglite-template.ts";
import { PGLITE_START_PARAMS, pgliteDatabase } from "./pglite-database.ts";
import { LOCK_FILE, lockDataDir } from "./data-lock.ts";
import { makeFolder } from "../../generators/make-folder.ts";

const isLockFile = (name: string) => name.startsWith(LOCK_FILE);

function folderError(dataDir: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  // PGlite writes the folder through Node's fs: a refusal there is the folder's fault, not ours.
  return typeof code === "string" && /^E[A-Z]+$/.test(code) ? new DataDirError(`cannot use data folder ${dataDir}: ${(error as Error).message}`) : error;
}

/** Makes and locks the folder; returns whether it holds no database yet, and the release. */
function claim(dataDir: string): { fresh: boolean; release: () => void } {
  try {
    makeFolder(dataDir);
    const release = lockDataDir(dataDir);
    return { fresh: readdirSync(dataDir).every(isLockFile), release };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== "string") throw error;
    throw new DataDirError(`cannot use data folder ${dataDir}: ${(error as Error).message}`);
  }
}

/** A new database (in memory, or a folder without one yet) starts from the migrated template. */
async function open(dataDir: string | undefined, fresh: boolean, template: TemplateOptions): Promise<PGlite> {
  const startParams = [...PGLITE_START_PARAMS];
  if (!dataDir) return PGlite.create({ loadDataDir: await templateImage(template), startParams });
  if (!fresh) return PGlite.create({ dataDir, startParams });
  try {
    if (await copyTemplate(dataDir, template)) return await PGlite.create({ dataDir, startParams });
    return await PGlite.create({ dataDir, loadDataDir: await templateImage(template), startParams });
  } catch (error) {
    // Half a copied cluster would be opened as a database next time: the folder goes back to empty.
    try {
      for (const name of readdirSync(dataDir)) if (!isLockFile(name)) rmSync(join(dataDir, name), { recursive: true, force: true });
    } catch {
      // The folder refuses even that: the error below says why it could not be used.
    }
    throw error;
  }
}

/** `template` is for tests: another set of migrations or another cache folder. */
export async function openPglite(dataDir?: string, template: TemplateOptions = {}): Promise<Database> {
  const { fresh, release } = dataDir ? claim(dataDir) : { fresh: true, release: () => {} };
  try {
    return pgliteDatabase(await open(dataDir, fresh, template), release);
  } catch (error) {
    release();
    throw dataDir ? folderError(dataDir, error) : error;
  }
}
