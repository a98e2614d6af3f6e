/**
 * Basic authentication of the authorizations API over real HTTP: missing, wrong and malformed
 * credentials, tokens where Basic is needed, two-factor codes (`X-Service-OTP`), the lockout after
 * too many failed logins, and rate limiting of Basic-authenticated users as authenticated.
 */
import { describe, expect, it } from "vitest";
import { currentTotp } from "../../reference/auth/totp.ts";
import { MAX_FAILED_LOGINS } from "../../reference/http/basic-auth.ts";
import { createUser } from "../../reference/store/accounts.ts";
import { basic, DEMO, useServer } from "./harness.ts";
import { call, errorShape, hubot, monalisa, octocat } from "./authorizations-client.ts";
import { ceiling } from "../ceilings.ts";

const t = useServer();

/** Every operation that takes a user's Basic credentials, with a body it accepts. */
const USER_OPERATIONS: [string, string, unknown][] = [
  ["GET", "/authorizations", undefined],
  ["POST", "/authorizations", {}],
  ["GET", "/authorizations/1", undefined],
  ["PATCH", "/authorizations/1", { scopes: [] }],
  ["DELETE", "/authorizations/1", undefined],
  ["PUT", `/authorizations/clients/${DEMO.app.clientId}`, { client_secret: DEMO.app.clientSecret }],
  ["PUT", `/authorizations/clients/${DEMO.app.clientId}/laptop`, { client_secret: DEMO.app.clientSecret }],
];

describe("Basic authentication", () => {
  it.each(USER_OPERATIONS)("%s %s without credentials answers 401 Requires authentication", async (method, path, body) => {
    const res = await call(t.api, method, path, { body });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorShape("Requires authentication"));
    expect(res.headers.get("x-service-otp")).toBeNull();
    expect(res.headers.get("x-ratelimit-limit")).not.toBeNull();
  });

  it.each(USER_OPERATIONS)("%s %s with a wrong password answers 401 Bad credentials", async (method, path, body) => {
    const res = await call(t.api, method, path, { body, auth: basic("hubot", "not-the-password") });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorShape("Bad credentials"));
  });

  it("answers an unknown login exactly like a wrong password", async () => {
    const res = await call(t.api, "GET", "/authorizations", { auth: basic("nobody-here", "whatever") });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorShape("Bad credentials"));
  });

  it("checks credentials before the body: a bad body from a stranger is still a 401", async () => {
    const res = await call(t.api, "POST", "/authorizations", { rawBody: "{oops", headers: { "Content-Type": "application/json" } });
    expect(res.status).toBe(401);
  });

  it.each([
    ["Basic", "Bad credentials"],
    ["Basic ", "Bad credentials"],
    ["Basic !!!not-base64!!!", "Bad credentials"],
    [`Basic ${Buffer.from("no-colon").toString("base64")}`, "Bad credentials"],
    [`Basic ${Buffer.from(":password-only").toString("base64")}`, "Bad credentials"],
    [`Basic ${Buffer.from("octocat:").toString("base64")}`, "Bad credentials"],
    [`Basic ${"QUFB".repeat(3000)}`, "Bad credentials"],
    ["Digest username=octocat", "Bad credentials"],
    ["Basicfoo", "Bad credentials"],
  ])("answers the Authorization header %j with 401 %s", async (header, message) => {
    const res = await call(t.api, "GET", "/authorizations", { auth: header });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorShape(message));
  });

  it("does not take a token where Basic is needed", async () => {
    const { body } = await call(t.api, "POST", "/authorizations", { auth: octocat, body: { scopes: ["repo"] } });
    const viaHeader = await call(t.api, "GET", "/authorizations", { auth: `token ${body.token}` });
    expect(viaHeader.status).toBe(401);
    expect(viaHeader.body).toEqual(errorShape("Requires authentication"));
    const viaQuery = await call(t.api, "GET", `/authorizations?access_token=${body.token}`);
    expect(viaQuery.status).toBe(401);
    const unknownToken = await call(t.api, "GET", "/authorizations", { auth: "token 0000000000000000000000000000000000000000" });
    expect(unknownToken.status).toBe(401);
    expect(unknownToken.body).toEqual(errorShape("Bad credentials"));
  });

  it("does not read a Basic header as a token on token operations (the caller is anonymous there)", async () => {
    const res = await fetch(`${t.api}/events`, { headers: { Authorization: octocat } });
    expect(res.status).not.toBe(401);
    expect(res.headers.get("x-ratelimit-limit")).toBe("60");
    expect(res.headers.get("x-oauth-scopes")).toBeNull();
    await res.arrayBuffer();
  });

  it("answers HEAD like GET: no credentials, no listing", async () => {
    const res = await fetch(`${t.api}/authorizations`, { method: "HEAD" });
    expect(res.status).toBe(401);
    const ok = await fetch(`${t.api}/authorizations`, { method: "HEAD", headers: { Authorization: octocat } });
    expect(ok.status).toBe(200);
  });

  it("rate-limits a Basic-authenticated user as authenticated, per user, across Basic and tokens", async () => {
    const first = await call(t.api, "GET", "/authorizations", { auth: hubot });
    expect(first.headers.get("x-ratelimit-limit")).toBe("5000");
    const before = Number(first.headers.get("x-ratelimit-remaining"));
    const { body } = await call(t.api, "POST", "/authorizations", { auth: hubot, body: {} });
    const viaToken = await fetch(`${t.api}/events`, { headers: { Authorization: `token ${body.token}` } });
    await viaToken.arrayBuffer();
    expect(Number(viaToken.headers.get("x-ratelimit-remaining"))).toBe(before - 2);
  });

  it("serves more than the anonymous 60 requests an hour to a Basic-authenticated user", async () => {
    let last = 0;
    for (let i = 0; i < 65; i++) {
      const res = await call(t.api, "GET", "/authorizations/1", { auth: octocat });
      expect([200, 404]).toContain(res.status);
      last = Number(res.headers.get("x-ratelimit-remaining"));
    }
    expect(last).toBeGreaterThan(4900);
  }, ceiling(60_000));
});

