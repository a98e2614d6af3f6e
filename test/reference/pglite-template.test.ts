/**
 * The migrated PGlite template (reference/db/pglite-template.ts), with real PGlite and real
 * folders: a new database — a new data folder or one in memory — already holds every migration
 * when it opens (migrate() then finds nothing to do); a changed migration makes a new template
 * (and prunes the cache's templates unused for a week: pglite-template-prune.test.ts has the rules);
 * two processes making the template folder at once both succeed and leave one whole copy; a cache
 * folder that cannot be written still serves. (A folder keeping its data across a restart:
 * test/reference/storage.test.ts and data-lock.test.ts.)
 *
 * Making a template costs an initdb in WebAssembly (seconds of CPU), so each is made once here:
 * the changed migrations' image, made by the test of a changed migration, is what the two racing
 * processes start from (their race is on publishing the folder, not on initdb).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../reference/db/database.ts";
import { listMigrations, migrate, type Migration } from "../../reference/db/migrate.ts";
import { openPglite } from "../../reference/db/pglite.ts";
import { templateImage, templateName, UNUSED_TEMPLATE_MS } from "../../reference/db/pglite-template.ts";
import { ceiling } from "../ceilings.ts";

const scratch = mkdtempSync(join(tmpdir(), "pglite-template-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const MIGRATIONS = listMigrations();
/** The package's migrations and one more, so the template must be made anew in a scratch cache. */
function withProbe(table: string): Migration[] {
  return [...MIGRATIONS, { id: `999_${table}`, sql: `create table ${table} (n int not null); insert into ${table} values (42);` }];
}
/** The changed migrations and the scratch cache their template is made in (then raced on). */
const CHANGED = withProbe("probe_changed");
const CHANGED_CACHE = join(scratch, "cache-changed", "service-contract");

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
    const db = await openDatabase({ dataDir });
    try {
      // What it holds as it opens, then what migrate() applies; then it is written to like any other.
      expect({ ids: await appliedIds(db), applied: await migrate(db, MIGRATIONS) }).toEqual({ ids: MIGRATIONS.map((m) => m.id), applied: [] });
      await db.exec("create table kept (n int); insert into kept values (7)");
    } finally {
      await db.close();
    }
    // A cluster of its own in the folder, not a link to the cache.
    expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true);
    // And a restart keeps what was written: the copy is a whole database, and the schema still stands.
    const again = await openDatabase({ dataDir });
    try {
      expect(await again.query("select n from kept")).toEqual([{ n: 7 }]);
      expect(await appliedIds(again)).toEqual(MIGRATIONS.map((m) => m.id));
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
  it("a changed migration makes a new template, which new folders and memory databases open from, and prunes the unused ones", async () => {
    const cacheDir = CHANGED_CACHE;
    const migrations = CHANGED;
    // The cache as an older checkout left it: a template unused for over a week, one used today.
    mkdirSync(cacheDir, { recursive: true });
    const weekAgo = new Date(Date.now() - UNUSED_TEMPLATE_MS - 60_000);
    for (const name of ["pglite-0.0.1-0000000000000000", "pglite-0.0.1-0000000000000000.tar", "pglite-0.0.2-1111111111111111.tar"]) {
      writeFileSync(join(cacheDir, name), "old image");
      if (name.startsWith("pglite-0.0.1")) utimesSync(join(cacheDir, name), weekAgo, weekAgo);
    }
    // Two new folders at once in one process: both make the template folder, one rename wins.
    const [a, b, memory] = await Promise.all([
      openPglite(join(scratch, "changed-a"), { cacheDir, migrations }).then((db) => opened(db, "probe_changed")),
      openPglite(join(scratch, "changed-b"), { cacheDir, migrations }).then((db) => opened(db, "probe_changed")),
      openPglite(undefined, { cacheDir, migrations }).then((db) => opened(db, "probe_changed")),
    ]);
    const expected = { ids: migrations.map((m) => m.id), probe: [{ n: 42 }], applied: [] };
    expect([a, b, memory]).toEqual([expected, expected, expected]);
    // The cache holds the new template, whole, under its own name, and nothing half-made; the
    // week-old template is gone, the one used today is kept.
    expect(readdirSync(cacheDir).sort()).toEqual(["pglite-0.0.2-1111111111111111.tar", templateName(migrations), `${templateName(migrations)}.tar`]);
    rmSync(join(cacheDir, "pglite-0.0.2-1111111111111111.tar"));
    expect(templateName(migrations)).not.toBe(templateName(MIGRATIONS));
  }, ceiling(120_000));

  it("two processes making the template folder at once both open their database, and one whole template is left", async () => {
    // The race is on publishing the template folder (templateFolder in pglite-template.ts): each
    // process sees no folder, loads the image into a partial folder of its own and renames it to
    // the template's name; the later rename finds the name taken, and that process drops its copy
    // and uses the winner's. Both processes start from the changed migrations' image, made once
    // by the test above and put in this cache, so neither runs initdb: they race on the publish.
    // The two processes are this one (vitest's worker) and a child; the child imports everything
    // first and says "ready", then both are told to go at the same moment.
    const cacheDir = join(scratch, "cache-race", "service-contract");
    mkdirSync(cacheDir, { recursive: true });
    const image = await templateImage({ cacheDir: CHANGED_CACHE, migrations: CHANGED });
    writeFileSync(join(cacheDir, `${templateName(CHANGED)}.tar`), new Uint8Array(await image.arrayBuffer()));
    const script = `
      import { once } from "node:events";
      import { openPglite } from "./reference/db/pglite.ts";
      import { listMigrations, migrate } from "./reference/db/migrate.ts";
      const migrations = [...listMigrations(), JSON.parse(process.env.PROBE)];
      console.log("ready");
      await once(process.stdin, "data");
      process.stdin.destroy();
      const db = await openPglite(process.env.DATA_DIR, { cacheDir: process.env.CACHE_DIR, migrations });
      const ids = (await db.query("select id from schema_migrations order by id")).map((r) => r.id);
      const probe = await db.query("select n from probe_changed");
      const applied = await migrate(db, migrations);
      await db.close();
      console.log(JSON.stringify({ ids, probe, applied }));`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: join(import.meta.dirname, "..", ".."),
      env: { ...process.env, DATA_DIR: join(scratch, "race-child"), CACHE_DIR: cacheDir, PROBE: JSON.stringify(CHANGED.at(-1)) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    let onReady = () => {};
    const ready = new Promise<void>((resolve) => (onReady = resolve));
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.startsWith("ready\n")) onReady();
    });
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<number | null>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code) => {
        onReady(); // a child that died before "ready" is reported below, not waited for
        resolve(code);
      });
    });
    await ready;
    child.stdin.end("go\n");
    const [mine, code] = await Promise.all([openPglite(join(scratch, "race-worker"), { cacheDir, migrations: CHANGED }).then((db) => opened(db, "probe_changed")), exited]);
    const expected = { ids: CHANGED.map((m) => m.id), probe: [{ n: 42 }], applied: [] };
    expect({ err, code }).toEqual({ err: "", code: 0 });
    expect(out.startsWith("ready\n")).toBe(true);
    expect([mine, JSON.parse(out.slice("ready\n".length))]).toEqual([expected, expected]);
    // One whole template folder beside the image, and no partial copy left behind.
    expect(readdirSync(cacheDir).sort()).toEqual([templateName(CHANGED), `${templateName(CHANGED)}.tar`]);
  }, ceiling(120_000));

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
