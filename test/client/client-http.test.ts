/**
 * The generated client over real HTTP against local node:http servers: host routing, the three
 * auth forms, the ETag round trip, Link pagination, the feed poller under a fake clock, the
 * rate-limit wait-and-retry, the two-factor retry, and undeclared statuses.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ResponseError, RequestError, ServiceClient } from "../../generated/client/index.ts";
import { activityEvent, fakeClock, json, startServer, type LocalServer } from "./helpers.ts";

const servers: LocalServer[] = [];
const serve = async (...args: Parameters<typeof startServer>) => {
  const s = await startServer(...args);
  servers.push(s);
  return s;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const repo = { path: { owner: "octocat", repo: "hello" } };
const limits = { "x-ratelimit-limit": 5000, "x-ratelimit-remaining": 4999, "x-ratelimit-reset": 1735693200 };

describe("hosts and auth", () => {
  it("sends API operations to baseUrl and OAuth operations to authUrl", async () => {
    const api = await serve((_, res) => json(res, 200, [], limits));
    const web = await serve((_, res) => res.writeHead(302, { location: "http://app/cb?code=1" }).end());
    const client = new ServiceClient({ baseUrl: api.url, authUrl: web.url, auth: { type: "token", token: "t0k" } });
    expect((await client.listPublicEvents()).status).toBe(200);
    const r = await client.authorize({ query: { client_id: "abc" } });
    expect(r.status).toBe(302);
    if (r.status === 302) expect(r.headers.Location).toBe("http://app/cb?code=1");
    expect(api.requests.map((q) => q.url.pathname)).toEqual(["/events"]);
    expect(web.requests.map((q) => q.url.pathname)).toEqual(["/login/oauth/authorize"]);
    // The token belongs to the API host; the web host never sees it.
    expect(api.requests[0]!.headers.authorization).toBe("token t0k");
    expect(web.requests[0]!.headers.authorization).toBeUndefined();
  });

  it.each([
    [{ type: "token", token: "t0k" } as const, "token t0k", null],
    [{ type: "query", token: "t0k" } as const, undefined, "t0k"],
    [{ type: "basic", username: "octocat", password: "pw" } as const, `Basic ${Buffer.from("octocat:pw").toString("base64")}`, null],
  ])("auth %j", async (auth, header, query) => {
    const api = await serve((_, res) => json(res, 200, [], limits));
    await new ServiceClient({ baseUrl: api.url, auth }).listRepoEvents(repo);
    expect(api.requests[0]!.headers.authorization).toBe(header);
    expect(api.requests[0]!.url.searchParams.get("access_token")).toBe(query);
  });

  it("decodes declared headers and tracks the rate limit", async () => {
    const api = await serve((_, res) => json(res, 200, [activityEvent("1")], { ...limits, etag: '"v1"', "x-poll-interval": "60" }));
    const client = new ServiceClient({ baseUrl: api.url });
    const r = await client.listRepoEvents(repo);
    if (r.status !== 200) throw new Error("expected 200");
    expect(r.headers["X-Poll-Interval"]).toBe(60);
    expect(r.headers.ETag).toBe('"v1"');
    expect(r.body[0]!.id).toBe("1");
    expect(client.rateLimit).toEqual({ limit: 5000, remaining: 4999, reset: 1735693200 });
  });

  it("returns declared error statuses and throws on undeclared ones", async () => {
    let status = 404;
    const api = await serve((_, res) => json(res, status, { message: "Not Found" }));
    const client = new ServiceClient({ baseUrl: api.url });
    const r = await client.listRepoEvents(repo);
    expect(r.status).toBe(404);
    if (r.status === 404) expect(r.body.message).toBe("Not Found");
    status = 500;
    const error = await client.listRepoEvents(repo).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error).toMatchObject({ status: 500, declared: false, operationId: "listRepoEvents" });
  });
});

describe("conditional requests", () => {
  it("sends the stored ETag and serves the cached body on 304", async () => {
    const api = await serve((req, res) => {
      if (req.headers["if-none-match"] === '"v1"') return res.writeHead(304, { etag: '"v1"', "x-poll-interval": "60", ...limits }).end();
      json(res, 200, [activityEvent("1")], { etag: '"v1"', "x-poll-interval": "60", ...limits });
    });
    const client = new ServiceClient({ baseUrl: api.url, auth: { type: "token", token: "a" } });
    const first = await client.listRepoEvents(repo);
    const second = await client.listRepoEvents(repo);
    expect(first).toMatchObject({ status: 200, notModified: false });
    expect(second).toMatchObject({ status: 304, notModified: true, body: undefined });
    if (second.status === 304) expect(second.cached?.[0]?.id).toBe("1");
    expect(api.requests.map((q) => q.headers["if-none-match"])).toEqual([undefined, '"v1"']);

    // Another identity, another query, or noCache: no ETag is sent.
    await client.listRepoEvents(repo, { auth: { type: "token", token: "b" } });
    await client.listRepoEvents({ ...repo, query: { page: 2 } });
    await client.listRepoEvents(repo, { noCache: true });
    expect(api.requests.slice(2).map((q) => q.headers["if-none-match"])).toEqual([undefined, undefined, undefined]);
  });
});

describe("pagination", () => {
  it("follows Link rel=next across three pages", async () => {
    const api = await serve((req, res) => {
      const page = Number(req.url.searchParams.get("page") ?? "1");
      const base = `http://${req.headers.host}${req.url.pathname}`;
      const link = page < 3 ? `<${base}?page=${page + 1}>; rel="next", <${base}?page=3>; rel="last"` : `<${base}?page=1>; rel="first"`;
      json(res, 200, [activityEvent(`${page}a`), activityEvent(`${page}b`)], { link, ...limits });
    });
    const client = new ServiceClient({ baseUrl: api.url, auth: { type: "token", token: "t" } });
    const pages: string[][] = [];
    for await (const page of client.paginate("listRepoEvents", repo)) pages.push(page.body.map((e) => e.id));
    expect(pages).toEqual([["1a", "1b"], ["2a", "2b"], ["3a", "3b"]]);
    const ids: string[] = [];
    for await (const event of client.items(client.listRepoEvents, repo)) ids.push(event.id);
    expect(ids).toEqual(["1a", "1b", "2a", "2b", "3a", "3b"]);
    expect(api.requests.every((q) => q.headers.authorization === "token t")).toBe(true);
  });

  it("refuses to follow a next link to another origin", async () => {
    const api = await serve((_, res) => json(res, 200, [], { link: '<http://evil.example/events?page=2>; rel="next"' }));
    const client = new ServiceClient({ baseUrl: api.url, auth: { type: "token", token: "t" } });
    const pages = client.paginate("listPublicEvents", {});
    expect((await pages.next()).done).toBe(false);
    await expect(pages.next()).rejects.toBeInstanceOf(RequestError);
  });
});

describe("poll", () => {
  it("obeys X-Poll-Interval, treats 304 as nothing new and hands over only new events", async () => {
    const clock = fakeClock();
    const script = [
      { status: 200, ids: ["2", "1"], etag: '"a"', interval: 2 },
      { status: 304, etag: '"a"', interval: 5 },
      { status: 200, ids: ["3", "2", "1"], etag: '"b"', interval: 5 },
      { status: 304, etag: '"b"', interval: 1 },
    ];
    let n = 0;
    const controller = new AbortController();
    const api = await serve((_, res) => {
      const step = script[Math.min(n++, script.length - 1)]!;
      if (n > script.length) controller.abort();
      const headers = { etag: step.etag, "x-poll-interval": String(step.interval), ...limits };
      if (step.status === 304) return res.writeHead(304, headers).end();
      json(res, 200, step.ids!.map(activityEvent), headers);
    }, clock);
    const client = new ServiceClient({ baseUrl: api.url, clock });
    const batches: string[][] = [];
    await client.poll("listRepoEvents", repo, (events) => void batches.push(events.map((e) => e.id)), { signal: controller.signal, minIntervalMs: 1500 });

    expect(batches).toEqual([["2", "1"], ["3"]]);
    // Each wait is the interval the previous answer asked for, and never below minIntervalMs.
    expect(clock.sleeps.slice(0, 4)).toEqual([2000, 5000, 5000, 1500]);
    const gaps = api.requests.slice(1).map((q, i) => q.at - api.requests[i]!.at);
    expect(gaps.slice(0, 3)).toEqual([2000, 5000, 5000]);
    // The poller's own ETag goes back on every request after the first.
    expect(api.requests.map((q) => q.headers["if-none-match"]).slice(0, 4)).toEqual([undefined, '"a"', '"a"', '"b"']);
  });

  it("rejects on a failed poll unless onError is given", async () => {
    const api = await serve((_, res) => json(res, 404, { message: "Not Found" }));
    const client = new ServiceClient({ baseUrl: api.url, clock: fakeClock() });
    await expect(client.poll("listRepoEvents", repo, () => {})).rejects.toMatchObject({ status: 404, declared: true });
  });
});

describe("rate limit", () => {
  it("waits for the reset on a 403 with remaining 0 and retries once", async () => {
    const clock = fakeClock(Date.UTC(2025, 0, 1, 0, 0, 0));
    const reset = Math.floor(clock.now() / 1000) + 30;
    let calls = 0;
    const api = await serve((_, res) => {
      if (calls++ === 0) return json(res, 403, { message: "API rate limit exceeded" }, { "x-ratelimit-limit": 60, "x-ratelimit-remaining": 0, "x-ratelimit-reset": reset });
      json(res, 200, [], { "x-ratelimit-limit": 60, "x-ratelimit-remaining": 59, "x-ratelimit-reset": reset + 3600 });
    }, clock);
    const client = new ServiceClient({ baseUrl: api.url, clock });
    const r = await client.listPublicEvents();
    expect(r.status).toBe(200);
    expect(clock.sleeps).toEqual([31_000]);
    expect(api.requests[1]!.at - api.requests[0]!.at).toBe(31_000);
    expect(client.rateLimit?.remaining).toBe(59);
  });

  it.each([
    ["a reset beyond maxWaitMs", { maxWaitMs: 10_000 }, 2, 1],
    ["retry disabled", { retry: false }, 1, 1],
    ["a second 403", {}, 1, 2],
  ])("returns the 403 with %s", async (_, rateLimit, resetInSeconds, expectedRequests) => {
    const clock = fakeClock();
    const reset = Math.floor(clock.now() / 1000) + (resetInSeconds === 2 ? 600 : 5);
    const api = await serve((_, res) => json(res, 403, { message: "API rate limit exceeded" }, { "x-ratelimit-limit": 60, "x-ratelimit-remaining": 0, "x-ratelimit-reset": reset }));
    const r = await new ServiceClient({ baseUrl: api.url, clock, rateLimit }).listPublicEvents();
    expect(r.status).toBe(403);
    expect(api.requests).toHaveLength(expectedRequests);
  });

  it("does not wait on a 403 that is not the rate limit", async () => {
    const clock = fakeClock();
    const api = await serve((_, res) => json(res, 403, { message: "Forbidden" }, { "x-ratelimit-limit": 60, "x-ratelimit-remaining": 12, "x-ratelimit-reset": 1 }));
    expect((await new ServiceClient({ baseUrl: api.url, clock }).listPublicEvents()).status).toBe(403);
    expect(clock.sleeps).toEqual([]);
  });
});

describe("two-factor authentication", () => {
  const basic = `Basic ${Buffer.from("octocat:pw").toString("base64")}`;
  const twoFactor = (method: "app" | "sms") => async () => {
    const api = await serve((req, res) => {
      if (req.headers.authorization !== basic) return json(res, 401, { message: "Bad credentials" });
      if (req.headers["x-service-otp"] !== "123456") return json(res, 401, { message: "Must specify two-factor authentication OTP code." }, { "x-service-otp": `required; ${method}` });
      json(res, 201, { id: 1, token: "new-token" }, limits);
    });
    return api;
  };

  it.each(["app", "sms"] as const)("asks otp() and repeats the request with X-Service-OTP (%s)", async (method) => {
    const api = await twoFactor(method)();
    const asked: unknown[] = [];
    const client = new ServiceClient({ baseUrl: api.url, auth: { type: "basic", username: "octocat", password: "pw", otp: (r) => (asked.push(r), "123456") } });
    const r = await client.createAuthorization({ body: { scopes: ["repo"], note: "ci" } });
    expect(r.status).toBe(201);
    expect(asked).toEqual([{ method, operationId: "createAuthorization" }]);
    expect(api.requests.map((q) => q.headers["x-service-otp"])).toEqual([undefined, "123456"]);
    expect(api.requests[1]!.body).toBe(api.requests[0]!.body);
  });

  it("returns the 401 when there is no otp callback or the code is wrong", async () => {
    const api = await twoFactor("app")();
    const noCallback = await new ServiceClient({ baseUrl: api.url, auth: { type: "basic", username: "octocat", password: "pw" } }).createAuthorization({ body: { note: "x" } });
    expect(noCallback.status).toBe(401);
    const wrong = await new ServiceClient({ baseUrl: api.url, auth: { type: "basic", username: "octocat", password: "pw", otp: () => "000000" } }).createAuthorization({ body: { note: "x" } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers["X-Service-OTP"]).toBe("required; app");
    expect(api.requests).toHaveLength(3);
  });
});
