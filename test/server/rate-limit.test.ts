/**
 * The helpers `service-contract/runtime/server` gives a server built on the stubs, over real HTTP:
 * `rateLimit` (X-RateLimit-* on every answer, a fixed hour window, 403 in the error shape past the
 * limit, 304s not counted, writes counted and refused before their handler) and the error bodies
 * `errorBody` / `validationFailed`, which response validation accepts as the contract's.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { registerRoutes, type Handlers } from "../../generated/server/index.ts";
import { RATE_LIMIT_HEADERS, errorBody, rateLimit, validationFailed, type RateLimitHeader, type ResponseValidationFailure } from "../../runtime/server/index.ts";
import { example } from "./harness.ts";

const ETAG = '"feed-1"';
const HOOK = { name: "web", config: { url: "https://receiver.example/hook" } };
const START = Date.UTC(2026, 0, 1, 12, 0, 0);

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serve(limit: number) {
  let clock = START;
  const reported: ResponseValidationFailure[] = [];
  let writes = 0;
  app = Fastify({ logger: false });
  const counters = rateLimit(app, { limit, now: () => clock, documentationUrl: "https://docs.example/rate" });
  const handlers: Partial<Handlers<RateLimitHeader>> = {
    listRepoEvents: ({ headers }) =>
      headers["If-None-Match"] === ETAG
        ? { status: 304, headers: { ETag: ETAG, "X-Poll-Interval": 60 } }
        : { status: 200, headers: { ETag: ETAG, "X-Poll-Interval": 60 }, body: [example("activity-event/valid-push")] as never[] },
    getRepoHook: ({ params }) => ({ status: 404, headers: {}, body: errorBody(`No hook ${params.hook_id}`) }),
    createRepoHook: () => {
      writes++;
      return { status: 422, headers: {}, body: validationFailed([{ resource: "Hook", field: "config.url", code: "custom", message: "config.url is taken" }]) };
    },
  };
  // Its writes are sent without credentials: what is counted here is the limiter's, not a refusal of anonymous callers.
  registerRoutes(app, handlers, { host: "api", suppliedHeaders: RATE_LIMIT_HEADERS, validateResponses: true, refuseAnonymous: false, onResponseValidationError: (f) => reported.push(f) });
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    url,
    reported,
    counters,
    writes: () => writes,
    advance: (ms: number) => (clock += ms),
    get: (path: string, headers: Record<string, string> = {}) => fetch(`${url}${path}`, { headers }),
    post: (path: string, body: unknown) => fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  };
}

const rate = (res: Response) => [res.headers.get("x-ratelimit-limit"), res.headers.get("x-ratelimit-remaining"), res.headers.get("x-ratelimit-reset")];
const RESET = String(Math.ceil((START + 3600_000) / 1000));

describe("rateLimit", () => {
  it("sets the three headers on every answer, counting down within the hour window", async () => {
    const s = await serve(3);
    const seen: (string | null)[][] = [];
    for (const path of ["/repos/o/r/events", "/repos/o/r/hooks/7", "/no/such/path"]) {
      const res = await s.get(path);
      await res.arrayBuffer();
      seen.push([String(res.status), ...rate(res)]);
    }
    expect(seen).toEqual([
      ["200", "3", "2", RESET],
      ["404", "3", "1", RESET],
      ["404", "3", "0", RESET],
    ]);
    expect(s.reported).toEqual([]);
  });

  it("leaves 304s uncounted, also once the limit is spent", async () => {
    const s = await serve(2);
    for (let i = 0; i < 3; i++) {
      const res = await s.get("/repos/o/r/events", { "If-None-Match": ETAG });
      expect([res.status, ...rate(res)]).toEqual([304, "2", "2", RESET]);
    }
    await (await s.get("/repos/o/r/events")).arrayBuffer();
    await (await s.get("/repos/o/r/events")).arrayBuffer();
    const notModified = await s.get("/repos/o/r/events", { "If-None-Match": ETAG });
    expect([notModified.status, ...rate(notModified)]).toEqual([304, "2", "0", RESET]);
    // A conditional read that does not end in a 304 is refused after all, without the feed's ETag.
    const changed = await s.get("/repos/o/r/events", { "If-None-Match": '"stale"' });
    expect(changed.status).toBe(403);
    expect(changed.headers.get("etag")).toBeNull();
    expect(await changed.json()).toEqual({ message: "API rate limit exceeded for 127.0.0.1.", documentation_url: "https://docs.example/rate" });
  });

  it("refuses past the limit with 403 in the error shape, until the window ends", async () => {
    const s = await serve(1);
    await (await s.get("/repos/o/r/events")).arrayBuffer();
    const refused = await s.get("/repos/o/r/events");
    expect([refused.status, ...rate(refused)]).toEqual([403, "1", "0", RESET]);
    expect(await refused.json()).toEqual({ message: "API rate limit exceeded for 127.0.0.1.", documentation_url: "https://docs.example/rate" });
    s.advance(3600_000);
    const next = await s.get("/repos/o/r/events");
    await next.arrayBuffer();
    expect([next.status, ...rate(next)]).toEqual([200, "1", "0", String(Math.ceil((START + 2 * 3600_000) / 1000))]);
  });

  it("counts a write as it is admitted and refuses it before its handler when the limit is spent", async () => {
    const s = await serve(1);
    const first = await s.post("/repos/o/r/hooks", HOOK);
    expect([first.status, ...rate(first)]).toEqual([422, "1", "0", RESET]);
    const second = await s.post("/repos/o/r/hooks", HOOK);
    expect(second.status).toBe(403);
    await second.arrayBuffer();
    expect(s.writes()).toBe(1);
    expect(s.counters.peek("127.0.0.1", 1).used).toBe(1);
  });
});

describe("errorBody and validationFailed", () => {
  it("write the contract's error bodies, which response validation accepts", async () => {
    const s = await serve(10);
    const missing = await s.get("/repos/o/r/hooks/7");
    expect([missing.status, await missing.json()]).toEqual([404, { message: "No hook 7", documentation_url: "https://developer.service.example/v3" }]);
    const invalid = await s.post("/repos/o/r/hooks", HOOK);
    expect([invalid.status, await invalid.json()]).toEqual([
      422,
      { message: "Validation Failed", errors: [{ resource: "Hook", field: "config.url", code: "custom", message: "config.url is taken" }], documentation_url: "https://developer.service.example/v3" },
    ]);
    expect(s.reported).toEqual([]);
  });
});
