/**
 * The CPU of opening the reference's PGlite database once, by kind: a new data folder, an existing
 * one (opened and closed once before, not counted), or in memory; then migrate() and close. The
 * PGlite module is imported before the clock starts; the process's first open also pays V8's
 * compilation of PGlite's WebAssembly, as every `serve` and `simulate` does.
 *
 *   node --import tsx bench/pglite-open.ts new|existing|memory
 *
 * Not a section of `npm run bench`: figures and how they were taken are in bench/README.md,
 * "Opening the database".
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../reference/db/database.ts";
import { migrate } from "../reference/db/migrate.ts";

const mode = process.argv[2];
if (mode !== "new" && mode !== "existing" && mode !== "memory") throw new Error("usage: bench/pglite-open.ts new|existing|memory");
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const scratch = mkdtempSync(join(tmpdir(), "pglite-open-"));
const dataDir = mode === "memory" ? undefined : join(scratch, "data");
if (mode === "existing") {
  const db = await openDatabase({ dataDir });
  await migrate(db);
  await db.close();
}
await import("@electric-sql/pglite");
const t0 = cpu();
const db = await openDatabase({ dataDir });
const t1 = cpu();
const applied = await migrate(db);
const t2 = cpu();
await db.close();
const t3 = cpu();
console.log(`${mode}: open ${(t1 - t0).toFixed(2)} migrate ${(t2 - t1).toFixed(2)} (${applied.length} applied) close ${(t3 - t2).toFixed(2)} total ${(t3 - t0).toFixed(2)} s CPU`);
rmSync(scratch, { recursive: true, force: true });
