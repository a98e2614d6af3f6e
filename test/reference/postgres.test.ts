/**
 * Several reference-server instances on one real PostgreSQL (TEST_DATABASE_URL, an admin URL;
 * CI starts the server with .ci/start-postgres.sh). They start together without racing each
 * other's migrations or seed, and count one shared rate limit. Each run creates and drops a
 * database of its own.
 */
import { describe, expect, it } from "vitest";
import { adminUrl, describePostgres, useTwoInstances } from "./postgres-db.ts";

describePostgres("two instances on one PostgreSQL", () => {
  // Started together: migrations and the seed must each happen exactly once.
  const pair = useTwoInstances("sc_test", { together: true });

  it("migrated once and seeded once", async () => {
    const migrations = await pair.a.db.query<{ n: number }>("select count(*)::int as n from schema_migrations");
    const accounts = await pair.b.db.query<{ n: number }>("select count(*)::int as n from accounts");
    expect(migrations[0]!.n).toBeGreaterThan(0);
    expect(accounts[0]!.n).toBe(5);
  });

  it("counts one rate limit across both instances", async () => {
    const remaining: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${(i % 2 ? pair.b : pair.a).urls.api}/no/such/path`);
      remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
      await res.arrayBuffer();
    }
    expect(remaining).toEqual([59, 58, 57, 56, 55, 54]);
  });
});
