/**
 * Storage of the reference server: migrations apply once, data in --data-dir survives a restart
 * without being seeded twice, and a bad seed fixture is refused whole, before anything is written.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { openDatabase, type Database } from "../../reference/db/database.ts";
import { PGLITE_START_PARAMS, pgliteDatabase } from "../../reference/db/pglite-database.ts";
import { listMigrations, migrate } from "../../reference/db/migrate.ts";
import { startServer } from "../../reference/server.ts";
import { FixtureError, readFixture, seedDatabase } from "../../reference/seed/load.ts";
import { ceiling } from "../ceilings.ts";

const scratch = mkdtempSync(join(tmpdir(), "storage-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function count(db: { query: (sql: string) => Promise<unknown[]> }, table: string): Promise<number> {
  return ((await db.query(`select count(*)::int as n from ${table}`)) as { n: number }[])[0]!.n;
}

describe("migrations", () => {
  it("apply every file once, in order, and nothing the second time", async () => {
    // A bare cluster: a database the server opens already starts from the migrated template
    // (pglite-template.ts; test/reference/pglite-template.test.ts), on which migrate() finds nothing to do.
    const db = pgliteDatabase(await PGlite.create({ startParams: [...PGLITE_START_PARAMS] }));
    try {
      expect(await migrate(db)).toEqual(listMigrations().map((m) => m.id));
      expect(await migrate(db)).toEqual([]);
      expect(await count(db, "schema_migrations")).toBe(listMigrations().length);
    } finally {
      await db.close();
    }
  });
});

describe("the embedded database on disk", () => {
  it("keeps its data across a restart and seeds only an empty database", async () => {
    const dataDir = join(scratch, "data");
    const first = await startServer({ port: 0, authPort: 0, dataDir, seed: "demo" });
    const accounts = await count(first.db, "accounts");
    await first.db.query("insert into accounts (login, type) values ('added-later', 'User')");
    await first.close();

    const second = await startServer({ port: 0, authPort: 0, dataDir, seed: "demo" });
    try {
      expect(await count(second.db, "accounts")).toBe(accounts + 1);
      const rows = await second.db.query<{ login: string }>("select login from accounts where login = 'added-later'");
      expect(rows).toHaveLength(1);
    } finally {
      await second.close();
    }
  }, ceiling(60_000));
});

describe("seed fixtures", () => {
  it("loads the demo: users, organization, repositories, applications, passwords hashed", async () => {
    const db = await openDatabase({});
    try {
      await migrate(db);
      expect(await seedDatabase(db, "demo")).toBe(true);
      expect(await count(db, "accounts")).toBe(5);
      expect(await count(db, "oauth_applications")).toBe(2);
      // The list: a user with two-factor, an organization with members, public and private
      // repositories with collaborators, issues, and one suspended application.
      const twoFactor = await db.query<{ login: string }>("select login from accounts where two_factor is not null and totp_secret is not null");
      expect(twoFactor.map((u) => u.login)).toEqual(["monalisa"]);
      expect(await count(db, "org_members")).toBe(2);
      const repos = await db.query<{ private: boolean }>("select private from repositories");
      expect(new Set(repos.map((r) => r.private))).toEqual(new Set([true, false]));
      expect(await count(db, "collaborators")).toBe(2);
      expect(await count(db, "issues")).toBe(4);
      const suspended = await db.query<{ client_id: string }>("select client_id from oauth_applications where suspended");
      expect(suspended.map((a) => a.client_id)).toEqual(["demo-client-id-0002"]);
      const users = await db.query<{ password_hash: string }>("select password_hash from accounts where type = 'User'");
      for (const u of users) expect(u.password_hash).toMatch(/^scrypt\$/);
      const apps = await db.query<{ client_secret_hash: string }>("select client_secret_hash from oauth_applications");
      for (const a of apps) expect(a.client_secret_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(await seedDatabase(db, "demo")).toBe(false);
    } finally {
      await db.close();
    }
  });

  describe("a bad fixture", () => {
    // One migrated, empty database for the four refusals (an open and the migrations are most of
    // this file's CPU): each refusal writes nothing, which is what each one checks, so the next
    // one meets an empty database as well.
    let db: Database;
    beforeAll(async () => {
      db = await openDatabase({});
      await migrate(db);
    });
    afterAll(() => db?.close());

    it.each([
      ["not YAML at all", "users: [", /cannot read seed fixture/],
      ["an unknown top-level key", "people: []", / has unknown key people; allowed: users, organizations, follows, repositories, issues, applications/],
      ["a short password", "users: [{ login: a, password: short }]", /\/users\/0\/password/],
      ["a repository of an unknown owner", "repositories: [{ owner: ghost, name: r }]", /unknown login "ghost"/],
    ])("refuses %s, writing nothing", async (_name, text, message) => {
      const file = join(scratch, `fixture-${Math.random().toString(36).slice(2)}.yaml`);
      writeFileSync(file, text);
      expect(await count(db, "accounts")).toBe(0);
      await expect(seedDatabase(db, file)).rejects.toThrow(message);
      await expect(seedDatabase(db, file)).rejects.toBeInstanceOf(FixtureError);
      expect(await count(db, "accounts")).toBe(0);
    });
  });

  it("reads the committed demo fixture without errors", () => {
    expect(readFixture("demo").users?.map((u) => u.login)).toEqual(["octocat", "hubot", "monalisa", "defunkt"]);
  });
});
