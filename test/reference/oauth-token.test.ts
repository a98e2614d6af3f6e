/**
 * `POST /login/oauth/access_token` on a real server: the three response formats the `Accept`
 * header selects (XML parsed with fast-xml-parser), the three errors in each format (status 200),
 * single use (a reused code also revokes the token it bought), the code's binding to its client
 * and redirect_uri, JSON bodies, and malformed requests.
 */
import { XMLParser } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../reference/auth/secrets.ts";
import { createApplication } from "../../reference/store/applications.ts";
import { DEMO, useServer } from "./harness.ts";
import { api, APP_CREDENTIALS, type Browser, codeFor, exchange, PATHS, signedInBrowser } from "./oauth-web.ts";

const t = useServer();
const OTHER = { client_id: "other-app-id", client_secret: "other-app-secret-0123456789" };
let browser: Browser;

beforeAll(async () => {
  browser = await signedInBrowser(t, "octocat");
  await createApplication(t.server.db, { clientId: OTHER.client_id, clientSecret: OTHER.client_secret, name: "Other", url: "http://127.0.0.1:8090", callbackUrl: "http://127.0.0.1:8090/cb" });
});

const newCode = async (params: Record<string, string> = {}) => (await codeFor(browser, { client_id: DEMO.app.clientId, scope: "user,gist,user:email", ...params })).code;

const FORMATS = [
  ["no Accept", undefined, "application/x-www-form-urlencoded"],
  ["*/*", "*/*", "application/x-www-form-urlencoded"],
  ["an unknown type", "text/html", "application/x-www-form-urlencoded"],
  ["application/json", "application/json", "application/json; charset=utf-8"],
  ["application/xml", "application/xml", "application/xml; charset=utf-8"],
  ["JSON preferred by q", "application/xml;q=0.5, application/json", "application/json; charset=utf-8"],
] as const;

const xml = new XMLParser();

/** The body as fields, whatever the format; XML must have root OAuth. */
async function fields(res: Response): Promise<Record<string, string>> {
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  if (type.startsWith("application/json")) return JSON.parse(text);
  if (type.startsWith("application/xml")) {
    const doc = xml.parse(text) as { OAuth: Record<string, unknown> };
    expect(Object.keys(doc)).toContain("OAuth");
    return Object.fromEntries(Object.entries(doc.OAuth).map(([k, v]) => [k, String(v)]));
  }
  return Object.fromEntries(new URLSearchParams(text));
}

