/**
 * Issue 23, the points about credentials, each over HTTP against a real server (PGlite):
 * 1. a token narrowed with `PATCH /authorizations/:id` is judged on its new scopes at its next
 *    feed request — the polling caches (feed shortcut, poll lane) do not answer for the old ones;
 * 2. a request refused for its rate limit changes nothing, `If-None-Match` or not, and concurrent
 *    writes cannot pass the limit together;
 * 3. a two-factor code is good once, and no older code after it (RFC 6238 §5.2), on both hosts;
 * 4. deleting an application's authorization through the API ends its pending codes;
 * 7. one count of failed logins per account across Basic and the web sign-in;
 * 8. token answers on the API host carry `Cache-Control: no-store` (RFC 6749 §5.1);
 * 9. the review page does not echo an `access_token` from its URL into its HTML.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { currentTotp } from "../../reference/auth/totp.ts";
import { MAX_FAILED_LOGINS } from "../../reference/auth/login-failures.ts";
import { parseFailedLogins } from "../../cli/commands/serve.ts";
import { call } from "./authorizations-client.ts";
import { insertEvents } from "./feeds-fixtures.ts";
import { basic, DEMO, useServer } from "./harness.ts";
import { APP_CREDENTIALS, Browser, codeFor, exchange, formFields, PATHS, signedInBrowser, signIn, tokenFor } from "./oauth-web.ts";

const octocat = basic(DEMO.octocat.login, DEMO.octocat.password);

// Two servers for six of the points, not one each (a server start is most of this file's CPU).
// Points that share a server touch different state: 1, 4, 8 and 9 make tokens and grants and
// narrow or revoke only their own; 2 spends octocat's whole rate limit and 7 locks hubot and
// defunkt out, so those two share the other server, where nothing after them needs those users.
// Point 3 runs its own server on a clock of its own.
const tokens = useServer();
const limits = useServer();

describe("1. a narrowed token no longer reads private feeds", () => {
  const t = tokens;
  let token = "";
  let id = 0;
  let privateId = "";
  beforeAll(async () => {
    privateId = String((await insertEvents(t.server.db, { actor: "octocat", repo: "octocat/secret-plans" }, t.api))[0]);
    await insertEvents(t.server.db, { actor: "octocat", repo: "octo-org/internal-tools" }, t.api);
    const created = await call(t.api, "POST", "/authorizations", { auth: octocat, body: { scopes: ["repo"], note: "narrowed later" } });
    expect(created.status).toBe(201);
    token = created.body.token;
    id = created.body.id;
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.api}${path}`, { headers: { authorization: `token ${token}`, ...headers } });
  const ids = async (res: Response) => ((await res.json()) as { id: string }[]).map((e) => e.id);
  const FEEDS = ["/repos/octocat/secret-plans/events", "/users/octocat/events", "/users/octocat/events/orgs/octo-org"];

  it("is answered on its new scopes at once, with and without If-None-Match", async () => {
    const etags = new Map<string, string>();
    for (const path of FEEDS) {
      // Twice each, with and without the ETag, so every polling cache has remembered the answer.
      const first = await get(path);
      expect(first.status, path).toBe(200);
      if (!path.includes("/orgs/")) expect(await ids(first.clone()), path).toContain(privateId);
      etags.set(path, first.headers.get("etag")!);
      expect((await get(path, { "if-none-match": etags.get(path)! })).status, path).toBe(304);
      expect((await get(path, { "if-none-match": etags.get(path)! })).status, path).toBe(304);
    }

    const narrowed = await call(t.api, "PATCH", `/authorizations/${id}`, { auth: octocat, body: { scopes: ["gist"] } });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scopes).toEqual(["gist"]);

    for (const headers of [{}, { "if-none-match": etags.get(FEEDS[0]!)! }] as Record<string, string>[]) {
      expect((await get(FEEDS[0]!, headers)).status, "private repository feed").toBe(404);
    }
    const own = await get(FEEDS[1]!);
    expect(own.status).toBe(200);
    expect(await ids(own), "the user's feed without repo").not.toContain(privateId);
    expect((await get(FEEDS[1]!, { "if-none-match": etags.get(FEEDS[1]!)! })).status, "a changed feed is not a 304").toBe(200);
    for (const headers of [{}, { "if-none-match": etags.get(FEEDS[2]!)! }] as Record<string, string>[]) {
      const res = await get(FEEDS[2]!, headers);
      expect(res.status, "the organization dashboard needs repo").toBe(403);
      expect(res.headers.get("x-oauth-scopes")).toBe("gist");
    }
  });
});

describe("2. a request refused for its rate limit changes nothing", () => {
  const t = limits;
  let token = "";
  const hookCount = async () => (await t.server.db.query<{ n: number }>("select count(*)::int as n from hooks where config->>'url' like 'http://127.0.0.1:9/limit-%'"))[0]!.n;
  const createHook = (n: number, headers: Record<string, string> = {}) =>
    call(t.api, "POST", "/repos/octocat/hello-world/hooks", { auth: `token ${token}`, headers, body: { name: "web", config: { url: `http://127.0.0.1:9/limit-${n}` } } });

  beforeAll(async () => {
    const created = await call(t.api, "POST", "/authorizations", { auth: octocat, body: { scopes: ["admin:repo_hook"], note: "rate limit" } });
    token = created.body.token;
    // Spend all but three of octocat's requests (the Basic POST above counted one), as 4,996
    // requests would, straight on the server's counters; the check below takes one more.
    const octocatId = (await t.server.db.query<{ id: number }>("select id::int as id from accounts where login = 'octocat'"))[0]!.id;
    for (let left = Number(created.headers.get("x-ratelimit-remaining")) - 3; left > 0; left--) await t.server.limiter.consume(`user:${octocatId}`, 5000);
    const check = await fetch(`${t.api}/hooks`, { headers: { authorization: `token ${token}` } });
    await check.arrayBuffer();
    expect(check.headers.get("x-ratelimit-remaining")).toBe("2");
  });

  it("lets only as many concurrent writes through as requests remain, and each one refused left nothing", async () => {
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => createHook(i)));
    const statuses = replies.map((r) => r.status).sort();
    const created = statuses.filter((s) => s === 201).length;
    expect(statuses.every((s) => s === 201 || s === 403), String(statuses)).toBe(true);
    expect(created).toBe(2);
    expect(await hookCount(), "hooks in the database = 201 answers").toBe(created);
    for (const r of replies.filter((x) => x.status === 403)) expect(r.body.message).toMatch(/rate limit exceeded/);
  });

  it("refuses a write with If-None-Match once the limit is spent, and creates nothing", async () => {
    const before = await hookCount();
    const res = await createHook(100, { "if-none-match": '"anything"' });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/rate limit exceeded/);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(await hookCount()).toBe(before);
  });

  it("still answers a conditional read that ends in a 304", async () => {
    const first = await fetch(`${t.api}/events`);
    const etag = first.headers.get("etag");
    await first.arrayBuffer();
    expect(etag).toBeTruthy();
    const res = await fetch(`${t.api}/events`, { headers: { authorization: `token ${token}`, "if-none-match": etag! } });
    expect(res.status).toBe(304);
  });
});

describe("3. a two-factor code is good once", () => {
  let clock = Date.now();
  const t = useServer({ now: () => new Date(clock) });
  const monalisa = basic(DEMO.monalisa.login, DEMO.monalisa.password);
  const code = (offsetSteps = 0) => currentTotp(DEMO.monalisa.totpSecret, clock + offsetSteps * 30_000);
  const create = (otp: string, note: string) => call(t.api, "POST", "/authorizations", { auth: monalisa, headers: { "X-Service-OTP": otp }, body: { scopes: ["gist"], note } });

  it("refuses the same code again, and the previous step's code after it; takes the next step's", async () => {
    clock = Math.floor(Date.now() / 30_000) * 30_000 + 10_000; // inside a step, whatever the real clock
    const now = code();
    expect((await create(now, "first")).status).toBe(201);
    for (const [otp, note] of [[now, "again"], [now, "and again"], [code(-1), "older"]] as const) {
      const res = await create(otp, note);
      expect(res.status, note).toBe(401);
      expect(res.headers.get("x-service-otp"), note).toBe("required; app");
    }
    expect((await create(code(1), "next step")).status).toBe(201);
    // The one after: that step is now spent too, so the clock has to move for a new code.
    expect((await create(code(1), "next step again")).status).toBe(401);
    clock += 60_000;
    expect((await create(code(), "two steps later")).status).toBe(201);
    const listed = (await call(t.api, "GET", "/authorizations", { auth: monalisa, headers: { "X-Service-OTP": code(1) } })).body as { note: string }[];
    expect(listed.map((a) => a.note).sort()).toEqual(["first", "next step", "two steps later"]);
  });

  it("is spent for both hosts: a code used on the web sign-in is refused by Basic", async () => {
    clock += 90_000;
    const otp = code();
    const browser = new Browser(t.auth);
    const signedIn = await signIn(browser, DEMO.monalisa.login, DEMO.monalisa.password, undefined, { otp });
    expect(signedIn.status).toBe(303);
    expect((await create(otp, "replayed from the web")).status).toBe(401);
    const again = await signIn(new Browser(t.auth), DEMO.monalisa.login, DEMO.monalisa.password, undefined, { otp });
    expect(again.status).toBe(401);
  });
});

describe("4. deleting an application's authorization ends its pending codes", () => {
  const t = tokens;

  it("a code issued before DELETE /authorizations/:id is not exchanged after it", async () => {
    const browser = await signedInBrowser(t, "octocat");
    const { token } = await tokenFor(t, browser, "repo");
    // The grant exists: the authorize step completes at once with a new code.
    const { code } = await codeFor(browser, { client_id: DEMO.app.clientId, scope: "repo" });
    const list = await call(t.api, "GET", "/authorizations", { auth: octocat });
    const grant = (list.body as { id: number; app: { client_id: string } }[]).find((a) => a.app.client_id === DEMO.app.clientId);
    expect(grant).toBeDefined();
    expect((await call(t.api, "DELETE", `/authorizations/${grant!.id}`, { auth: octocat })).status).toBe(204);
    expect((await fetch(`${t.api}/events`, { headers: { authorization: `token ${token}` } })).status).toBe(401);

    const res = await exchange(t, { ...APP_CREDENTIALS, code }, "application/json");
    const body = (await res.json()) as { access_token?: string; error?: string };
    expect(body.access_token).toBeUndefined();
    expect(body.error).toBe("bad_verification_code");
  });

  it("so does the application's own revocation of a token", async () => {
    const browser = await signedInBrowser(t, "hubot");
    const { token } = await tokenFor(t, browser, "gist");
    const { code } = await codeFor(browser, { client_id: DEMO.app.clientId, scope: "gist" });
    const revoked = await call(t.api, "DELETE", `/applications/${DEMO.app.clientId}/tokens/${token}`, { auth: basic(DEMO.app.clientId, DEMO.app.clientSecret) });
    expect(revoked.status).toBe(204);
    const body = (await (await exchange(t, { ...APP_CREDENTIALS, code }, "application/json")).json()) as { access_token?: string; error?: string };
    expect(body.error).toBe("bad_verification_code");
  });
});

describe("7. one count of failed logins across Basic and the web sign-in", () => {
  const t = limits;

  it("wrong Basic passwords lock the web sign-in too", async () => {
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      expect((await call(t.api, "GET", "/authorizations", { auth: basic("hubot", `wrong-${i}`) })).status).toBe(401);
    }
    expect((await call(t.api, "GET", "/authorizations", { auth: basic("hubot", DEMO.hubot.password) })).status).toBe(403);
    const res = await signIn(new Browser(t.auth), DEMO.hubot.login, DEMO.hubot.password);
    expect(res.status).toBe(429);
    expect(await res.text()).toMatch(/Too many failed sign-in attempts/);
  });

  it("wrong web passwords lock Basic too, and the two add up", async () => {
    const half = MAX_FAILED_LOGINS / 2;
    for (let i = 0; i < half; i++) expect((await signIn(new Browser(t.auth), "defunkt", `wrong-${i}`)).status).toBe(401);
    for (let i = 0; i < half; i++) expect((await call(t.api, "GET", "/authorizations", { auth: basic("defunkt", `wrong-${i}`) })).status).toBe(401);
    expect((await call(t.api, "GET", "/authorizations", { auth: basic("defunkt", DEMO.defunkt.password) })).status).toBe(403);
    expect((await signIn(new Browser(t.auth), "defunkt", DEMO.defunkt.password)).status).toBe(429);
  });
});

describe("7b. serve --failed-logins sets another number of failed logins", () => {
  // A local server the conformance suite runs against again and again (its two-factor case spends
  // up to four a run) is started with more; the count is still one for both doors.
  const t = useServer({ history: false, rateLimits: { failedLogins: 14 } });

  it("allows that many, then locks Basic and the web sign-in alike", async () => {
    for (let i = 0; i < 13; i++) expect((await call(t.api, "GET", "/authorizations", { auth: basic("hubot", `wrong-${i}`) })).status).toBe(401);
    // Thirteen failed: past the default ten, the right password still signs in.
    expect((await call(t.api, "GET", "/authorizations", { auth: basic("hubot", DEMO.hubot.password) })).status).toBe(200);
    expect((await signIn(new Browser(t.auth), "hubot", "wrong-13")).status).toBe(401);
    expect((await call(t.api, "GET", "/authorizations", { auth: basic("hubot", DEMO.hubot.password) })).status).toBe(403);
    expect((await signIn(new Browser(t.auth), DEMO.hubot.login, DEMO.hubot.password)).status).toBe(429);
  });

  it("the flag takes a whole number from 1, as its variable does", () => {
    expect(parseFailedLogins("--failed-logins", " 100 ")).toBe(100);
    expect(() => parseFailedLogins("--failed-logins", "0")).toThrow('--failed-logins takes the failed logins allowed per login and hour, a whole number from 1 (e.g. 10), got "0"');
    expect(() => parseFailedLogins("$SERVICE_CONTRACT_FAILED_LOGINS", "lots")).toThrow(/^\$SERVICE_CONTRACT_FAILED_LOGINS takes /);
  });
});

describe("8. token answers are never cached", () => {
  const t = tokens;

  it("POST /authorizations, PUT /authorizations/clients/…, and the token reset carry Cache-Control: no-store", async () => {
    const created = await call(t.api, "POST", "/authorizations", { auth: octocat, body: { scopes: ["gist"], note: "no-store" } });
    const put = await call(t.api, "PUT", `/authorizations/clients/${DEMO.app.clientId}`, { auth: octocat, body: { client_secret: DEMO.app.clientSecret, scopes: ["gist"] } });
    const reset = await call(t.api, "POST", `/applications/${DEMO.app.clientId}/tokens/${put.body.token}`, { auth: basic(DEMO.app.clientId, DEMO.app.clientSecret) });
    for (const [name, res] of [["create", created], ["get-or-create", put], ["reset", reset]] as const) {
      expect(res.status, name).toBeLessThan(300);
      expect(res.body.token, name).toMatch(/^[0-9a-f]{40}$/);
      expect(res.headers.get("cache-control"), name).toBe("no-store");
      expect(res.headers.get("pragma"), name).toBe("no-cache");
    }
  });
});

describe("9. the review page does not echo a token from its URL", () => {
  const t = tokens;

  it("signed in or not, the HTML holds no access_token given in the query", async () => {
    const secret = "0123456789abcdef0123456789abcdef01234567";
    const path = `${PATHS.review(DEMO.app.clientId)}?access_token=${secret}`;
    const signedOut = await new Browser(t.auth).get(path);
    const outHtml = await signedOut.text();
    expect(signedOut.status).toBe(200);
    expect(outHtml).not.toContain(secret);
    expect(formFields(outHtml, PATHS.signIn).return_to).toBe(PATHS.review(DEMO.app.clientId));

    const browser = await signedInBrowser(t, "octocat");
    await tokenFor(t, browser, "gist");
    const signedIn = await browser.get(path);
    expect(signedIn.status).toBe(200);
    expect(await signedIn.text()).not.toContain(secret);

    const authorize = await new Browser(t.auth).get(`${PATHS.authorize}?client_id=${DEMO.app.clientId}&access_token=${secret}`);
    expect(await authorize.text()).not.toContain(secret);
  });
});
