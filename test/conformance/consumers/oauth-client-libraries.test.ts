/**
 * The OAuth client suite against clients built on the popular libraries, over real HTTP with
 * Chromium, each with the library's documented usage and defaults (clients/): simple-oauth2 5.1.0
 * (HTTP Basic client authentication, which the reference takes: D-OAUTH-CLIENT-BASIC) and
 * openid-client 6.9.0 (PKCE, its default client_secret_post in 6.9.0, and ClientSecretBasic) pass
 * the cases that matter to a web flow — the flow, state, a reused and an expired code, the JSON
 * token, redirect_uri, PKCE. And
 * the suite judges what a client got, not its page: the simple-oauth2 client without its error-body
 * check (simple-oauth2 takes any 200 for a token) fails CODE-001 with the answer named, and with a
 * wrong secret — every exchange refused — fails the flow, token and redirect cases instead of
 * passing them; the same client passes CODE-001 when its profile asks for RFC 6749's 400 (the
 * library throws on it), which shows the profile's `tokenErrorStatus` reaches the client.
 * One authorization server for every client (a client id each), a few sign-ins per client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../cli/free-port.ts";
import { runOAuthClientSuite, startAuthorizationServer, type AuthorizationServer, type ClientProfile } from "../../../conformance/consumers/oauth-client/index.ts";
import type { RunSummary } from "../../../conformance/core/types.ts";
import { chromiumSkip } from "../../browser/chromium.ts";
import { ceiling } from "../../ceilings.ts";
import { startOpenIdClient } from "./clients/openid-client-client.ts";
import { startSimpleOAuth2Client } from "./clients/simple-oauth2-client.ts";
import type { TestClient } from "./clients/web-app.ts";

const skipReason = await chromiumSkip();
const clients: TestClient[] = [];
let authUrl: string;
let server: AuthorizationServer | undefined;

function profileOf(client: TestClient, clientId: string, extra: Partial<ClientProfile> = {}): ClientProfile {
  return {
    startUrl: client.startUrl,
    callbackUrl: client.callbackUrl,
    clientId,
    clientSecret: `${clientId}-secret-keep-it-private`,
    authUrl,
    success: { url: "/welcome", text: "Signed in with the service" },
    failure: { text: "Sign-in failed" },
    ...extra,
  };
}

async function run(client: TestClient, clientId: string, only: string[], extra: Partial<ClientProfile> = {}): Promise<RunSummary> {
  return runOAuthClientSuite({ profile: profileOf(client, clientId, extra), server, only, timeoutMs: 60_000 });
}

async function started<T extends TestClient>(client: Promise<T>): Promise<T> {
  clients.push(await client);
  return clients.at(-1) as T;
}

const idsWith = (s: RunSummary, status: string) => s.results.filter((r) => r.status === status).map((r) => r.id);
const explain = (s: RunSummary) => s.results.filter((r) => r.status !== "passed").map((r) => `${r.id}: ${r.status} ${r.failure?.message ?? r.reason ?? ""} ${JSON.stringify(r.failure?.actual ?? "")}`).join("\n");
const messageOf = (s: RunSummary, id: string) => s.results.find((r) => r.id === id)?.failure?.message;

beforeAll(async () => {
  if (skipReason) return;
  authUrl = `http://127.0.0.1:${await freePort()}`;
  // The first client's profile starts the server; the others are registered by their runs.
  const first = await started(startSimpleOAuth2Client({ authUrl, clientId: "simple-oauth2", clientSecret: "simple-oauth2-secret-keep-it-private" }));
  server = await startAuthorizationServer(profileOf(first, "simple-oauth2"));
}, ceiling(60_000));
afterAll(async () => {
  for (const c of clients) await c.close();
  await server?.close();
});

describe.skipIf(skipReason)("conformance --oauth-client against the popular client libraries", () => {
  it("a simple-oauth2 client with its defaults (HTTP Basic) passes", async () => {
    const only = ["OAUTH-CLIENT-FLOW-001", "OAUTH-CLIENT-STATE-001", "OAUTH-CLIENT-STATE-002", "OAUTH-CLIENT-CODE-001", "OAUTH-CLIENT-CODE-002", "OAUTH-CLIENT-TOKEN-001", "OAUTH-CLIENT-REDIRECT-001"];
    const summary = await run(clients[0]!, "simple-oauth2", only);
    expect(idsWith(summary, "passed"), explain(summary)).toEqual(only);
    // It did authenticate with Basic: no client_secret in its token requests' bodies.
    expect(server!.tokenRequests.filter((t) => t.clientId === "simple-oauth2").every((t) => t.fields.client_secret === undefined)).toBe(true);
  }, ceiling(240_000));

  it("an openid-client client with its defaults (PKCE) passes, OAUTH-CLIENT-PKCE-001 and the reused code included", async () => {
    const client = await started(startOpenIdClient({ authUrl, clientId: "openid-client", clientSecret: "openid-client-secret-keep-it-private" }));
    const only = ["OAUTH-CLIENT-FLOW-001", "OAUTH-CLIENT-STATE-002", "OAUTH-CLIENT-CODE-001", "OAUTH-CLIENT-TOKEN-001", "OAUTH-CLIENT-REDIRECT-001", "OAUTH-CLIENT-PKCE-001"];
    const summary = await run(client, "openid-client", only, { pkce: true });
    expect(idsWith(summary, "passed"), explain(summary)).toEqual(only);
  }, ceiling(240_000));

  it("an openid-client client with ClientSecretBasic passes the flow and the reused code", async () => {
    const client = await started(startOpenIdClient({ authUrl, clientId: "openid-client-basic", clientSecret: "openid-client-basic-secret-keep-it-private", basic: true }));
    const only = ["OAUTH-CLIENT-FLOW-001", "OAUTH-CLIENT-CODE-001"];
    const summary = await run(client, "openid-client-basic", only, { pkce: true });
    expect(idsWith(summary, "passed"), explain(summary)).toEqual(only);
    const mine = server!.tokenRequests.filter((t) => t.clientId === "openid-client-basic");
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((t) => t.fields.client_secret === undefined && t.fields.code_verifier !== undefined)).toBe(true);
  }, ceiling(240_000));

  it("a client that takes a 200 error body for a token fails the reused code, told what it was answered", async () => {
    const client = await started(startSimpleOAuth2Client({ authUrl, clientId: "broken-client", clientSecret: "broken-client-secret-keep-it-private", checkErrorBody: false }));
    const summary = await run(client, "broken-client", ["OAUTH-CLIENT-CODE-001"]);
    expect(idsWith(summary, "failed"), explain(summary)).toEqual(["OAUTH-CLIENT-CODE-001"]);
    expect(messageOf(summary, "OAUTH-CLIENT-CODE-001")).toBe("a reused code: the client reported a successful sign-in after its token request was answered 200 {error: bad_verification_code}");
    // With RFC 6749's 400 for token errors (its profile says so), simple-oauth2 throws, and the same client passes.
    const with400 = await run(client, "broken-client", ["OAUTH-CLIENT-CODE-001"], { tokenErrorStatus: 400 });
    expect(idsWith(with400, "passed"), explain(with400)).toEqual(["OAUTH-CLIENT-CODE-001"]);
    expect(server!.tokenRequests.at(-1)?.answer).toMatchObject({ status: 400, fields: { error: "bad_verification_code" } });
  }, ceiling(240_000));

  it("with every exchange refused (a wrong secret), the flow, token and redirect cases fail instead of passing", async () => {
    const client = await started(startSimpleOAuth2Client({ authUrl, clientId: "refused-client", clientSecret: "not-the-registered-secret", checkErrorBody: false }));
    const only = ["OAUTH-CLIENT-FLOW-001", "OAUTH-CLIENT-TOKEN-001", "OAUTH-CLIENT-REDIRECT-001"];
    const summary = await run(client, "refused-client", only);
    expect(idsWith(summary, "failed"), explain(summary)).toEqual(only);
    for (const id of only) expect(messageOf(summary, id)).toMatch(/the client reported a successful sign-in after its token request was answered 200 \{error: incorrect_client_credentials\}$/);
  }, ceiling(240_000));
});
