/**
 * The migrated PGlite template (reference/db/pglite-template.ts), with real PGlite and real
 * folders: a new database — a new data folder or one in memory — already holds every migration
 * when it opens (migrate() then finds nothing to do); a changed migration makes a new template;
 * two processes making the template at once both succeed and leave one whole copy; a cache folder
 * that cannot be written still serves. (A folder keeping its data across a restart:
 * test/reference/storage.test.ts and data-lock.test.ts.)
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../reference/db/database.ts";
import { listMigrations, migrate, type Migration } from "../../reference/db/migrate.ts";
import { openPglite } from "../../reference/db/pglite.ts";
import { templateName } from "../../reference/db/pglite-template.ts";
import { ceiling } from "../ceilings.ts";

const scratch = mkdtempSync(join(tmpdir(), "pglite-template-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const MIGRATIONS = listMigrations();
/** The package's migrations and one more, so the template must be made anew in a scratch cache. */
function withProbe(table: string): Migration[] {
  return [...MIGRATIONS, { id: `999_${table}`, sql: `create table ${table} (n int not null); insert into ${table} values (42);` }];
}

async function appliedIds(db: Database): Promise<string[]> {
  return (await db.query<{ id: string }>("select id from schema_migrations order by id")).map((r) => r.id);
}

/** What a new database holds as it opens, before migrate() runs; then what migrate() applies. */
async function opened(db: Database, probe?: string): Promise<{ ids: string[]; probe?: unknown; applied: string[] }> {
  try {
    const ids = await appliedIds(db);
    const probeRows = probe ? await db.query(`select n from ${probe}`) : undefined;
    return { ids, ...(probe ? { probe: probeRows } : {}), applied: await migrate(db, probe ? withProbe(probe) : MIGRATIONS) };
  } finally {
    await db.close();
  }
}

describe("a new database starts from the migrated template", () => {
  it("a new data folder holds the migrated schema as it opens, and migrate() applies nothing", async () => {
    const dataDir = join(scratch, "new-folder");
    const result = await opened(await openDatabase({ dataDir }));
    expect(result).toEqual({ ids: MIGRATIONS.map((m) => m.id), applied: [] });
    // A cluster of its own in the folder, not a link to the cache.
    expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true);
    // And it is a database like any other: a restart keeps what was written.
    const first = await openDatabase({ dataDir });
    await first.exec("create table kept (n int); insert into kept values (7)");
    await first.close();
    const again = await openDatabase({ dataDir });
    try {
      expect(await again.query("select n from kept")).toEqual([{ n: 7 }]);
    } finally {
      await again.close();
    }
  }, ceiling(60_000));

  it("so does a database in memory, and a second one in the same process", async () => {
    for (let i = 0; i < 2; i++) expect(await opened(await openDatabase({}))).toEqual({ ids: MIGRATIONS.map((m) => m.id), applied: [] });
  }, ceiling(60_000));
});

describe("the template's name", () => {
  it("changes with a migration's contents, an added migration and nothing else", () => {
    expect(templateName(MIGRATIONS)).toBe(templateName(listMigrations()));
    const changed = MIGRATIONS.map((m, i) => (i === MIGRATIONS.length - 1 ? { ...m, sql: `${m.sql}\n-- changed` } : m));
    expect(templateName(changed)).not.toBe(templateName(MIGRATIONS));
    expect(templateName(withProbe("probe"))).not.toBe(templateName(MIGRATIONS));
    expect(templateName(MIGRATIONS)).toMatch(/^pglite-\d+\.\d+\.\d+-[0-9a-f]{16}$/);
  });
});

describe("making the template", () => {
  it("a changed migration makes a new template, which new folders and memory databases open from", async () => {
    const cacheDir = join(scratch, "cache-changed", "service-contract");
    const migrations = withProbe("probe_changed");
    // Two new folders at once in one process: both make the template folder, one rename wins.
    const [a, b, memory] = await Promise.all([
      openPglite(join(scratch, "changed-a"), { cacheDir, migrations }).then((db) => opened(db, "probe_changed")),
      openPglite(join(scratch, "changed-b"), { cacheDir, migrations }).then((db) => opened(db, "probe_changed")),
      openPglite(undefined, { cacheDir, migrations }).then((db) => opened(db, "probe_changed")),
    ]);
    const expected = { ids: migrations.map((m) => m.id), probe: [{ n: 42 }], applied: [] };
    expect([a, b, memory]).toEqual([expected, expected, expected]);
    // The cache holds the new template, whole, under its own name, and nothing half-made.
    expect(readdirSync(cacheDir).sort()).toEqual([templateName(migrations), `${templateName(migrations)}.tar`]);
    expect(templateName(migrations)).not.toBe(templateName(MIGRATIONS));
  }, ceiling(120_000));

  it("two processes making it at once both open their database, and one whole template is left", async () => {
    const cacheDir = join(scratch, "cache-race", "service-contract");
    const script = `
      import { openPglite } from "./reference/db/pglite.ts";
      import { listMigrations, migrate } from "./reference/db/migrate.ts";
      const migrations = [...listMigrations(), { id: "999_probe_race", sql: "create table probe_race (n int); insert into probe_race values (42);" }];
      const db = await openPglite(process.env.DATA_DIR, { cacheDir: process.env.CACHE_DIR, migrations });
      const ids = (await db.query("select id from schema_migrations order by id")).map((r) => r.id);
      const probe = await db.query("select n from probe_race");
      const applied = await migrate(db, migrations);
      await db.close();
      console.log(JSON.stringify({ ids, probe, applied }));`;
    const run = (name: string) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
          cwd: join(import.meta.dirname, "..", ".."),
          env: { ...process.env, DATA_DIR: join(scratch, name), CACHE_DIR: cacheDir },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        let err = "";
        child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, out, err }));
      });
    const results = await Promise.all([run("race-a"), run("race-b")]);
    const ids = [...MIGRATIONS.map((m) => m.id), "999_probe_race"];
    for (const r of results) {
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out)).toEqual({ ids, probe: [{ n: 42 }], applied: [] });
    }
    const name = readdirSync(cacheDir).find((f) => !f.endsWith(".tar"))!;
    expect(readdirSync(cacheDir).sort()).toEqual([name, `${name}.tar`]);
  }, ceiling(180_000));

  it("a cache folder that cannot be made still serves new folders and memory databases", async () => {
    // A file where the cache folder's parent should be: every write to the cache fails (ENOTDIR).
    const blocker = join(scratch, "not-a-folder");
    writeFileSync(blocker, "");
    const cacheDir = join(blocker, "service-contract");
    const migrations = withProbe("probe_nocache");
    const expected = { ids: migrations.map((m) => m.id), probe: [{ n: 42 }], applied: [] };
    expect(await opened(await openPglite(join(scratch, "nocache-folder"), { cacheDir, migrations }), "probe_nocache")).toEqual(expected);
    expect(await opened(await openPglite(undefined, { cacheDir, migrations }), "probe_nocache")).toEqual(expected);
    // The folder's database is whole: it opens again as an existing one.
    expect(await opened(await openPglite(join(scratch, "nocache-folder"), { cacheDir, migrations }), "probe_nocache")).toEqual(expected);
  }, ceiling(120_000));
});
