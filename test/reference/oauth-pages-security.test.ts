/**
 * The web host's forms under attack and abuse: CSRF on the consent, sign-in and sign-out posts
 * (token, Origin/Referer), cookie attributes and hashed storage, sign-in failures, two-factor
 * codes, the lockout, open redirects through return_to, and malformed or oversized input — all
 * answered with a 4xx page, never a 5xx.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { currentTotp } from "../../reference/auth/totp.ts";
import { sha256Hex } from "../../reference/auth/secrets.ts";
import { createUser } from "../../reference/store/accounts.ts";
import { DEMO, useServer } from "./harness.ts";
import { authorizePath, Browser, formFields, PATHS, signedInBrowser, signIn } from "./oauth-web.ts";

const t = useServer();
const AUTHORIZE = authorizePath({ client_id: DEMO.app.clientId, scope: "repo", state: "csrf-test" });

async function codeCount(): Promise<number> {
  return (await t.server.db.query<{ n: number }>("select count(*)::int as n from oauth_codes"))[0]!.n;
}

describe("the consent decision", () => {
  let browser: Browser;
  let fields: Record<string, string>;
  beforeAll(async () => {
    browser = await signedInBrowser(t, "hubot");
    fields = formFields(await (await browser.get(AUTHORIZE)).text(), PATHS.decision);
  });

  it.each([
    ["without a token", (f: Record<string, string>) => ({ ...f, csrf_token: "" }), {}],
    ["with a wrong token", (f: Record<string, string>) => ({ ...f, csrf_token: "0".repeat(64) }), {}],
    ["from another site (Origin)", (f: Record<string, string>) => f, { origin: "https://evil.example" }],
    ["from an opaque origin (Origin: null)", (f: Record<string, string>) => f, { origin: "null" }],
  ] as const)("is refused %s, and no code is issued", async (_name, change, headers) => {
    const before = await codeCount();
    const res = await browser.post(PATHS.decision, { ...change(fields), decision: "authorize" }, headers);
    expect(res.status).toBe(403);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("did not come from this site");
    expect(await codeCount()).toBe(before);
  });

  it("is refused from another site named only by Referer", async () => {
    const res = await fetch(`${t.auth}${PATHS.decision}`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: browser.header(), referer: "https://evil.example/page", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...fields, decision: "authorize" }),
    });
    expect(res.status).toBe(403);
  });

  it("is refused with another session's token", async () => {
    const other = await signedInBrowser(t, "defunkt");
    const theirs = formFields(await (await other.get(AUTHORIZE)).text(), PATHS.decision).csrf_token!;
    const res = await browser.post(PATHS.decision, { ...fields, csrf_token: theirs, decision: "authorize" });
    expect(res.status).toBe(403);
  });

  it("is refused without a session", async () => {
    const res = await new Browser(t.auth).post(PATHS.decision, { ...fields, decision: "authorize" });
    expect(res.status).toBe(403);
  });

  it("is accepted with the session's token from this site (also with neither Origin nor Referer)", async () => {
    const res = await fetch(`${t.auth}${PATHS.decision}`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: browser.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...fields, decision: "deny" }),
    });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("access_denied");
  });

  it("re-checks the request it carries: an edited redirect_uri is a mismatch", async () => {
    const res = await browser.post(PATHS.decision, { ...fields, redirect_uri: "http://evil.example/", decision: "authorize" });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(DEMO.app.callback);
    expect(location.searchParams.get("error")).toBe("redirect_uri_mismatch");
    expect(location.searchParams.has("code")).toBe(false);
  });

  it.each([
    ["a decision that is neither", { decision: "maybe" }, 400],
    ["no client_id", { decision: "authorize", client_id: "" }, 400],
    ["an unknown client_id", { decision: "authorize", client_id: "nope" }, 404],
  ])("answers %s with %s", async (_name, change, status) => {
    const res = await browser.post(PATHS.decision, { ...fields, ...change });
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });

  it("refuses a JSON body (415), repeated fields (400) and a body over 64 KiB (413)", async () => {
    const json = await browser.post(PATHS.decision, {}, { "content-type": "application/json" });
    expect(json.status).toBe(415);
    const repeated = await fetch(`${t.auth}${PATHS.decision}`, {
      method: "POST",
      headers: { cookie: browser.header(), origin: t.auth, "content-type": "application/x-www-form-urlencoded" },
      body: `${new URLSearchParams({ ...fields, decision: "authorize" })}&decision=deny`,
    });
    expect(repeated.status).toBe(400);
    const huge = await browser.post(PATHS.decision, { ...fields, decision: "authorize", padding: "x".repeat(70_000) });
    expect(huge.status).toBe(413);
  });
});

describe("sessions and sign-in", () => {
  it("sets an HttpOnly, SameSite=Lax session cookie whose value the database stores only hashed", async () => {
    const browser = new Browser(t.auth);
    const res = await signIn(browser, DEMO.defunkt.login, DEMO.defunkt.password, AUTHORIZE);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(AUTHORIZE);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("service_session="))!;
    expect(cookie).toMatch(/; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    const id = browser.cookies.get("service_session")!;
    expect(await t.server.db.query("select 1 from sessions where id_hash = $1", [id])).toHaveLength(0);
    expect(await t.server.db.query("select 1 from sessions where id_hash = $1", [sha256Hex(id)])).toHaveLength(1);
    expect(browser.cookies.has("service_login_csrf"), "the login token is cleared").toBe(false);
  });

  it("refuses a wrong password with the login page again and no session", async () => {
    const browser = new Browser(t.auth);
    const res = await signIn(browser, DEMO.defunkt.login, "wrong-password", AUTHORIZE);
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("Incorrect username or password.");
    expect(browser.cookies.has("service_session")).toBe(false);
  });

  it.each([
    ["no token", (f: Record<string, string>) => ({ ...f, csrf_token: "" }), {}],
    ["a token other than the cookie's", (f: Record<string, string>) => ({ ...f, csrf_token: "f".repeat(64) }), {}],
    ["another site's Origin", (f: Record<string, string>) => f, { origin: "https://evil.example" }],
  ] as const)("refuses a sign-in post with %s", async (_name, change, headers) => {
    const browser = new Browser(t.auth);
    const fields = formFields(await (await browser.get(AUTHORIZE)).text(), PATHS.signIn);
    const res = await browser.post(PATHS.signIn, { ...change(fields), login: DEMO.defunkt.login, password: DEMO.defunkt.password }, headers);
    expect(res.status).toBe(403);
    expect(browser.cookies.has("service_session")).toBe(false);
  });

  it("refuses a sign-in post without the login cookie", async () => {
    const browser = new Browser(t.auth);
    const fields = formFields(await (await browser.get(AUTHORIZE)).text(), PATHS.signIn);
    browser.cookies.clear();
    const res = await browser.post(PATHS.signIn, { ...fields, login: DEMO.defunkt.login, password: DEMO.defunkt.password });
    expect(res.status).toBe(403);
  });

  it.each(["https://evil.example/", "//evil.example/x", "/\\evil.example", "http:/evil.example"])("never redirects off-site after sign-in (return_to %s)", async (returnTo) => {
    const browser = new Browser(t.auth);
    const fields = formFields(await (await browser.get(AUTHORIZE)).text(), PATHS.signIn);
    const res = await browser.post(PATHS.signIn, { ...fields, return_to: returnTo, login: DEMO.defunkt.login, password: DEMO.defunkt.password });
    expect(res.status).toBe(200);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("You are signed in as <strong>defunkt</strong>");
  });

  it("asks a two-factor user for the code and accepts the right one", async () => {
    const browser = new Browser(t.auth);
    const missing = await signIn(browser, DEMO.monalisa.login, DEMO.monalisa.password, AUTHORIZE);
    expect(missing.status).toBe(401);
    expect(await missing.text()).toContain("enter the 6-digit code");
    const wrong = await signIn(browser, DEMO.monalisa.login, DEMO.monalisa.password, AUTHORIZE, { otp: "000000" === currentTotp(DEMO.monalisa.totpSecret) ? "111111" : "000000" });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("That two-factor code is not valid.");
    const right = await signIn(browser, DEMO.monalisa.login, DEMO.monalisa.password, AUTHORIZE, { otp: currentTotp(DEMO.monalisa.totpSecret) });
    expect(right.status).toBe(303);
    expect(browser.cookies.has("service_session")).toBe(true);
  });

  it("locks a login out after 10 failures, the right password included", async () => {
    await createUser(t.server.db, { login: "lockme", password: "lockme-password" });
    const browser = new Browser(t.auth);
    for (let i = 0; i < 10; i++) expect((await signIn(browser, "lockme", `wrong-${i}`, AUTHORIZE)).status).toBe(401);
    const res = await signIn(browser, "lockme", "lockme-password", AUTHORIZE);
    expect(res.status).toBe(429);
    expect(await res.text()).toContain("Too many failed sign-in attempts");
    expect(browser.cookies.has("service_session")).toBe(false);
  });

  it("signs out with the session's token: the old cookie no longer signs anyone in", async () => {
    const browser = await signedInBrowser(t, "defunkt");
    const cookie = browser.cookies.get("service_session")!;
    const page = await (await browser.get(AUTHORIZE)).text();
    const fields = formFields(page, PATHS.signOut);
    expect((await browser.post(PATHS.signOut, { ...fields, csrf_token: "" })).status).toBe(403);
    const res = await browser.post(PATHS.signOut, fields);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(AUTHORIZE);
    const replay = await fetch(`${t.auth}${AUTHORIZE}`, { headers: { cookie: `service_session=${cookie}` } });
    expect(await replay.text()).toContain('action="/session"');
  });

  it("ignores malformed and unknown session cookies", async () => {
    for (const cookie of ["service_session=", "service_session=abc", `service_session=${"a".repeat(64)}`, "service_session=%00"]) {
      const res = await fetch(`${t.auth}${AUTHORIZE}`, { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('action="/session"');
    }
  });
});

describe("bad input never gets a 5xx", () => {
  it("round-trips a long state (8 KiB) unchanged", async () => {
    const state = "s".repeat(8192);
    const res = await fetch(`${t.auth}${authorizePath({ client_id: DEMO.suspendedApp.clientId, state })}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).searchParams.get("state")).toBe(state);
  });

  it("refuses an oversized request line with a 4xx", async () => {
    const res = await fetch(`${t.auth}${authorizePath({ client_id: DEMO.app.clientId, state: "s".repeat(100_000) })}`, { redirect: "manual" });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it.each([
    ["POST", PATHS.authorize],
    ["PUT", PATHS.authorize],
    ["DELETE", PATHS.authorize],
    ["GET", PATHS.decision],
    ["GET", PATHS.signIn],
    ["GET", PATHS.token],
    ["GET", "/settings/connections/applications/demo-client-id-0001/revoke"],
  ])("%s %s → 404", async (method, path) => {
    const res = await fetch(`${t.auth}${path}?client_id=${DEMO.app.clientId}`, { method, redirect: "manual" });
    expect(res.status).toBe(404);
  });

  it("answers a sign-in post in the wrong format with 415 and repeated fields with 400", async () => {
    const browser = new Browser(t.auth);
    expect((await browser.post(PATHS.signIn, {}, { "content-type": "text/plain" })).status).toBe(415);
    const res = await fetch(`${t.auth}${PATHS.signIn}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "login=a&login=b" });
    expect(res.status).toBe(400);
  });

  it("answers a sign-in post that is not UTF-8 with 400", async () => {
    const res = await fetch(`${t.auth}${PATHS.signIn}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: Buffer.from([0x6c, 0x3d, 0xff, 0xfe]) });
    expect(res.status).toBe(400);
  });
});
