/**
 * The demo history's cost and a digest of everything it records, to compare two versions of
 * reference/seed/history.ts (or of the domain code it calls): the same digest means the same
 * rows in every table the history touches, the same sequences, the same event bodies.
 *
 *   node --import tsx bench/history-digest.ts [ROOT]      (ROOT: another checkout; default this one)
 *   DIR=/tmp/h node --import tsx bench/history-digest.ts   (a PGlite data folder, as `serve` uses)
 *
 * The clock is fixed; what seeding makes at random or at the wall clock and the history never
 * touches (password and TOTP secrets, server keys, OAuth apps, migration times) is left out.
 */
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { resolve } from "node:path";

const root = resolve(process.argv[2] ?? ".");
const { openDatabase } = (await import(`${root}/reference/db/database.ts`)) as typeof import("../reference/db/database.ts");
const { migrate } = (await import(`${root}/reference/db/migrate.ts`)) as typeof import("../reference/db/migrate.ts");
const { seedDatabase } = (await import(`${root}/reference/seed/load.ts`)) as typeof import("../reference/seed/load.ts");
const { seedHistory } = (await import(`${root}/reference/seed/history.ts`)) as typeof import("../reference/seed/history.ts");

const dataDir = process.env.DIR;
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
const db = await openDatabase(dataDir ? { dataDir } : {});
await migrate(db);
await seedDatabase(db, "demo");

const before = process.cpuUsage();
const recorded = await seedHistory(db, { now: new Date("2026-06-01T12:00:00Z"), count: 300 });
const cpu = process.cpuUsage(before);

const skipped = ["oauth_applications", "schema_migrations", "server_keys"];
const tables = (await db.query<{ name: string }>("select tablename as name from pg_tables where schemaname = 'public' order by tablename"))
  .map((t) => t.name)
  .filter((t) => !skipped.includes(t));
const digest = createHash("sha256");
for (const table of tables) {
  digest.update(`\0${table}\0`);
  for (const row of await db.query<{ j: string }>(`select (to_jsonb(x) - 'password_hash' - 'totp_secret')::text as j from ${table} x order by 1`)) digest.update(row.j);
}
digest.update(JSON.stringify(await db.query("select sequencename, last_value from pg_sequences order by 1")));
await db.close();
process.stdout.write(`recorded ${recorded} events; seedHistory ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU; digest of ${tables.length} tables ${digest.digest("hex")}\n`);
