/**
 * PKCE on the reference (reference/oauth/pkce.ts; RFC 7636, S256 only), driven by the generated
 * client's helpers (`authorizeUrl({ pkce: true })`, `exchangeCode({ codeVerifier })`) over real
 * HTTP: a code issued with a challenge is exchanged only with its verifier (a missing or wrong one
 * is bad_verification_code and leaves the code usable), a code issued without one refuses a
 * verifier, and `plain`, a challenge without method and malformed challenges get the
 * invalid_request redirect. RFC 7636 Appendix B's example is the outside check of the hashing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { codeChallenge, ServiceClient, TokenExchangeError } from "../../generated/client/index.ts";
import { s256 } from "../../reference/oauth/pkce.ts";
import { DEMO, useServer } from "./harness.ts";
import { authorizePath, Browser, codeFor, signedInBrowser } from "./oauth-web.ts";

const t = useServer();
let browser: Browser;
let client: ServiceClient;
const app = { clientId: DEMO.app.clientId, clientSecret: DEMO.app.clientSecret };

beforeAll(async () => {
  browser = await signedInBrowser(t, "octocat");
  client = new ServiceClient({ baseUrl: t.api, authUrl: t.auth });
});

/** A code through the authorize URL the client built (the consent page the first time). */
async function codeFrom(url: string): Promise<string> {
  const u = new URL(url);
  return (await codeFor(browser, Object.fromEntries(u.searchParams))).code;
}

async function refused(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(TokenExchangeError);
  return (error as TokenExchangeError).error;
}

describe("PKCE", () => {
  it("hashes as RFC 7636 Appendix B says", () => {
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    expect(codeChallenge(verifier)).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    expect(s256(verifier)).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  it("a code issued with a challenge (through the consent page) exchanges with its verifier", async () => {
    const { url, codeVerifier } = client.authorizeUrl({ clientId: app.clientId, scopes: ["repo"], pkce: true });
    expect(new URL(url).searchParams.get("code_challenge_method")).toBe("S256");
    const token = await client.exchangeCode({ ...app, code: await codeFrom(url), codeVerifier });
    expect(token.access_token).toMatch(/^[0-9a-f]{40}$/);
  });

  it("without the verifier, or with another, the exchange is refused and the code stays usable", async () => {
    const { url, codeVerifier } = client.authorizeUrl({ clientId: app.clientId, scopes: ["repo"], pkce: true });
    const code = await codeFrom(url);
    expect(await refused(client.exchangeCode({ ...app, code }))).toBe("bad_verification_code");
    const other = client.authorizeUrl({ clientId: app.clientId, pkce: true }).codeVerifier!;
    expect(await refused(client.exchangeCode({ ...app, code, codeVerifier: other }))).toBe("bad_verification_code");
    expect(await refused(client.exchangeCode({ ...app, code, codeVerifier: "short" }))).toBe("bad_verification_code");
    expect((await client.exchangeCode({ ...app, code, codeVerifier })).access_token).toMatch(/^[0-9a-f]{40}$/);
  });

  it("a code issued without a challenge refuses a verifier", async () => {
    const { url } = client.authorizeUrl({ clientId: app.clientId, scopes: ["repo"] });
    const code = await codeFrom(url);
    const verifier = client.authorizeUrl({ clientId: app.clientId, pkce: true }).codeVerifier!;
    expect(await refused(client.exchangeCode({ ...app, code, codeVerifier: verifier }))).toBe("bad_verification_code");
    expect((await client.exchangeCode({ ...app, code })).access_token).toMatch(/^[0-9a-f]{40}$/);
  });

  const challenge = codeChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
  it.each([
    ["the plain method", { code_challenge: challenge, code_challenge_method: "plain" }],
    ["a challenge without a method (plain by default)", { code_challenge: challenge }],
    ["a method without a challenge", { code_challenge_method: "S256" }],
    ["a lower-case method", { code_challenge: challenge, code_challenge_method: "s256" }],
    ["a challenge too short", { code_challenge: challenge.slice(1), code_challenge_method: "S256" }],
    ["a challenge with padding", { code_challenge: `${challenge}=`, code_challenge_method: "S256" }],
    ["a challenge in base64, not base64url", { code_challenge: `${challenge.slice(0, 42)}+`, code_challenge_method: "S256" }],
  ])("%s: invalid_request at the registered callback, with the state", async (_name, params) => {
    const res = await new Browser(t.auth).get(authorizePath({ client_id: app.clientId, state: "pkce-state", ...params }));
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(DEMO.app.callback);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ error: "invalid_request", state: "pkce-state" });
    expect(location.searchParams.has("code")).toBe(false);
  });
});
