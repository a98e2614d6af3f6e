// smoke.test.ts — end-to-end smoke checks over real HTTP: the web flow to a token, a feed 200 then 304,
// a hook receiving a signed ping and push on a local receiver, and the 61st anonymous request answered 429.
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { start, type BlindServer } from "./server.ts";

let srv: BlindServer;
beforeAll(async () => { srv = await start({ retryDelaysMs: [50, 100, 200] }); });
afterAll(async () => { await srv.close(); });

/** fetch without following redirects, carrying a tiny cookie jar. */
function browser(): (url: string, init?: RequestInit) => Promise<Response> {
  const jar = new Map<string, string>();
  return async (url, init = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const sc of res.headers.getSetCookie()) {
      const kv = sc.split(";")[0] ?? "";
      const i = kv.indexOf("=");
      if (i > 0) jar.set(kv.slice(0, i), kv.slice(i + 1));
    }
    return res;
  };
}

const decode = (s: string): string => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
const hiddenFields = (html: string): [string, string][] =>
  [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [decode(m[1] ?? ""), decode(m[2] ?? "")]);

describe("blind-plain smoke", () => {
  it("runs the web flow to a token", async () => {
    const go = browser();
    const { app, users, pages } = srv.fixture;
    const user = users[0];
    if (!user) throw new Error("no fixture user");
    const authorize = `${srv.auth}/login/oauth/authorize?client_id=${app.clientId}&scope=repo,user:email,user&state=s%20t%26te`;
    const r1 = await go(authorize);
    expect(r1.status).toBe(302);
    const login = r1.headers.get("location") ?? "";
    expect(login.startsWith("/login")).toBe(true);
    const loginPage = await (await go(srv.auth + login)).text();
    const form = new URLSearchParams(hiddenFields(loginPage));
    form.set(pages.usernameField, user.login);
    form.set(pages.passwordField, user.password);
    const r2 = await go(`${srv.auth}/session`, { method: "POST", body: form });
    expect(r2.status).toBe(302);
    const back = r2.headers.get("location") ?? "";
    expect(back.startsWith("/login/oauth/authorize")).toBe(true);
    const consent = await go(srv.auth + back);
    expect(consent.status).toBe(200);
    const html = await consent.text();
    expect(html).toContain("repo");
    const approve = new URLSearchParams(hiddenFields(html));
    const [name = "", value = ""] = pages.approve.split("=");
    approve.set(name, value);
    const r3 = await go(`${srv.auth}/login/oauth/authorize`, { method: "POST", body: approve });
    expect(r3.status).toBe(302);
    const cb = new URL(r3.headers.get("location") ?? "");
    expect(cb.href.startsWith(app.callbackUrl)).toBe(true);
    expect(cb.searchParams.get("state")).toBe("s t&te");
    const code = cb.searchParams.get("code") ?? "";
    const tok = await fetch(`${srv.auth}/login/oauth/access_token`, {
      method: "POST", headers: { Accept: "application/json" },
      body: new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret, code }),
    });
    expect(tok.status).toBe(200);
    const body = (await tok.json()) as { access_token: string; scope: string; token_type: string };
    expect(body.token_type).toBe("bearer");
    expect(body.scope).toBe("repo,user");
    const me = await fetch(`${srv.api}/user`, { headers: { Authorization: `token ${body.access_token}` } });
    expect(me.status).toBe(200);
    expect(me.headers.get("x-oauth-scopes")).toBe("repo, user");
    const again = await fetch(`${srv.auth}/login/oauth/access_token`, {
      method: "POST", headers: { Accept: "application/json" },
      body: new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret, code }),
    });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe("bad_verification_code");
  });

  it("answers a feed with an ETag, then 304 without spending the rate limit", async () => {
    const auth = { Authorization: `token ${srv.fixture.users[0]?.token ?? ""}` };
    const r1 = await fetch(`${srv.api}/repos/${srv.fixture.repos.public}/events`, { headers: auth });
    expect(r1.status).toBe(200);
    const etag = r1.headers.get("etag") ?? "";
    expect(etag.startsWith('W/"')).toBe(true);
    expect(r1.headers.get("x-poll-interval")).toBe("60");
    expect(r1.headers.get("link")).toMatch(/rel="next".*rel="last"/);
    expect(((await r1.json()) as unknown[]).length).toBe(30);
    const r2 = await fetch(`${srv.api}/repos/${srv.fixture.repos.public}/events`, { headers: { ...auth, "If-None-Match": etag } });
    expect(r2.status).toBe(304);
    expect(r2.headers.get("x-ratelimit-remaining")).toBe(r1.headers.get("x-ratelimit-remaining"));
  });

  it("delivers a signed ping and push to a hook", async () => {
    const got: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => { got.push({ headers: req.headers, body: Buffer.concat(chunks) }); res.end("ok"); });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const secret = "s3cret";
    const auth = { Authorization: `token ${srv.fixture.users[0]?.token ?? ""}`, "Content-Type": "application/json" };
    const made = await fetch(`${srv.api}/repos/${srv.fixture.repos.public}/hooks`, {
      method: "POST", headers: auth, body: JSON.stringify({ name: "web", config: { url, content_type: "json", secret }, events: ["push"] }),
    });
    expect(made.status).toBe(200);
    const hook = (await made.json()) as { id: number; url: string };
    const waitFor = async (event: string): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> => {
      for (let i = 0; i < 100; i++) {
        const d = got.find((x) => x.headers["x-service-event"] === event);
        if (d) return d;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`no ${event} delivery`);
    };
    const pingD = await waitFor("ping");
    expect((JSON.parse(pingD.body.toString()) as { hook_id: number }).hook_id).toBe(hook.id);
    const trig = await fetch(`${srv.api}/__test__/happen/push`, {
      method: "POST", headers: { Authorization: `Bearer ${srv.adminKey}`, "Content-Type": "application/json" }, body: JSON.stringify({ repo: srv.fixture.repos.public }),
    });
    expect(trig.status).toBe(200);
    const pushD = await waitFor("push");
    for (const d of [pingD, pushD]) {
      expect(d.headers["x-hub-signature"]).toBe(`sha256=${createHmac("sha256", secret).update(d.body).digest("hex")}`);
      expect(d.headers["user-agent"]).toMatch(/^Service-Hookshot\//);
      expect(d.headers["content-type"]).toBe("application/json");
      expect(typeof d.headers["x-service-delivery"]).toBe("string");
    }
    expect((JSON.parse(pushD.body.toString()) as { ref: string }).ref).toBe("refs/heads/master");
    const del = await fetch(hook.url, { method: "DELETE", headers: auth });
    expect(del.status).toBe(200);
    expect(srv.leftovers().hooks).toEqual([]);
    await new Promise<void>((r) => receiver.close(() => r()));
  });

  it("answers the 61st anonymous request with 429", async () => {
    const fresh = await start();
    try {
      for (let i = 0; i < fresh.fixture.limits.anonymous; i++) {
        const r = await fetch(`${fresh.api}/events?page=${(i % 10) + 1}`);
        expect(r.status).toBe(200);
        await r.arrayBuffer();
      }
      expect(fresh.anonymousSpent()).toBe(60);
      const last = await fetch(`${fresh.api}/events`);
      expect(last.status).toBe(429);
      expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await last.json()) as { error: { code: string } }).error.code).toBe("rate_limit_exceeded");
    } finally {
      await fresh.close();
    }
  });
});