describe("two-factor authentication", () => {
  it("answers 401 with X-Service-OTP: required; app when the code is missing", async () => {
    const res = await call(t.api, "GET", "/authorizations", { auth: monalisa });
    expect(res.status).toBe(401);
    expect(res.headers.get("x-service-otp")).toBe("required; app");
    expect(res.body).toEqual(errorShape(/two-factor/));
  });

  it.each(["000000", "12345", "abcdef", "1234567", " "])("answers 401 with the header again for the wrong code %j", async (code) => {
    const now = currentTotp(DEMO.monalisa.totpSecret);
    const res = await call(t.api, "GET", "/authorizations", { auth: monalisa, headers: { "X-Service-OTP": code === "000000" && now === "000000" ? "111111" : code } });
    expect(res.status).toBe(401);
    expect(res.headers.get("x-service-otp")).toBe("required; app");
  });

  it("proceeds with the current code", async () => {
    const code = currentTotp(DEMO.monalisa.totpSecret);
    const created = await call(t.api, "POST", "/authorizations", { auth: monalisa, headers: { "X-Service-OTP": code }, body: { scopes: ["gist"], note: "2fa" } });
    expect(created.status).toBe(201);
    expect(created.headers.get("x-service-otp")).toBeNull();
    // A code is good once (DECISIONS D-REF-NONWEB-TWO-FACTOR-CODES): the next request takes the next step's.
    const next = currentTotp(DEMO.monalisa.totpSecret, Date.now() + 30_000);
    const listed = await call(t.api, "GET", "/authorizations", { auth: monalisa, headers: { "X-Service-OTP": next } });
    expect(listed.status).toBe(200);
    expect(listed.body.map((a: { id: number }) => a.id)).toContain(created.body.id);
  });

  it("asks for the code only after the password is right", async () => {
    const res = await call(t.api, "GET", "/authorizations", { auth: basic("monalisa", "wrong"), headers: { "X-Service-OTP": currentTotp(DEMO.monalisa.totpSecret) } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorShape("Bad credentials"));
    expect(res.headers.get("x-service-otp")).toBeNull();
  });

  it("says sms for a user with two-factor by SMS", async () => {
    await createUser(t.server.db, { login: "smsuser", password: "sms-user-password", twoFactor: { method: "sms", secret: "JBSWY3DPEHPK3PXP" } });
    const res = await call(t.api, "GET", "/authorizations", { auth: basic("smsuser", "sms-user-password") });
    expect(res.status).toBe(401);
    expect(res.headers.get("x-service-otp")).toBe("required; sms");
    const ok = await call(t.api, "GET", "/authorizations", { auth: basic("smsuser", "sms-user-password"), headers: { "X-Service-OTP": currentTotp("JBSWY3DPEHPK3PXP") } });
    expect(ok.status).toBe(200);
  });
});

describe("too many failed logins", () => {
  const own = useServer();

  it(`locks a login out with 403 after ${MAX_FAILED_LOGINS} failures, the right password included`, async () => {
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      const res = await call(own.api, "GET", "/authorizations", { auth: basic("defunkt", `wrong-${i}`) });
      expect(res.status).toBe(401);
    }
    const locked = await call(own.api, "GET", "/authorizations", { auth: basic(DEMO.defunkt.login, DEMO.defunkt.password) });
    expect(locked.status).toBe(403);
    expect(locked.body).toEqual(errorShape(/login attempts/));
    // The login is what is locked, in any letter case; other users are not affected.
    expect((await call(own.api, "GET", "/authorizations", { auth: basic("DEFUNKT", DEMO.defunkt.password) })).status).toBe(403);
    expect((await call(own.api, "GET", "/authorizations", { auth: hubot })).status).toBe(200);
  });

  it("counts wrong two-factor codes, but not a request without a code", async () => {
    const code = currentTotp(DEMO.monalisa.totpSecret);
    const wrong = code === "123456" ? "654321" : "123456";
    for (let i = 0; i < 3; i++) expect((await call(own.api, "GET", "/authorizations", { auth: monalisa })).status).toBe(401);
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      const res = await call(own.api, "GET", "/authorizations", { auth: monalisa, headers: { "X-Service-OTP": wrong } });
      expect(res.status).toBe(401);
    }
    const locked = await call(own.api, "GET", "/authorizations", { auth: monalisa, headers: { "X-Service-OTP": currentTotp(DEMO.monalisa.totpSecret) } });
    expect(locked.status).toBe(403);
  });

  it("counts unknown logins too, so the answers never tell which logins exist", async () => {
    const answers: number[] = [];
    for (let i = 0; i <= MAX_FAILED_LOGINS; i++) answers.push((await call(own.api, "GET", "/authorizations", { auth: basic("ghost", "x") })).status);
    expect(answers.at(-1)).toBe(403);
  });
});
