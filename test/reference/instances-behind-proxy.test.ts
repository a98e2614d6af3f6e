/**
 * Two reference instances on one PostgreSQL (TEST_DATABASE_URL) behind one address, as an
 * operator runs them: a round-robin proxy in front of the API hosts and another in front of the
 * web hosts, both instances started with those proxies' URLs as their public URLs. Through the
 * proxy, every feed and both issue-event lists answer alike whichever instance answers — the same
 * body, `ETag` and `Link` (naming the proxy) — and an ETag one instance gave gets a 304 from the
 * other; a created hook's `Location` and the deliveries name the public URLs only; one caller's
 * rate limit counts down by one per counted request on either instance;
 * pushes simulated on both instances at the same moment never share a head SHA; and the whole
 * conformance suite passes through the proxies, and Chromium gets through the OAuth pages.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { referenceProfile, REFERENCE_SERVER_OPTIONS } from "../../conformance/reference-profile.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import type { Profile } from "../../conformance/core/profile.ts";
import { runAction, type DomainContext } from "../../reference/domain/index.ts";
import type { ServerOptions } from "../../reference/server.ts";
import { describePostgres, useTwoInstances } from "./postgres-db.ts";
import { auth, tokenFor } from "./feeds-fixtures.ts";
import { roundRobinProxy, SERVED_BY } from "./round-robin-proxy.ts";
import { startReceiver } from "./webhook-receiver.ts";
import { AUTHORIZE_CASES } from "../conformance/reference-cases.ts";
import { CHROMIUM_PATH, chromiumSkip } from "../browser/chromium.ts";
import { ceiling } from "../ceilings.ts";

const ADMIN_TOKEN = randomBytes(20).toString("hex");
// (Under CI a missing TEST_DATABASE_URL is an error: postgres-db.ts throws.)
describePostgres("two instances behind a round-robin proxy, on PostgreSQL", () => {
  const api = roundRobinProxy();
  const web = roundRobinProxy();
  // Filled in once the proxies listen: useTwoInstances reads it when it starts the instances.
  // The proxy connects from loopback: its X-Forwarded-For names the client.
  const both: ServerOptions = { ...REFERENCE_SERVER_OPTIONS, adminToken: ADMIN_TOKEN, trustProxy: ["loopback"] };
  beforeAll(async () => {
    both.publicUrls = { api: await api.listen(), auth: await web.listen() };
  });
  const pair = useTwoInstances("sc_proxy", { both });
  let hubot: string;
  /** The reference's conformance profile (tokens made once: their note is unique per user). */
  let profile: Profile;

  beforeAll(async () => {
    api.upstreams = [pair.a.listening.api, pair.b.listening.api];
    web.upstreams = [pair.a.listening.auth, pair.b.listening.auth];
    // More than a page of events and of issue events, so the lists have `Link`s to compare.
    const simulate = async (event: string, body: Record<string, unknown>) => {
      const res = await fetch(`${api.url}/_admin/simulate/${event}`, { method: "POST", headers: { "content-type": "application/json", "x-admin-token": ADMIN_TOKEN }, body: JSON.stringify(body) });
      expect(res.status, await res.clone().text()).toBe(201);
      await res.arrayBuffer();
    };
    await simulate("push", { repo: "octocat/hello-world", actor: "octocat", count: 35 });
    await simulate("push", { repo: "octo-org/hello-world", actor: "hubot", count: 3 });
    await simulate("subscribed", { repo: "octocat/hello-world", actor: "hubot", count: 31, params: { number: "1" } });
    hubot = await tokenFor(pair.a.db, "hubot", ["repo"]);
    profile = await referenceProfile(pair.a.db, ADMIN_TOKEN);
  }, ceiling(60_000));

  afterAll(async () => {
    await Promise.allSettled([api.close(), web.close()]);
  });

  it("starts with the proxies' URLs as its public URLs and listens elsewhere", () => {
    for (const server of [pair.a, pair.b]) {
      expect(server.urls).toEqual({ api: api.url, auth: web.url });
      expect(server.listening.api).not.toBe(api.url);
    }
  });

  const FEEDS = [
    "/events",
    "/repos/octocat/hello-world/events",
    "/networks/octocat/hello-world/events",
    "/orgs/octo-org/events",
    "/users/hubot/received_events",
    "/users/hubot/received_events/public",
    "/users/octocat/events",
    "/users/octocat/events/public",
    "/users/hubot/events/orgs/octo-org",
  ];

  /** GET through the proxy; the answer with the index of the instance that gave it. */
  async function get(path: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${api.url}${path}`, { headers: { ...auth(hubot), ...headers } });
    const body = await res.text();
    return { status: res.status, body, etag: res.headers.get("etag"), link: res.headers.get("link"), by: res.headers.get(SERVED_BY), remaining: res.headers.get("x-ratelimit-remaining") };
  }

  it.each(FEEDS)("%s: the same page, ETag and Link from both instances, and a 304 from the other one", async (path) => {
    const first = await get(path);
    const second = await get(path);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.by).not.toBe(first.by);
    expect(JSON.parse(first.body)).not.toEqual([]);
    expect(second.body).toBe(first.body);
    expect(second.etag).toBe(first.etag);
    expect(second.link).toBe(first.link);
    // The tag each instance gave, to the other instance (the proxy alternates).
    for (const { etag, by } of [second, first]) {
      const again = await get(path, { "if-none-match": etag! });
      expect(again.by).not.toBe(by);
      expect(again.status).toBe(304);
      expect(again.etag).toBe(etag);
    }
  });

  it("writes the proxy's URL into every Link, and pages by it on either instance", async () => {
    const first = await get("/repos/octocat/hello-world/events");
    expect(first.link).toContain(`<${api.url}/repos/octocat/hello-world/events?page=2>; rel="next"`);
    const next = first.link!.match(/<([^>]+)>; rel="next"/)![1]!;
    const [a, b] = [await fetch(next, { headers: auth(hubot) }), await fetch(next, { headers: auth(hubot) })];
    expect(a.headers.get(SERVED_BY)).not.toBe(b.headers.get(SERVED_BY));
    expect(await b.text()).toBe(await a.text());
    expect(b.headers.get("link")).toBe(a.headers.get("link"));
    const events = JSON.parse(first.body) as { repo: { url: string }; actor: { url: string } }[];
    expect(events[0]!.repo.url).toBe(`${api.url}/repos/octocat/hello-world`);
    expect(events[0]!.actor.url).toBe(`${api.url}/users/octocat`);
  });

  it.each(["/repos/octocat/hello-world/issues/1/events", "/repos/octocat/hello-world/issues/events"])(
    "%s: the same list and Link from both instances",
    async (path) => {
      for (const page of ["", "?page=2"]) {
        const first = await get(path + page);
        const second = await get(path + page);
        expect([first.status, second.status]).toEqual([200, 200]);
        expect(second.by).not.toBe(first.by);
        expect(second.body).toBe(first.body);
        expect(first.link).toContain(`<${api.url}${path}?page=`);
        expect(second.link).toBe(first.link);
        expect((JSON.parse(first.body) as { url: string }[])[0]!.url.startsWith(`${api.url}/repos/octocat/hello-world/issues/events/`)).toBe(true);
      }
    },
  );

  it("counts one caller's requests once each, whichever instance answers; a 304 from either counts nothing", async () => {
    const monalisa = await tokenFor(pair.a.db, "monalisa", []);
    const poll = async (headers: Record<string, string> = {}) => {
      const res = await fetch(`${api.url}/events`, { headers: { ...auth(monalisa), ...headers } });
      await res.arrayBuffer();
      return { status: res.status, by: res.headers.get(SERVED_BY), remaining: Number(res.headers.get("x-ratelimit-remaining")), etag: res.headers.get("etag")! };
    };
    const answers = [];
    for (let n = 0; n < 6; n++) answers.push(await poll());
    expect(new Set(answers.map((a) => a.by)).size).toBe(2);
    expect(answers.map((a) => a.remaining)).toEqual([4999, 4998, 4997, 4996, 4995, 4994]);
    const unchanged = [await poll({ "if-none-match": answers[0]!.etag }), await poll({ "if-none-match": answers[0]!.etag })];
    expect(unchanged.map((a) => [a.status, a.remaining])).toEqual([[304, 4994], [304, 4994]]);
    expect(unchanged[0]!.by).not.toBe(unchanged[1]!.by);
    expect((await poll()).remaining).toBe(4993);
  });

  it("counts anonymous callers by the address the trusted proxy forwards, on either instance", async () => {
    const poll = async (client: string) => {
      const res = await fetch(`${api.url}/orgs/octo-org/events`, { headers: { "x-forwarded-for": client } });
      await res.arrayBuffer();
      return { by: res.headers.get(SERVED_BY), remaining: Number(res.headers.get("x-ratelimit-remaining")) };
    };
    // The proxy alternates: each client is answered once by each instance.
    const answers = [await poll("203.0.113.1"), await poll("203.0.113.2"), await poll("203.0.113.2"), await poll("203.0.113.1")];
    expect(answers.map((a) => a.remaining)).toEqual([59, 59, 58, 58]);
    expect(answers[3]!.by).not.toBe(answers[0]!.by);
    expect(answers[2]!.by).not.toBe(answers[1]!.by);
  });

  it("writes the public URLs into a created hook's Location and into the deliveries of either instance", async () => {
    const receiver = await startReceiver();
    try {
      const octocat = await tokenFor(pair.a.db, "octocat", ["admin:repo_hook"]);
      const created = await fetch(`${api.url}/repos/octocat/hello-world/hooks`, {
        method: "POST",
        headers: { ...auth(octocat), "content-type": "application/json" },
        body: JSON.stringify({ name: "web", config: { url: `${receiver.url}/proxy-test` }, events: ["push"] }),
      });
      expect(created.status).toBe(201);
      const hook = (await created.json()) as { id: number; url: string };
      expect(created.headers.get("location")).toBe(`${api.url}/repos/octocat/hello-world/hooks/${hook.id}`);
      expect(hook.url).toBe(created.headers.get("location"));
      const push = await fetch(`${api.url}/_admin/simulate/push`, { method: "POST", headers: { "content-type": "application/json", "x-admin-token": ADMIN_TOKEN }, body: "{}" });
      expect(push.status).toBe(201);
      await push.arrayBuffer();
      await receiver.until((got) => got.some((r) => r.event === "ping") && got.some((r) => r.event === "push"), ceiling(20_000));
      const payload = (event: string) => JSON.parse(receiver.received.find((r) => r.event === event)!.body.toString("utf8")) as { hook: { url: string }; repository: { url: string; hooks_url: string }; sender: { url: string } };
      expect(payload("ping").hook.url).toBe(hook.url);
      // The push webhook's repository.url is the web address, as the service sends it.
      expect(payload("push").repository.url).toBe(`${web.url}/octocat/hello-world`);
      expect(payload("push").repository.hooks_url).toBe(`${api.url}/repos/octocat/hello-world/hooks`);
      expect(payload("push").sender.url).toBe(`${api.url}/users/octocat`);
      // Nothing anywhere names where an instance listens.
      for (const r of receiver.received) for (const own of [pair.a.listening, pair.b.listening]) expect(r.body.toString("utf8")).not.toContain(`${own.api}/`);
    } finally {
      await receiver.close();
    }
  }, ceiling(30_000));

  it("never gives two pushes the same head SHA, through both instances at the same moment", async () => {
    // Through the admin endpoint of each instance directly, all at once.
    const push = (base: string) =>
      fetch(`${base}/_admin/simulate/push`, { method: "POST", headers: { "content-type": "application/json", "x-admin-token": ADMIN_TOKEN }, body: JSON.stringify({ repo: "defunkt/hello-world", actor: "defunkt" }) }).then(
        async (res) => {
          expect(res.status).toBe(201);
          return ((await res.json()) as { events: { payload: { head: string; before: string } }[] }).events[0]!.payload;
        },
      );
    const viaHttp = await Promise.all(Array.from({ length: 8 }, (_, n) => push(n % 2 === 0 ? pair.a.listening.api : pair.b.listening.api)));
    // And in the same millisecond: the domain action on each instance's database with one clock.
    const at = new Date();
    const on = (db: typeof pair.a.db): DomainContext => ({ db, urls: pair.a.urls, now: () => at });
    const sameMoment = await Promise.all(
      Array.from({ length: 8 }, (_, n) => runAction(on(n % 2 === 0 ? pair.a.db : pair.b.db), "push", { repo: "defunkt/hello-world", actor: "defunkt", params: {} })),
    );
    const heads = [...viaHttp.map((p) => p.head), ...sameMoment.map((r) => (r.events[0] as { payload: { head: string } }).payload.head)];
    expect(new Set(heads).size).toBe(heads.length);
    // Each push follows the one before it on the branch: one chain, no lost push.
    const befores = new Set([...viaHttp.map((p) => p.before), ...sameMoment.map((r) => (r.events[0] as { payload: { before: string } }).payload.before)]);
    expect(befores.size).toBe(heads.length);
  }, ceiling(30_000));

  it("passes the conformance suite through the proxies: 0 failures", async () => {
    // Two servers, a PostgreSQL and the proxies share two cores with the rest of the suite: a
    // retry waits longer here than on one server alone, so deliveries get the suite's default bound.
    const summary = await runSuite({ baseUrl: api.url, authUrl: web.url, profile: { ...profile, deliveryTimeoutMs: ceiling(10_000) }, timeoutMs: ceiling(30_000), requestTimeoutMs: ceiling(10_000) });
    const failed = summary.results.filter((r) => r.status === "failed").map((r) => `${r.id}: ${r.failure?.message}`);
    expect(failed).toEqual([]);
    expect(summary.counts.passed).toBeGreaterThan(100);
    // The one case `conformance --reference` skips too: the demo callback's host is an IP address.
    expect(summary.results.filter((r) => r.status === "skipped").map((r) => r.id)).toEqual(["OAUTH-REDIRECT-010"]);
  }, ceiling(600_000));

  // A browser we did not write: its cookies, Origin and redirects, with each page and form post
  // of the sign-in and consent answered by whichever instance the proxy picks.
  it("takes Chromium through sign-in and consent across both instances", async (ctx) => {
    const skip = await chromiumSkip();
    if (skip) return ctx.skip(skip);
    const browser: Profile = { ...profile, authorize: { driver: "browser", executablePath: CHROMIUM_PATH } };
    const summary = await runSuite({ baseUrl: api.url, authUrl: web.url, profile: browser, cases: AUTHORIZE_CASES, timeoutMs: ceiling(30_000), requestTimeoutMs: ceiling(10_000) });
    expect(summary.results.map((r) => [r.id, r.status, r.failure?.message])).toEqual([
      ["REF-AUTHORIZE-001", "passed", undefined],
      ["REF-AUTHORIZE-002", "passed", undefined],
    ]);
  }, ceiling(90_000));
});
