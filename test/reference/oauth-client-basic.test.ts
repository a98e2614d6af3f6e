/**
 * HTTP Basic client authentication at `POST /login/oauth/access_token` on a real server
 * (D-OAUTH-CLIENT-BASIC; RFC 6749 §2.3.1): the client's credentials in `Authorization: Basic
 * base64(urlencode(client_id):urlencode(client_secret))` instead of the body, with the same
 * answers as the body's — a wrong secret is `incorrect_client_credentials` with status 200 and
 * leaves the code unused — and one method a request (RFC 6749 §2.3): Basic with a body
 * `client_secret`, or with a body `client_id` naming another client, is refused the same way.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createApplication } from "../../reference/store/applications.ts";
import { DEMO, useServer } from "./harness.ts";
import { api, APP_CREDENTIALS, type Browser, codeFor, exchange, PATHS, signedInBrowser } from "./oauth-web.ts";

const t = useServer();
let browser: Browser;

/** An application whose credentials need form-encoding: `+`, `:`, `&`, `%`, a space and a non-ASCII letter. */
const ODD = { client_id: "odd client+id", client_secret: "s3cret:with+plus&amp%20 é", callback: "http://127.0.0.1:8092/cb" };

beforeAll(async () => {
  browser = await signedInBrowser(t, "octocat");
  await createApplication(t.server.db, { clientId: ODD.client_id, clientSecret: ODD.client_secret, name: "Odd", url: "http://127.0.0.1:8092", callbackUrl: ODD.callback });
});

/** RFC 6749 §2.3.1: each part application/x-www-form-urlencoded, then joined with ":" and base64-encoded. */
function basicOf(id: string, secret: string): string {
  const encode = (v: string) => new URLSearchParams({ v }).toString().slice(2);
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`, "utf8").toString("base64")}`;
}

