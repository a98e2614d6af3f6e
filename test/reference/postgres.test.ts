/**
 * Several reference-server instances on one real PostgreSQL (TEST_DATABASE_URL, an admin URL;
 * CI starts the server with .ci/start-postgres.sh). They start together without racing each
 * other's migrations or seed, and count one shared rate limit. Each run creates and drops a
 * database of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUrl, scratchDatabase } from "./postgres-db.ts";
import { startServer, type RunningServer } from "../../reference/server.ts";

const db = scratchDatabase("sc_test");

describe.skipIf(!adminUrl)("two instances on one PostgreSQL", () => {
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    await db.create();
    // Started together: migrations and the seed must each happen exactly once.
    const started = await Promise.allSettled([
      startServer({ port: 0, authPort: 0, databaseUrl: db.url, seed: "demo", validateResponses: true }),
      startServer({ port: 0, authPort: 0, databaseUrl: db.url, seed: "demo", validateResponses: true }),
    ]);
    const failed = started.find((s) => s.status === "rejected");
    if (failed) {
      await Promise.allSettled(started.map((s) => (s.status === "fulfilled" ? s.value.close() : undefined)));
      throw (failed as PromiseRejectedResult).reason;
    }
    [a, b] = started.map((s) => (s as PromiseFulfilledResult<RunningServer>).value) as [RunningServer, RunningServer];
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([a?.close(), b?.close()]);
    await db.drop();
  }, 30_000);

  it("migrated once and seeded once", async () => {
    const migrations = await a.db.query<{ n: number }>("select count(*)::int as n from schema_migrations");
    const accounts = await b.db.query<{ n: number }>("select count(*)::int as n from accounts");
    expect(migrations[0]!.n).toBeGreaterThan(0);
    expect(accounts[0]!.n).toBe(5);
  });

  it("counts one rate limit across both instances", async () => {
    const remaining: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${(i % 2 ? b : a).urls.api}/no/such/path`);
      remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
      await res.arrayBuffer();
    }
    expect(remaining).toEqual([59, 58, 57, 56, 55, 54]);
  });
});
