/**
 * Activity feeds over HTTP: 30 per page, newest first, at most 10 pages (300 events), only the
 * last 90 days, `Link` rels, `ETag` and 304 on `If-None-Match` (strong, weak, lists, `*`) without
 * touching the rate limit, a new event changing the tags of the pages it shifts, `X-Poll-Interval`,
 * and bad input. Responses are checked against the contract by the harness.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useServer } from "./harness.ts";
import { auth, eventIds, insertEvents, tokenFor } from "./feeds-fixtures.ts";
import { ceiling } from "../ceilings.ts";

const t = useServer();
let token: string;
const DAY = 86_400_000;

beforeAll(async () => {
  // Exact expectations: start from no events, whatever history the demo seed may carry.
  await t.server.db.exec("delete from events");
  const db = t.server.db;
  token = await tokenFor(db, "octocat", ["repo"]);
  await insertEvents(db, { actor: "octocat", repo: "octocat/hello-world", count: 320 }, t.api);
  // defunkt/hello-world: five events past the 90-day window, two inside it.
  await insertEvents(db, { actor: "defunkt", repo: "defunkt/hello-world", count: 5, createdAt: new Date(Date.now() - 91 * DAY) }, t.api);
  await insertEvents(db, { actor: "defunkt", repo: "defunkt/hello-world", count: 2, createdAt: new Date(Date.now() - 89 * DAY) }, t.api);
}, ceiling(60_000));

const feed = (path: string, headers: Record<string, string> = {}) => fetch(`${t.api}${path}`, { headers: { ...auth(token), ...headers } });

function rels(link: string | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of (link ?? "").matchAll(/<[^>]*[?&]page=(\d+)>; rel="(\w+)"/g)) out[m[2]!] = Number(m[1]);
  return out;
}

describe("feed pages", () => {
  it("serves 30 events per page, newest first, 10 pages and 300 events at most", async () => {
    const seen: string[] = [];
    let last = Infinity;
    for (let page = 1; page <= 10; page++) {
      const res = await feed(`/repos/octocat/hello-world/events?page=${page}`);
      expect(res.status).toBe(200);
      const events = (await res.json()) as { id: string; created_at: string }[];
      expect(events).toHaveLength(30);
      for (const e of events) {
        const at = Date.parse(e.created_at);
        expect(at).toBeLessThanOrEqual(last);
        last = at;
        seen.push(e.id);
      }
    }
    expect(new Set(seen).size).toBe(300);
  });

  it("links next and last before the last page, first and prev after the first", async () => {
    const first = await feed("/repos/octocat/hello-world/events");
    expect(rels(first.headers.get("link"))).toEqual({ next: 2, last: 10 });
    expect(first.headers.get("link")).toContain(`<${t.api}/repos/octocat/hello-world/events?page=2>`);
    expect(rels((await feed("/repos/octocat/hello-world/events?page=5")).headers.get("link"))).toEqual({ next: 6, last: 10, first: 1, prev: 4 });
    expect(rels((await feed("/repos/octocat/hello-world/events?page=10")).headers.get("link"))).toEqual({ first: 1, prev: 9 });
  });

  it("answers a page beyond 10 with 422 in the error shape", async () => {
    for (const page of ["11", "0", "abc"]) {
      const res = await feed(`/repos/octocat/hello-world/events?page=${page}`);
      expect(res.status).toBe(422);
      const body = (await res.json()) as { message: string; errors: { field: string; code: string }[] };
      expect(body.message).toBe("Validation Failed");
      expect(body.errors[0]).toMatchObject({ field: "page", code: "invalid" });
    }
  });

  it("refuses a repeated page parameter with 422 and ignores unknown parameters", async () => {
    const dup = await feed("/repos/octocat/hello-world/events?page=1&page=2");
    expect(dup.status).toBe(422);
    const extra = await feed("/repos/octocat/hello-world/events?per_page=100");
    expect(extra.status).toBe(200);
    expect(await eventIds(extra)).toHaveLength(30);
  });

  it("treats malformed or foreign If-None-Match values as no match", async () => {
    for (const value of ["", "garbage", '"unterminated', "W/", ",,,", '"' + "a".repeat(4000) + '"']) {
      const res = await feed("/events", { "If-None-Match": value });
      expect(res.status, value.slice(0, 20)).toBe(200);
    }
  });

  it("leaves out events older than 90 days, and has no Link when one page holds everything", async () => {
    const res = await feed("/repos/defunkt/hello-world/events");
    expect(res.status).toBe(200);
    expect(await eventIds(res)).toHaveLength(2);
    expect(res.headers.get("link")).toBeNull();
  });

  it("answers unknown repositories, users and organizations with 404, and other methods with 404", async () => {
    for (const path of ["/repos/octocat/nope/events", "/networks/nope/x/events", "/orgs/nope/events", "/orgs/octocat/events", "/users/nope/events", "/users/nope/received_events/public"]) {
      const res = await feed(path);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { message: string }).message).toBe("Not Found");
    }
    expect((await fetch(`${t.api}/events`, { method: "POST", headers: auth(token) })).status).toBe(404);
  });

  it("requires authentication for the organization dashboard", async () => {
    const res = await fetch(`${t.api}/users/octocat/events/orgs/octo-org`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toBe("Requires authentication");
  });
});

describe("conditional requests", () => {
  it("sends a quoted ETag and X-Poll-Interval on every 200", async () => {
    for (const path of ["/events", "/repos/octocat/hello-world/events", "/users/octocat/events", "/users/hubot/received_events"]) {
      const res = await feed(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]{40}"$/);
      expect(Number(res.headers.get("x-poll-interval"))).toBe(60);
    }
  });

  it("answers If-None-Match (strong, weak, in a list, *) with 304, no body, and the rate limit untouched", async () => {
    const path = "/repos/octocat/hello-world/events?page=2";
    const first = await feed(path);
    const etag = first.headers.get("etag")!;
    const remaining = Number(first.headers.get("x-ratelimit-remaining"));
    for (const value of [etag, `W/${etag}`, `"nope", ${etag}`, `W/"other" ,W/${etag}`, "*"]) {
      const res = await feed(path, { "If-None-Match": value });
      expect(res.status, value).toBe(304);
      expect(await res.text()).toBe("");
      expect(res.headers.get("etag")).toBe(etag);
      expect(Number(res.headers.get("x-poll-interval"))).toBe(60);
      expect(Number(res.headers.get("x-ratelimit-remaining"))).toBe(remaining);
    }
    const other = await feed(path, { "If-None-Match": '"something-else"' });
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).toBe(etag);
    expect(Number(other.headers.get("x-ratelimit-remaining"))).toBe(remaining - 1);
  });

  it("also spares the anonymous rate limit on 304", async () => {
    const first = await fetch(`${t.api}/events`);
    const etag = first.headers.get("etag")!;
    const remaining = Number(first.headers.get("x-ratelimit-remaining"));
    const again = await fetch(`${t.api}/events`, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(Number(again.headers.get("x-ratelimit-remaining"))).toBe(remaining);
  });

  it("changes the ETag of every page a new event shifts", async () => {
    const before = await Promise.all([1, 2, 10].map(async (p) => (await feed(`/repos/octocat/hello-world/events?page=${p}`)).headers.get("etag")!));
    const [id] = await insertEvents(t.server.db, { actor: "octocat", repo: "octocat/hello-world", createdAt: new Date(Date.now() + 1000) }, t.api);
    for (const [i, p] of [1, 2, 10].entries()) {
      const res = await feed(`/repos/octocat/hello-world/events?page=${p}`, { "If-None-Match": before[i]! });
      expect(res.status, `page ${p}`).toBe(200);
      expect(res.headers.get("etag")).not.toBe(before[i]);
      if (p === 1) expect((await eventIds(res))[0]).toBe(String(id));
    }
  });

  it("notices an event recorded without bumpEventsVersion within a second", async () => {
    const path = "/repos/octocat/hello-world/events";
    const etag = (await feed(path)).headers.get("etag")!;
    const [id] = await insertEvents(t.server.db, { actor: "octocat", repo: "octocat/hello-world", createdAt: new Date(Date.now() + 2000), bump: false }, t.api);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const res = await feed(path, { "If-None-Match": etag });
    expect(res.status).toBe(200);
    expect((await eventIds(res))[0]).toBe(String(id));
  });
});
