/**
 * The polling shortcut (reference/http/feed-shortcut.ts) answers a repeated conditional GET with
 * a 304 before validation and the handler. It must answer exactly what the full path would: the
 * same ETag and headers, rate limit untouched, and never a 304 for a page the caller could not
 * see — an ETag is not a credential — nor after the feed changed or the token died.
 */
import { beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { FeedCache } from "../../reference/feeds/cache.ts";
import { useServer } from "./harness.ts";
import { auth, insertEvents, tokenFor } from "./feeds-fixtures.ts";

const t = useServer();
const PRIVATE = "/repos/octocat/secret-plans/events";
const PUBLIC = "/repos/octocat/hello-world/events";
let owner = "";
let other = "";

beforeAll(async () => {
  await insertEvents(t.server.db, { actor: "octocat", repo: "octocat/secret-plans", count: 3 }, t.api);
  await insertEvents(t.server.db, { actor: "octocat", repo: "octocat/hello-world", count: 3 }, t.api);
  owner = await tokenFor(t.server.db, "octocat", ["repo"]);
  other = await tokenFor(t.server.db, "hubot", []);
});

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.api}${path}`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
}

describe("repeated conditional GETs", () => {
  it("answer 304 with the same ETag, poll interval and rate headers, without counting", async () => {
    const first = await get(PUBLIC, auth(owner));
    const etag = first.headers.get("etag")!;
    const second = await get(PUBLIC, { ...auth(owner), "If-None-Match": etag });
    const third = await get(PUBLIC, { ...auth(owner), "If-None-Match": `W/${etag}, "other"` });
    for (const r of [second, third]) {
      expect(r.status).toBe(304);
      expect(r.text).toBe("");
      expect(r.headers.get("etag")).toBe(etag);
      expect(r.headers.get("x-poll-interval")).toBe("60");
      expect(r.headers.get("x-ratelimit-remaining")).toBe(first.headers.get("x-ratelimit-remaining"));
      expect(r.headers.get("x-oauth-scopes")).toBe("repo");
    }
  });

  it("never answer 304 to a viewer who cannot see the page, whatever ETag they send", async () => {
    const mine = await get(PRIVATE, auth(owner));
    expect(mine.status).toBe(200);
    const etag = mine.headers.get("etag")!;
    expect((await get(PRIVATE, { ...auth(owner), "If-None-Match": etag })).status).toBe(304);
    expect((await get(PRIVATE, { "If-None-Match": etag })).status).toBe(404);
    expect((await get(PRIVATE, { ...auth(other), "If-None-Match": etag })).status).toBe(404);
    // The same user through a token without `repo` sees the public events only: another page.
    const weak = await tokenFor(t.server.db, "octocat", []);
    expect((await get(PRIVATE, { ...auth(weak), "If-None-Match": etag })).status).toBe(404);
  });

  it("answer 200 with a new ETag once a new event changes the page", async () => {
    const before = (await get(PUBLIC, auth(owner))).headers.get("etag")!;
    expect((await get(PUBLIC, { ...auth(owner), "If-None-Match": before })).status).toBe(304);
    await insertEvents(t.server.db, { actor: "octocat", repo: "octocat/hello-world" }, t.api);
    const after = await get(PUBLIC, { ...auth(owner), "If-None-Match": before });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(before);
  });

  it("refuse a revoked token even with a remembered ETag", async () => {
    const token = await tokenFor(t.server.db, "octocat", ["repo"]);
    const etag = (await get(PUBLIC, auth(token))).headers.get("etag")!;
    expect((await get(PUBLIC, { ...auth(token), "If-None-Match": etag })).status).toBe(304);
    const { deleteAuthorization } = await import("../../reference/store/authorizations.ts");
    const [{ id }] = (await t.server.db.query<{ id: number }>("select id from authorizations order by id desc limit 1")) as [{ id: number }];
    await deleteAuthorization(t.server.db, id);
    expect((await get(PUBLIC, { ...auth(token), "If-None-Match": etag })).status).toBe(401);
  });

  it("keep refusing a page beyond 10 with 422, conditional or not", async () => {
    expect((await get(`${PUBLIC}?page=11`, { "If-None-Match": "*" })).status).toBe(422);
    expect((await get(`${PUBLIC}?page=11`, { "If-None-Match": "*" })).status).toBe(422);
  });
});

describe("repeated unconditional GETs", () => {
  it("get the very page again — bytes, ETag, Link, content type — counted against the rate limit", async () => {
    await insertEvents(t.server.db, { actor: "octocat", repo: "octocat/hello-world", count: 40 }, t.api);
    const first = await get(PUBLIC, auth(owner));
    expect(first.headers.get("link")).toContain('rel="next"');
    // The repeats must come from the shortcut (a peek at the page cache), not from the handler.
    const handled = vi.spyOn(FeedCache.prototype, "page");
    const peeked = vi.spyOn(FeedCache.prototype, "peek");
    onTestFinished(() => void (handled.mockRestore(), peeked.mockRestore()));
    for (let n = 1; n <= 2; n++) {
      const again = await get(PUBLIC, auth(owner));
      expect(handled).not.toHaveBeenCalled();
      expect(peeked).toHaveBeenCalledTimes(n);
      expect(again.status).toBe(200);
      expect(again.text).toBe(first.text);
      for (const name of ["etag", "link", "content-type", "content-length", "x-poll-interval", "x-oauth-scopes", "x-accepted-oauth-scopes", "x-ratelimit-limit"]) {
        expect(again.headers.get(name), name).toBe(first.headers.get(name));
      }
      expect(Number(again.headers.get("x-ratelimit-remaining"))).toBe(Number(first.headers.get("x-ratelimit-remaining")) - n);
    }
    // Anonymous callers too, each page as its own URL.
    const anonymous = await get(`${PUBLIC}?page=2`);
    const repeated = await get(`${PUBLIC}?page=2`);
    expect(repeated.text).toBe(anonymous.text);
    expect(repeated.headers.get("etag")).toBe(anonymous.headers.get("etag"));
    expect(Number(repeated.headers.get("x-ratelimit-remaining"))).toBe(Number(anonymous.headers.get("x-ratelimit-remaining")) - 1);
    expect(t.violations).toEqual([]);
  });

  it("never hand a page to a viewer it was not served to", async () => {
    const mine = await get(PRIVATE, auth(owner));
    expect((await get(PRIVATE, auth(owner))).text).toBe(mine.text);
    expect((await get(PRIVATE)).status).toBe(404);
    expect((await get(PRIVATE, auth(other))).status).toBe(404);
    const weak = await tokenFor(t.server.db, "octocat", []);
    expect((await get(PRIVATE, auth(weak))).status).toBe(404);
  });

  it("get the new page once a new event changes the feed, and nothing once the token is revoked", async () => {
    const token = await tokenFor(t.server.db, "octocat", ["repo"]);
    const before = await get(PRIVATE, auth(token));
    expect((await get(PRIVATE, auth(token))).text).toBe(before.text);
    await insertEvents(t.server.db, { actor: "octocat", repo: "octocat/secret-plans" }, t.api);
    const after = await get(PRIVATE, auth(token));
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    const { deleteAuthorization } = await import("../../reference/store/authorizations.ts");
    const [{ id }] = (await t.server.db.query<{ id: number }>("select id from authorizations order by id desc limit 1")) as [{ id: number }];
    await deleteAuthorization(t.server.db, id);
    expect((await get(PRIVATE, auth(token))).status).toBe(401);
  });

  it("refuse once the rate limit is exhausted, even for a remembered page", async () => {
    const anonymous = await get(`${PUBLIC}?page=3`);
    let remaining = Number(anonymous.headers.get("x-ratelimit-remaining"));
    while (remaining > 0) remaining = Number((await get(`${PUBLIC}?page=3`)).headers.get("x-ratelimit-remaining"));
    const refused = await get(`${PUBLIC}?page=3`);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("etag")).toBeNull();
    // A conditional poll still gets its 304, which does not count.
    expect((await get(`${PUBLIC}?page=3`, { "If-None-Match": anonymous.headers.get("etag")! })).status).toBe(304);
  });
});
