/**
 * The activity feeds under bad or unusual input, over real HTTP: two URLs of one feed (a user's
 * events and its `/public` twin, read anonymously) each keep their own `Link` and `ETag`; numbers
 * `Number()` would read but are not written in decimal (`0x2`, ` 2`, `Infinity`) are refused;
 * an over-long header is refused in the error shape and closes the connection; an `Accept` the
 * API cannot serve and unknown query parameters (`per_page`) are ignored. Responses are checked
 * against the contract by the harness.
 */
import { Agent, request, type IncomingHttpHeaders } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { expectInvalidField, useServer } from "./harness.ts";
import { auth, ids, insertEvents, tokenFor } from "./feeds-fixtures.ts";
import { ceiling } from "../ceilings.ts";

const t = useServer();
// Anonymous callers get 60 requests an hour: only the tests about anonymous reading go without it.
let token = "";

beforeAll(async () => {
  const db = t.server.db;
  await db.exec("delete from events");
  // 40 public events by octocat: two pages of octocat's events; hubot follows octocat, so two
  // pages of hubot's received events too.
  await insertEvents(db, { actor: "octocat", repo: "octocat/hello-world", count: 40 }, t.api);
  token = await tokenFor(db, "octocat", []);
  const i = ids(db);
  await db.query("insert into follows (follower_id, followee_id) values ($1, $2) on conflict do nothing", [await i.account("hubot"), await i.account("octocat")]);
}, ceiling(60_000));

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.api}${path}`, { headers: { ...auth(token), ...headers } });
const anonymous = (path: string) => fetch(`${t.api}${path}`);

describe("one feed under two URLs", () => {
  // Anonymous readers of /users/:u/events and /users/:u/events/public see the same events; the
  // page cache shared one entry, so whichever URL came first set the Link (and ETag) of both.
  for (const [own, twin] of [
    ["/users/octocat/events", "/users/octocat/events/public"],
    ["/users/hubot/received_events/public", "/users/hubot/received_events"],
  ] as const) {
    it(`${own} links to itself, even after ${twin} was served`, async () => {
      const first = await anonymous(twin);
      expect(first.status).toBe(200);
      expect(first.headers.get("link")).toContain(`<${t.api}${twin}?page=2>; rel="next"`);
      const res = await anonymous(own);
      expect(res.status).toBe(200);
      expect(((await res.json()) as unknown[]).length).toBe(30);
      expect(res.headers.get("link")).toBe(`<${t.api}${own}?page=2>; rel="next", <${t.api}${own}?page=2>; rel="last"`);
      // Different Link, different bytes served: a different tag.
      expect(res.headers.get("etag")).not.toBe(first.headers.get("etag"));
      // And the twin still links to itself (from the cache now).
      const again = await anonymous(twin);
      expect(again.headers.get("link")).toContain(`<${t.api}${twin}?page=2>; rel="next"`);
      const page2 = await anonymous(`${own}?page=2`);
      expect(page2.headers.get("link")).toBe(`<${t.api}${own}?page=1>; rel="first", <${t.api}${own}?page=1>; rel="prev"`);
    });
  }
});

describe("page numbers", () => {
  it.each(["0", "-1", "1.5", "abc", "", "11", "99999999999999999999", "0x2", "0b10", "+2", " 2", "2 ", "Infinity", "1e309"])("page=%j is 422 invalid on page", async (page) => {
    await expectInvalidField(await get(`/events?page=${encodeURIComponent(page)}`), "Event", "page");
  });

  it("a repeated page is 422, not one of its values", async () => {
    const res = await get("/repos/octocat/hello-world/events?page=1&page=2");
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: { field: string }[] }).errors[0]!.field).toBe("page");
  });

  it("decimal spellings of a page are that page", async () => {
    const two = await get("/repos/octocat/hello-world/events?page=2");
    for (const page of ["02", "2.0", "2e0"]) {
      const res = await get(`/repos/octocat/hello-world/events?page=${page}`);
      expect(res.status, page).toBe(200);
      expect(res.headers.get("etag"), page).toBe(two.headers.get("etag"));
    }
  });

  it("per_page and other unknown parameters are ignored: 30 per page, with Link", async () => {
    const res = await get("/repos/octocat/hello-world/events?per_page=100&sort=asc");
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(30);
    expect(res.headers.get("link")).toContain(`<${t.api}/repos/octocat/hello-world/events?page=2>; rel="next"`);
  });
});

describe("headers", () => {
  it("an Accept the API cannot serve still gets the JSON representation", async () => {
    for (const accept of ["application/xml", "text/html", "application/vnd.service.v4+json"]) {
      const res = await get("/events", { Accept: accept });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get("content-type"), accept).toBe("application/json; charset=utf-8");
      expect(Array.isArray(await res.json())).toBe(true);
    }
  });

  it("If-None-Match that is garbage, empty or a list of other tags is a 200; the tag among many is a 304", async () => {
    const etag = (await get("/repos/octocat/hello-world/events")).headers.get("etag")!;
    const others = Array.from({ length: 200 }, (_, n) => `"${n.toString(16).padStart(40, "0")}"`);
    for (const value of ["garbage", " ", ",", "W/", '""', "W/*", '"*"', others.join(", ")]) {
      const res = await get("/repos/octocat/hello-world/events", { "If-None-Match": value });
      expect(res.status, value.slice(0, 20)).toBe(200);
    }
    const hit = await get("/repos/octocat/hello-world/events", { "If-None-Match": [...others, `W/${etag}`].join(", ") });
    expect(hit.status).toBe(304);
    expect(hit.headers.get("etag")).toBe(etag);
  });

  it("an If-None-Match too long for the server is 431 in the error shape, and the connection is closed", async () => {
    const agent = new Agent({ keepAlive: true });
    try {
      const url = `${t.api}/repos/octocat/hello-world/events`;
      const answer = await httpRequest(url, { agent, headers: { "If-None-Match": `"${"0".repeat(20_000)}"` } });
      expect(answer.status).toBe(431);
      expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(answer.headers.connection).toBe("close");
      expect(JSON.parse(answer.body.toString("utf8"))).toEqual({ message: "Request Header Fields Too Large", documentation_url: expect.any(String) });
      // The same kept-alive agent goes on working: it did not put the cut socket back in its pool.
      const next = (await httpRequest(url, { agent })).status;
      expect(next).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body's bytes as received. */
  body: Buffer;
}

/** One request over node:http (on `agent` when given, so a test can reuse or inspect its connections). */
function httpRequest(url: string | URL, options: { method?: string; headers?: Record<string, string>; agent?: Agent } = {}): Promise<RawReply> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: options.method ?? "GET", headers: options.headers ?? {}, ...(options.agent ? { agent: options.agent } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}
