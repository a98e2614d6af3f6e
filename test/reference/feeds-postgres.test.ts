/**
 * Feed caching with two reference-server instances sharing one PostgreSQL (TEST_DATABASE_URL, as
 * in postgres.test.ts): the events version is read from the database (max(id)), so an event
 * recorded through one instance — here written straight into the table, with no in-process
 * signal at all — changes the ETag the other instance serves at once.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { NotModifiedIndex } from "../../reference/feeds/not-modified.ts";
import { adminUrl, describePostgres, useTwoInstances } from "./postgres-db.ts";
import { auth, eventIds, insertEvents, tokenFor } from "./feeds-fixtures.ts";

describePostgres("feeds on two instances over PostgreSQL", () => {
  const pair = useTwoInstances("sc_feeds");
  let token: string;

  beforeAll(async () => {
    await insertEvents(pair.a.db, { actor: "octocat", repo: "octocat/hello-world", count: 3, bump: false }, pair.a.urls.api);
    token = await tokenFor(pair.a.db, "octocat", ["repo"]);
  });

  it("serves a new event from the other instance at once, with a new ETag, then 304", async () => {
    const path = "/repos/octocat/hello-world/events";
    const first = await fetch(`${pair.b.urls.api}${path}`, { headers: auth(token) });
    const etag = first.headers.get("etag")!;
    expect(await eventIds(first)).toHaveLength(3);
    expect((await fetch(`${pair.b.urls.api}${path}`, { headers: { ...auth(token), "If-None-Match": etag } })).status).toBe(304);
    const [id] = await insertEvents(pair.a.db, { actor: "octocat", repo: "octocat/hello-world", createdAt: new Date(Date.now() + 1000), bump: false }, pair.a.urls.api);
    const next = await fetch(`${pair.b.urls.api}${path}`, { headers: { ...auth(token), "If-None-Match": etag } });
    expect(next.status).toBe(200);
    const etag2 = next.headers.get("etag")!;
    expect(etag2).not.toBe(etag);
    expect((await eventIds(next))[0]).toBe(String(id));
    expect((await fetch(`${pair.b.urls.api}${path}`, { headers: { ...auth(token), "If-None-Match": etag2 } })).status).toBe(304);
  });

  // Here the rate limit is counted in the database, so onSend is asynchronous: a repeated poll the
  // shortcut answered must stop there, or the handler runs too and tries a second answer.
  it("answers a repeated poll once: the polling shortcut's answer is not followed by the handler", async () => {
    const path = "/repos/octocat/hello-world/events";
    const first = await fetch(`${pair.a.urls.api}${path}`, { headers: auth(token) });
    const etag = first.headers.get("etag")!;
    await first.text();
    const remember = vi.spyOn(NotModifiedIndex.prototype, "remember");
    try {
      expect((await fetch(`${pair.a.urls.api}${path}`, { headers: { ...auth(token), "If-None-Match": etag } })).status).toBe(304);
      const again = await fetch(`${pair.a.urls.api}${path}`, { headers: auth(token) });
      expect(again.status).toBe(200);
      await again.text();
      // One request that does go the full way; only its handler may have remembered anything.
      const stale = await fetch(`${pair.a.urls.api}${path}`, { headers: { ...auth(token), "If-None-Match": '"stale"' } });
      expect(stale.status).toBe(200);
      await stale.text();
      expect(remember).toHaveBeenCalledTimes(1);
      // The poll lane needs the counters and the events version in process: on PostgreSQL it never answers.
      expect(pair.a.lane.answered).toBe(0);
    } finally {
      remember.mockRestore();
    }
  });
});