describe("a successful exchange", () => {
  it.each(FORMATS)("answers %s as %s", async (_name, accept, contentType) => {
    const res = await exchange(t, { ...APP_CREDENTIALS, code: await newCode() }, accept);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(contentType);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await fields(res);
    expect(body).toEqual({ access_token: expect.stringMatching(/^[0-9a-f]{40}$/), scope: "gist,user", token_type: "bearer" });
  });

  it("writes the XML children in the contract's order: token_type, scope, access_token", async () => {
    const text = await (await exchange(t, { ...APP_CREDENTIALS, code: await newCode() }, "application/xml")).text();
    expect(text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><OAuth><token_type>bearer<\/token_type><scope>gist,user<\/scope><access_token>[0-9a-f]{40}<\/access_token><\/OAuth>$/);
  });

  it("accepts a JSON body", async () => {
    const res = await fetch(`${t.auth}${PATHS.token}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ ...APP_CREDENTIALS, code: await newCode(), redirect_uri: DEMO.app.callback }),
    });
    expect((await res.json()).token_type).toBe("bearer");
  });

  it("gives a token the API host accepts, with its scopes in X-OAuth-Scopes, stored only hashed", async () => {
    const body = await fields(await exchange(t, { ...APP_CREDENTIALS, code: await newCode() }, "application/json"));
    const res = await api(t, "/events", body.access_token!);
    expect(res.status).not.toBe(401);
    expect(res.headers.get("x-oauth-scopes")).toBe("gist, user");
    const rows = await t.server.db.query<{ via: string; app_id: number }>("select via, app_id from authorizations where token_hash = $1", [sha256Hex(body.access_token!)]);
    expect(rows).toEqual([{ via: "web", app_id: expect.any(Number) }]);
    expect(await t.server.db.query("select 1 from authorizations where token_hash = $1", [body.access_token])).toHaveLength(0);
  });

  it("stores codes only hashed", async () => {
    const code = await newCode();
    expect(await t.server.db.query("select 1 from oauth_codes where code_hash = $1", [code])).toHaveLength(0);
    expect(await t.server.db.query("select 1 from oauth_codes where code_hash = $1", [sha256Hex(code)])).toHaveLength(1);
  });

  it("accepts the redirect_uri the code was issued for, given or omitted", async () => {
    const redirect_uri = "http://127.0.0.1:8080/callback/sub";
    const given = await fields(await exchange(t, { ...APP_CREDENTIALS, code: await newCode({ redirect_uri }), redirect_uri }, "application/json"));
    expect(given.token_type).toBe("bearer");
    const omitted = await fields(await exchange(t, { ...APP_CREDENTIALS, code: await newCode({ redirect_uri }) }, "application/json"));
    expect(omitted.token_type).toBe("bearer");
  });
});

const ERRORS = {
  incorrect_client_credentials: {
    error: "incorrect_client_credentials",
    error_description: "The client_id and/or client_secret passed are incorrect.",
    error_uri: "https://developer.service.example/v3/oauth/#incorrect-client-credentials",
  },
  redirect_uri_mismatch: {
    error: "redirect_uri_mismatch",
    error_description: "The redirect_uri MUST match the registered callback URL for this application.",
    error_uri: "https://developer.service.example/v3/oauth/#redirect-uri-mismatch2",
  },
  bad_verification_code: {
    error: "bad_verification_code",
    error_description: "The code passed is incorrect or expired.",
    error_uri: "https://developer.service.example/v3/oauth/#bad-verification-code",
  },
};

type Case = [string, keyof typeof ERRORS, () => Promise<Record<string, string>>];

const CASES: Case[] = [
  ["a wrong client_secret", "incorrect_client_credentials", async () => ({ ...APP_CREDENTIALS, client_secret: "wrong", code: await newCode() })],
  ["an unknown client_id", "incorrect_client_credentials", async () => ({ client_id: "nope", client_secret: DEMO.app.clientSecret, code: await newCode() })],
  ["no client_secret", "incorrect_client_credentials", async () => ({ client_id: DEMO.app.clientId, code: await newCode() })],
  ["nothing but a code", "incorrect_client_credentials", async () => ({ code: await newCode() })],
  ["a suspended application's credentials", "incorrect_client_credentials", async () => ({ client_id: DEMO.suspendedApp.clientId, client_secret: DEMO.suspendedApp.clientSecret, code: await newCode() })],
  ["another redirect_uri than the code's", "redirect_uri_mismatch", async () => ({ ...APP_CREDENTIALS, code: await newCode({ redirect_uri: "http://127.0.0.1:8080/callback/sub" }), redirect_uri: DEMO.app.callback })],
  // WHATWG parsing would resolve it to the code's redirect_uri, but the path is spelled ambiguously (DECISIONS: redirect URI path tricks).
  ["the code's redirect_uri with a dot segment", "redirect_uri_mismatch", async () => ({ ...APP_CREDENTIALS, code: await newCode({ redirect_uri: "http://127.0.0.1:8080/callback/sub" }), redirect_uri: "http://127.0.0.1:8080/callback/x/../sub" })],
  ["a redirect_uri of another host", "redirect_uri_mismatch", async () => ({ ...APP_CREDENTIALS, code: await newCode(), redirect_uri: "http://evil.example/callback" })],
  ["a made-up code", "bad_verification_code", async () => ({ ...APP_CREDENTIALS, code: "0".repeat(40) })],
  ["no code", "bad_verification_code", async () => ({ ...APP_CREDENTIALS })],
  ["another application's code", "bad_verification_code", async () => ({ ...OTHER, code: await newCode() })],
];

describe.each(FORMATS.filter(([name]) => ["no Accept", "application/json", "application/xml"].includes(name)))("errors with %s", (_name, accept, contentType) => {
  it.each(CASES)("%s → %s, status 200", async (_case, error, build) => {
    const res = await exchange(t, await build(), accept);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(contentType);
    expect(await fields(res)).toEqual(ERRORS[error]);
  });

  it("a code used twice → bad_verification_code", async () => {
    const code = await newCode();
    expect((await fields(await exchange(t, { ...APP_CREDENTIALS, code }, accept))).token_type).toBe("bearer");
    expect(await fields(await exchange(t, { ...APP_CREDENTIALS, code }, accept))).toEqual(ERRORS.bad_verification_code);
  });
});

describe("single use", () => {
  it("a reused code revokes the token its first exchange bought", async () => {
    const code = await newCode();
    const token = (await fields(await exchange(t, { ...APP_CREDENTIALS, code }, "application/json"))).access_token!;
    expect((await api(t, "/events", token)).status).not.toBe(401);
    expect((await fields(await exchange(t, { ...APP_CREDENTIALS, code }, "application/json"))).error).toBe("bad_verification_code");
    expect((await api(t, "/events", token)).status).toBe(401);
  });

  it("a code presented with the wrong client or redirect_uri stays usable by its own client", async () => {
    const code = await newCode();
    expect((await fields(await exchange(t, { ...OTHER, code }, "application/json"))).error).toBe("bad_verification_code");
    expect((await fields(await exchange(t, { ...APP_CREDENTIALS, code, redirect_uri: "http://127.0.0.1:8080/callback/x" }, "application/json"))).error).toBe("redirect_uri_mismatch");
    expect((await fields(await exchange(t, { ...APP_CREDENTIALS, code }, "application/json"))).token_type).toBe("bearer");
  });

  it("of concurrent exchanges of one code, exactly one succeeds", async () => {
    const code = await newCode();
    const answers = await Promise.all([1, 2, 3, 4].map(async () => fields(await exchange(t, { ...APP_CREDENTIALS, code }, "application/json"))));
    expect(answers.filter((a) => a.token_type === "bearer")).toHaveLength(1);
  });
});

describe("malformed requests never get a 5xx: a 200 OAuth error, as every answer of the token endpoint", () => {
  const post = (contentType: string, body: string, accept = "application/json") =>
    fetch(`${t.auth}${PATHS.token}`, { method: "POST", headers: { "content-type": contentType, accept }, body });

  it("reads a repeated form key as missing: incorrect_client_credentials for client_id", async () => {
    const res = await post("application/x-www-form-urlencoded", `client_id=${DEMO.app.clientId}&client_id=other&client_secret=x&code=y`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { error: string }).error).toBe("incorrect_client_credentials");
  });

  it.each([
    ["a body that is not JSON", "application/json", "{nope", "incorrect_client_credentials"],
    ["a text/plain body", "text/plain", "client_id=x", "incorrect_client_credentials"],
    ["a JSON array", "application/json", "[]", "incorrect_client_credentials"],
    ["JSON with the wrong types for the credentials", "application/json", JSON.stringify({ client_id: 1, client_secret: [], code: {} }), "incorrect_client_credentials"],
    // Right credentials, a code that is not a string: read as missing, checked in the usual order.
    ["a JSON number for the code", "application/json", JSON.stringify({ ...APP_CREDENTIALS, code: 5 }), "bad_verification_code"],
  ] as const)("%s → 200 %s", async (_name, contentType, body, error) => {
    const res = await post(contentType, body);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { error: string }).error).toBe(error);
  });

  it("answers an unreadable body in the format Accept asks for (XML, form)", async () => {
    const xml = await post("application/json", "{nope", "application/xml");
    expect(xml.status).toBe(200);
    expect(await xml.text()).toMatch(/<OAuth><error>incorrect_client_credentials<\/error>/);
    const form = await post("text/plain", "x", "*/*");
    expect(form.headers.get("content-type")).toMatch(/^application\/x-www-form-urlencoded/);
    expect(new URLSearchParams(await form.text()).get("error")).toBe("incorrect_client_credentials");
  });

  it("answers an empty body like missing credentials: incorrect_client_credentials, status 200", async () => {
    const res = await fetch(`${t.auth}${PATHS.token}`, { method: "POST", headers: { accept: "application/json" } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { error: string }).error).toBe("incorrect_client_credentials");
  });

  it("answers a body over the size limit with a 200 OAuth error too", async () => {
    const res = await exchange(t, { ...APP_CREDENTIALS, code: "c".repeat(1024 * 1024) }, "application/json");
    expect(res.status).toBe(200);
    expect(["bad_verification_code", "incorrect_client_credentials"]).toContain(((await res.json()) as { error: string }).error);
  });
});

