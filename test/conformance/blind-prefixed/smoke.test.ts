// smoke.test.ts — end-to-end smoke test over real HTTP: web flow to a token, feed ETag/304, a hook receiving a signed
// ping and push, and the anonymous rate limit.
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BlindServer, start } from "./server.ts";

let srv: BlindServer;
beforeAll(async () => { srv = await start({ retryDelaysMs: [50, 100, 200] }); });
afterAll(async () => { await srv.close(); });

/** A tiny browser: keeps cookies, never follows redirects. */
function browser() {
  const jar = new Map<string, string>();
  return async (url: string, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) { const [pair = ""] = c.split(";"); const i = pair.indexOf("="); jar.set(pair.slice(0, i), pair.slice(i + 1)); }
    return res;
  };
}
const hiddenFields = (html: string): Record<string, string> =>
  Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1] ?? "", (m[2] ?? "").replace(/&amp;/g, "&").replace(/&quot;/g, '"')]));
const form = (f: Record<string, string>): RequestInit => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(f).toString() });

describe("blind prefixed server (smoke)", () => {
  it("runs the web flow to a token (sign in, consent, code, JSON exchange)", async () => {
    const b = browser();
    const { app, users, pages } = srv.fixture;
    const q = new URLSearchParams({ client_id: app.clientId, scope: "user,gist,user:email", state: "xyz 123" });
    let res = await b(`${srv.auth}/login/oauth/authorize?${q}`);
    expect(res.status).toBe(302);
    const loginLoc = res.headers.get("location") ?? "";
    expect(loginLoc.startsWith("/login?return_to=")).toBe(true);
    res = await b(new URL(loginLoc, srv.auth).toString());
    const login = hiddenFields(await res.text());
    res = await b(`${srv.auth}/session`, form({ ...login, [pages.usernameField]: users[0]!.login, [pages.passwordField]: users[0]!.password }));
    expect(res.status).toBe(302);
    res = await b(new URL(res.headers.get("location") ?? "", srv.auth).toString());
    expect(res.status).toBe(200);
    const consent = hiddenFields(await res.text());
    const [k = "", v = ""] = pages.approve.split("=");
    res = await b(`${srv.auth}/login/oauth/authorize`, form({ ...consent, [k]: v }));
    expect(res.status).toBe(302);
    const cb = new URL(res.headers.get("location") ?? "");
    expect(`${cb.origin}${cb.pathname}`).toBe(app.callbackUrl);
    expect(cb.searchParams.get("state")).toBe("xyz 123");
    const code = cb.searchParams.get("code") ?? "";
    res = await fetch(`${srv.auth}/login/oauth/access_token`, {
      method: "POST", headers: { accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify({ client_id: app.clientId, client_secret: app.clientSecret, code }),
    });
    expect(res.status).toBe(200);
    const tok = (await res.json()) as { access_token: string; scope: string; token_type: string };
    expect(tok.token_type).toBe("bearer");
    expect(tok.scope).toBe("user,gist");
    res = await fetch(`${srv.api}/user`, { headers: { authorization: `token ${tok.access_token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-oauth-scopes")).toBe("user, gist");
    // A second run completes automatically; the code cannot be reused.
    res = await b(`${srv.auth}/login/oauth/authorize?${q}`);
    expect(new URL(res.headers.get("location") ?? "").searchParams.get("code")).toBeTruthy();
    res = await fetch(`${srv.auth}/login/oauth/access_token`, { method: "POST", headers: { accept: "application/json" }, body: new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret, code }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("bad_verification_code");
  });

  it("answers a feed 200 then 304 with If-None-Match", async () => {
    const auth = { authorization: `token ${srv.fixture.users[0]!.token}` };
    const first = await fetch(`${srv.api}/repos/${srv.fixture.repos.public}/events`, { headers: auth });
    expect(first.status).toBe(200);
    expect(((await first.json()) as unknown[]).length).toBe(30);
    expect(first.headers.get("x-poll-interval")).toBe("60");
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const remaining = first.headers.get("x-ratelimit-remaining");
    const second = await fetch(`${srv.api}/repos/${srv.fixture.repos.public}/events`, { headers: { ...auth, "if-none-match": etag } });
    expect(second.status).toBe(304);
    expect(second.headers.get("x-ratelimit-remaining")).toBe(remaining);
  });

  it("delivers a signed ping and push to a new hook", async () => {
    const got: { event: string; sig: string; body: string }[] = [];
    let notify = (): void => undefined;
    const receiver = createServer((req: IncomingMessage, res) => {
      let body = "";
      req.on("data", (c: Buffer) => { body += c.toString("utf8"); });
      req.on("end", () => { got.push({ event: String(req.headers["x-service-event"]), sig: String(req.headers["x-hub-signature"]), body }); res.end("ok"); notify(); });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const waitFor = (n: number) => new Promise<void>((r) => { notify = () => { if (got.length >= n) r(); }; notify(); });
    try {
      const auth = { authorization: `token ${srv.fixture.users[0]!.token}`, "content-type": "application/json" };
      const res = await fetch(`${srv.api}/repos/${srv.fixture.repos.public}/hooks`, {
        method: "POST", headers: auth, body: JSON.stringify({ name: "web", config: { url, secret: "s3cret" }, events: ["push"] }),
      });
      expect(res.status).toBe(201);
      const hook = (await res.json()) as { id: number; url: string };
      expect(res.headers.get("location")).toBe(hook.url);
      expect(hook.url.startsWith(`${srv.api}/repos/`)).toBe(true);
      await waitFor(1);
      const trig = await fetch(`${srv.api}/_test/trigger/push`, { method: "POST", headers: { "x-test-admin": srv.adminKey, "content-type": "application/json" }, body: JSON.stringify({ repo: srv.fixture.repos.public }) });
      expect(trig.status).toBe(201);
      await waitFor(2);
      expect(got.map((g) => g.event)).toEqual(["ping", "push"]);
      for (const g of got) expect(g.sig).toBe(createHmac("sha1", "s3cret").update(g.body).digest("hex"));
      expect((JSON.parse(got[0]!.body) as { hook_id: number }).hook_id).toBe(hook.id);
      const del = await fetch(hook.url, { method: "DELETE", headers: { authorization: auth.authorization } });
      expect(del.status).toBe(204);
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });

  it("answers the 61st anonymous request with 403", async () => {
    const left = srv.fixture.limits.anonymous - srv.anonymousSpent();
    for (let i = 0; i < left; i++) expect((await fetch(`${srv.api}/events?page=${(i % 10) + 1}`)).status).toBe(200);
    const res = await fetch(`${srv.api}/events`);
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
  });
});