async function post(fields: Record<string, string>, authorization?: string, accept = "application/json"): Promise<{ status: number; body: Record<string, string> }> {
  const res = await fetch(`${t.auth}${PATHS.token}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept, ...(authorization ? { authorization } : {}) },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

const newCode = async (clientId: string = DEMO.app.clientId) => (await codeFor(browser, { client_id: clientId, scope: "gist" })).code;
const DEMO_BASIC = basicOf(DEMO.app.clientId, DEMO.app.clientSecret);

describe("HTTP Basic client authentication", () => {
  it("exchanges a code with the credentials in Basic only, for a token the API takes", async () => {
    const { status, body } = await post({ code: await newCode() }, DEMO_BASIC);
    expect(status).toBe(200);
    expect(body).toEqual({ access_token: expect.stringMatching(/^[0-9a-f]{40}$/), scope: "gist", token_type: "bearer" });
    expect((await api(t, "/events", body.access_token!)).headers.get("x-oauth-scopes")).toBe("gist");
  });

  it("form-decodes both parts (RFC 6749 §2.3.1), so credentials with +, :, %, & and spaces work", async () => {
    const { body } = await post({ code: await newCode(ODD.client_id) }, basicOf(ODD.client_id, ODD.client_secret));
    expect(body.access_token).toMatch(/^[0-9a-f]{40}$/);
    // The same credentials not encoded: "+" reads as a space, so the secret is wrong.
    const raw = `Basic ${Buffer.from(`${ODD.client_id}:${ODD.client_secret}`, "utf8").toString("base64")}`;
    expect((await post({ code: await newCode(ODD.client_id) }, raw)).body.error).toBe("incorrect_client_credentials");
  });

  it("allows a body client_id equal to the Basic one", async () => {
    const { body } = await post({ client_id: DEMO.app.clientId, code: await newCode() }, DEMO_BASIC);
    expect(body.access_token).toMatch(/^[0-9a-f]{40}$/);
  });

  it("reads empty client_id and client_secret fields beside Basic as omitted (no second method)", async () => {
    const { body } = await post({ client_id: "", client_secret: "", code: await newCode() }, DEMO_BASIC);
    expect(body.access_token).toMatch(/^[0-9a-f]{40}$/);
  });

  it("answers a wrong secret in Basic as a wrong secret in the body (200, incorrect_client_credentials), and the code stays usable", async () => {
    const code = await newCode();
    const inBasic = await post({ code }, basicOf(DEMO.app.clientId, "not-the-secret"));
    const inBody = await post({ client_id: DEMO.app.clientId, client_secret: "not-the-secret", code });
    expect(inBasic).toEqual(inBody);
    expect(inBasic.status).toBe(200);
    expect(inBasic.body.error).toBe("incorrect_client_credentials");
    expect((await post({ code }, DEMO_BASIC)).body.access_token).toMatch(/^[0-9a-f]{40}$/);
  });

  it.each([
    ["Basic and client_secret in the body (two methods, RFC 6749 §2.3)", (code: string) => ({ ...APP_CREDENTIALS, code }), DEMO_BASIC],
    ["Basic and the body's secret alone", (code: string) => ({ client_secret: DEMO.app.clientSecret, code }), DEMO_BASIC],
    ["Basic of one client and a body client_id of another", (code: string) => ({ client_id: "other-client", code }), DEMO_BASIC],
    ["an unreadable Basic header (not base64)", (code: string) => ({ ...APP_CREDENTIALS, code }), "Basic !!!not-base64!!!"],
    ["a Basic header without a colon", (code: string) => ({ ...APP_CREDENTIALS, code }), `Basic ${Buffer.from("no-colon").toString("base64")}`],
    ["a Basic header with a bad escape", (code: string) => ({ code }), `Basic ${Buffer.from(`${DEMO.app.clientId}:%zz`).toString("base64")}`],
  ])("refuses %s with incorrect_client_credentials, leaving the code unused", async (_what, fields, authorization) => {
    const code = await newCode();
    for (const accept of ["application/json", undefined]) {
      const res = await fetch(`${t.auth}${PATHS.token}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization, ...(accept ? { accept } : {}) }, body: new URLSearchParams(fields(code)) });
      expect(res.status).toBe(200);
      const text = await res.text();
      const body = accept ? (JSON.parse(text) as Record<string, string>) : Object.fromEntries(new URLSearchParams(text));
      expect(body.error).toBe("incorrect_client_credentials");
      expect(body.access_token).toBeUndefined();
    }
    expect((await post({ ...APP_CREDENTIALS, code })).body.access_token).toMatch(/^[0-9a-f]{40}$/);
  });

  it("does not read another scheme in Authorization as client authentication: the body's credentials count", async () => {
    const { body } = await post({ ...APP_CREDENTIALS, code: await newCode() }, "Bearer something");
    expect(body.access_token).toMatch(/^[0-9a-f]{40}$/);
  });

  it("reads Basic also when the body cannot be read: a text/plain body with valid Basic gets bad_verification_code (credentials passed, no code)", async () => {
    const res = await fetch(`${t.auth}${PATHS.token}`, { method: "POST", headers: { "content-type": "text/plain", accept: "application/json", authorization: DEMO_BASIC }, body: "code=whatever" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { error: string }).error).toBe("bad_verification_code");
    const wrong = await fetch(`${t.auth}${PATHS.token}`, { method: "POST", headers: { "content-type": "text/plain", accept: "application/json", authorization: basicOf(DEMO.app.clientId, "nope") }, body: "code=whatever" });
    expect(((await wrong.json()) as { error: string }).error).toBe("incorrect_client_credentials");
  });

  it("lets the contract's docs page send Authorization to the token exchange (CORS preflight), and only there", async () => {
    const preflight = (path: string) =>
      fetch(`${t.auth}${path}`, { method: "OPTIONS", headers: { origin: new URL(t.api).origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" } });
    expect((await preflight(PATHS.token)).headers.get("access-control-allow-headers")).toBe("authorization, content-type");
    expect((await preflight("/login/oauth/authorize")).headers.get("access-control-allow-headers")).toBe("content-type");
  });

  it("keeps the body's credentials working as before", async () => {
    const res = await exchange(t, { ...APP_CREDENTIALS, code: await newCode() }, "application/json");
    expect(((await res.json()) as { access_token: string }).access_token).toMatch(/^[0-9a-f]{40}$/);
  });
});
