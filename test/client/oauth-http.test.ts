/**
 * The OAuth web flow against a local web host: the token exchange in the three response formats
 * the `Accept` header selects, and the three error bodies the endpoint returns with status 200.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceClient, TokenExchangeError, OAuthStateError } from "../../generated/client/index.ts";
import { startServer, type LocalServer } from "./helpers.ts";

const ERRORS: Record<string, { error: string; error_description: string; error_uri: string }> = {
  wrong: { error: "incorrect_client_credentials", error_description: "The client_id and/or client_secret passed are incorrect.", error_uri: "https://developer.service.example/v3/oauth/#incorrect-client-credentials" },
  mismatch: { error: "redirect_uri_mismatch", error_description: "The redirect_uri MUST match the registered callback URL for this application.", error_uri: "https://developer.service.example/v3/oauth/#redirect-uri-mismatch" },
  expired: { error: "bad_verification_code", error_description: "The code passed is incorrect or expired.", error_uri: "https://developer.service.example/v3/oauth/#bad-verification-code" },
};

function render(accept: string | undefined, fields: Record<string, string>): { type: string; body: string } {
  if (accept === "application/json") return { type: "application/json; charset=utf-8", body: JSON.stringify(fields) };
  if (accept === "application/xml") {
    const children = Object.entries(fields).map(([k, v]) => `<${k}>${v.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</${k}>`).join("");
    return { type: "application/xml; charset=utf-8", body: `<?xml version="1.0" encoding="UTF-8"?><OAuth>${children}</OAuth>` };
  }
  return { type: "application/x-www-form-urlencoded; charset=utf-8", body: new URLSearchParams(fields).toString() };
}

let web: LocalServer;
let client: ServiceClient;
beforeAll(async () => {
  web = await startServer((req, res) => {
    const form = new URLSearchParams(req.body);
    const fields = ERRORS[form.get("code") ?? ""] ?? { access_token: "e72e16c7e42f292c6912e7710c838347ae178b4a", token_type: "bearer", scope: "repo,gist" };
    const { type, body } = render(req.headers.accept, fields);
    res.writeHead(200, { "content-type": type }).end(body);
  });
  client = new ServiceClient({ baseUrl: "http://127.0.0.1:9", authUrl: web.url });
});
afterAll(() => web.close());

describe("exchangeCode", () => {
  it.each([
    ["form", "application/x-www-form-urlencoded"],
    ["json", "application/json"],
    ["xml", "application/xml"],
  ] as const)("parses the %s response", async (format, accept) => {
    const before = web.requests.length;
    const token = await client.exchangeCode({ clientId: "abc", clientSecret: "s3cret", code: "good", redirectUri: "http://app/cb", format });
    expect(token).toEqual({ access_token: "e72e16c7e42f292c6912e7710c838347ae178b4a", token_type: "bearer", scope: "repo,gist", scopes: ["repo", "gist"] });
    const request = web.requests[before]!;
    expect(request.method).toBe("POST");
    expect(request.url.pathname).toBe("/login/oauth/access_token");
    expect(request.headers.accept).toBe(accept);
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ client_id: "abc", client_secret: "s3cret", code: "good", redirect_uri: "http://app/cb" });
  });

  const cases = (["form", "json", "xml"] as const).flatMap((format) => Object.entries(ERRORS).map(([code, body]) => [format, code, body] as const));
  it.each(cases)("turns the %s error body for code %s into TokenExchangeError", async (format, code, expected) => {
    const error = await client.exchangeCode({ clientId: "abc", clientSecret: "s3cret", code, format }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenExchangeError);
    expect(error).toMatchObject({ error: expected.error, description: expected.error_description, uri: expected.error_uri, status: 200 });
  });
});

describe("authorize round trip", () => {
  it("accepts the state it issued and aborts on any other", () => {
    const { url, state } = client.authorizeUrl({ clientId: "abc", scopes: ["repo"] });
    expect(new URL(url).origin).toBe(web.url);
    const callback = new URL(`http://app/cb?code=c0de&state=${encodeURIComponent(state)}`);
    expect(() => client.checkState(state, callback.searchParams.get("state"))).not.toThrow();
    expect(() => client.checkState(state, "forged")).toThrow(OAuthStateError);
  });
});
