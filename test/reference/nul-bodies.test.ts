/**
 * NUL characters (`\u0000`) in otherwise valid input, over real HTTP on the embedded database
 * (PGlite): PostgreSQL text cannot hold NUL, so without a guard these were 500s. Every API-host
 * operation with a JSON body answers 422 `Validation Failed` naming the field with `invalid`
 * (reference/http/text-guard.ts); the web host's token exchange, sign-in, consent decision and
 * revoke, and Basic credentials answer their own clear refusals. Table-driven; the table must
 * cover every operation of the contract that takes a JSON body.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { routes } from "../../generated/server/index.ts";
import { basic, DEMO, useServer } from "./harness.ts";
import { call, errorShape, octocat } from "./authorizations-client.ts";
import { hookToken } from "./hooks-fixtures.ts";
import { APP_CREDENTIALS, authorizePath, exchange, formFields, PATHS, signedInBrowser, signIn, Browser } from "./oauth-web.ts";

const t = useServer({ deliveries: { enabled: false } });
const N = "bad\u0000value";
const SECRET = DEMO.app.clientSecret;

let token: string;
let authorizationId: number;
let repoHookId: number;
let orgHookId: number;

beforeAll(async () => {
  token = await hookToken(t.server.db, "octocat", ["admin:repo_hook", "admin:org_hook"]);
  const created = await call(t.api, "POST", "/authorizations", { auth: octocat, body: { note: "nul test", scopes: ["repo"] } });
  expect(created.status).toBe(201);
  authorizationId = created.body.id;
  const repoHook = await call(t.api, "POST", "/repos/octocat/hello-world/hooks", { auth: `token ${token}`, body: { name: "web", config: { url: "https://receiver.example/nul/repo" } } });
  expect(repoHook.status).toBe(201);
  repoHookId = repoHook.body.id;
  const orgHook = await call(t.api, "POST", "/orgs/octo-org/hooks", { auth: `token ${token}`, body: { name: "web", config: { url: "https://receiver.example/nul/org" } } });
  expect(orgHook.status).toBe(201);
  orgHookId = orgHook.body.id;
});

type Row = [operationId: string, method: string, path: () => string, auth: () => string, body: unknown, field: string, resource: string];

const user = () => octocat;
const hooks = () => `token ${token}`;
const CLIENT = `/authorizations/clients/${DEMO.app.clientId}`;

const ROWS: Row[] = [
  ["createAuthorization", "POST", () => "/authorizations", user, { note: N }, "note", "OauthAccess"],
  ["createAuthorization", "POST", () => "/authorizations", user, { note: "fp", fingerprint: N }, "fingerprint", "OauthAccess"],
  ["createAuthorization", "POST", () => "/authorizations", user, { note: "app", client_id: N, client_secret: "x" }, "client_id", "OauthAccess"],
  ["createAuthorization", "POST", () => "/authorizations", user, { note: "secret", client_id: DEMO.app.clientId, client_secret: N }, "client_secret", "OauthAccess"],
  ["updateAuthorization", "PATCH", () => `/authorizations/${authorizationId}`, user, { scopes: ["user"], note: N }, "note", "OauthAccess"],
  ["updateAuthorization", "PATCH", () => `/authorizations/${authorizationId}`, user, { add_scopes: ["gist"], fingerprint: N }, "fingerprint", "OauthAccess"],
  ["getOrCreateAuthorizationForApp", "PUT", () => CLIENT, user, { client_secret: SECRET, note: N }, "note", "OauthAccess"],
  ["getOrCreateAuthorizationForApp", "PUT", () => CLIENT, user, { client_secret: N }, "client_secret", "OauthAccess"],
  ["getOrCreateAuthorizationForApp", "PUT", () => CLIENT, user, { client_secret: SECRET, fingerprint: N }, "fingerprint", "OauthAccess"],
  ["getOrCreateAuthorizationForAppAndFingerprint", "PUT", () => `${CLIENT}/fp-nul`, user, { client_secret: SECRET, note: N }, "note", "OauthAccess"],
  ["createRepoHook", "POST", () => "/repos/octocat/hello-world/hooks", hooks, { name: "web", config: { url: `https://receiver.example/${N}` } }, "config.url", "Hook"],
  ["createRepoHook", "POST", () => "/repos/octocat/hello-world/hooks", hooks, { name: "web", config: { url: "https://receiver.example/k", [`x${"\u0000"}`]: "v" } }, "config.x\\u0000", "Hook"],
  ["updateRepoHook", "PATCH", () => `/repos/octocat/hello-world/hooks/${repoHookId}`, hooks, { config: { url: `https://receiver.example/${N}` } }, "config.url", "Hook"],
  ["updateRepoHook", "PATCH", () => `/repos/octocat/hello-world/hooks/${repoHookId}`, hooks, { config: { url: "https://receiver.example/s", secret: N } }, "config.secret", "Hook"],
  ["createOrgHook", "POST", () => "/orgs/octo-org/hooks", hooks, { name: "web", config: { url: `https://receiver.example/${N}` } }, "config.url", "Hook"],
  ["updateOrgHook", "PATCH", () => `/orgs/octo-org/hooks/${orgHookId}`, hooks, { config: { url: `https://receiver.example/${N}` } }, "config.url", "Hook"],
];

describe("NUL in a JSON body on the API host", () => {
  it("the table covers every API operation with a JSON body", () => {
    const withBody = routes.filter((r) => r.host === "api" && r.body?.mediaTypes.includes("application/json")).map((r) => r.operationId);
    expect([...new Set(ROWS.map((r) => r[0]))].sort()).toEqual([...withBody].sort());
  });

  it.each(ROWS)("%s %s: NUL in %5$j → 422 invalid on %6$s", async (_op, method, path, auth, body, field, resource) => {
    const reply = await call(t.api, method, path(), { auth: auth(), body });
    expect(reply.status, JSON.stringify(reply.body)).toBe(422);
    expect(reply.body).toMatchObject({ message: "Validation Failed", documentation_url: expect.any(String) });
    expect(reply.body.errors).toEqual([expect.objectContaining({ resource, field, code: "invalid" })]);
  });

  it("left nothing behind: the hooks and the authorization are unchanged", async () => {
    const repoHook = await call(t.api, "GET", `/repos/octocat/hello-world/hooks/${repoHookId}`, { auth: hooks() });
    expect(repoHook.body.config.url).toBe("https://receiver.example/nul/repo");
    const auth = await call(t.api, "GET", `/authorizations/${authorizationId}`, { auth: octocat });
    expect(auth.body).toMatchObject({ note: "nul test", scopes: ["repo"] });
  });

  it("still checks credentials first: a stranger's NUL body is a 401", async () => {
    const reply = await call(t.api, "POST", "/authorizations", { auth: basic("octocat", "wrong"), body: { note: N } });
    expect(reply.status).toBe(401);
  });

  it("still answers the schema's 422 for a body that is wrong in other ways", async () => {
    const reply = await call(t.api, "POST", "/authorizations", { auth: octocat, body: { note: N, scopes: "repo" } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.map((e: { field: string }) => e.field)).toContain("scopes");
  });
});

describe("lone surrogates in a JSON body on the API host", () => {
  // Written as JSON escapes: JSON.stringify would keep them escaped anyway, and the bytes on the wire are what a client sends.
  const send = (method: string, path: string, auth: string, json: string) =>
    fetch(`${t.api}${path}`, { method, headers: { authorization: auth, "content-type": "application/json" }, body: json }).then(async (res) => ({ status: res.status, body: await res.json() }));

  it.each([
    ["a high surrogate alone", '{"note":"bad \\ud800 value"}'],
    ["a low surrogate alone", '{"note":"bad \\udc00 value"}'],
    ["two highs in a row", '{"note":"\\ud83d\\ud83d"}'],
  ])("%s in a note → 422 invalid on note, nothing stored", async (_what, json) => {
    const before = await call(t.api, "GET", "/authorizations", { auth: octocat });
    const reply = await send("POST", "/authorizations", octocat, json);
    expect(reply.status, JSON.stringify(reply.body)).toBe(422);
    expect(reply.body.errors).toEqual([expect.objectContaining({ resource: "OauthAccess", field: "note", code: "invalid", message: expect.stringContaining("lone surrogate") })]);
    expect((await call(t.api, "GET", "/authorizations", { auth: octocat })).body).toHaveLength(before.body.length);
  });

  it("in a hook config's property name → 422 naming it escaped", async () => {
    const reply = await send("POST", "/repos/octocat/hello-world/hooks", `token ${token}`, '{"name":"web","config":{"url":"https://receiver.example/s","x\\udfff":"v"}}');
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual([expect.objectContaining({ resource: "Hook", field: "config.x\\udfff", code: "invalid" })]);
  });

  it("a proper pair (an emoji) is stored and read back exactly", async () => {
    const reply = await send("POST", "/authorizations", octocat, '{"note":"poller \\ud83d\\ude80","scopes":["repo"]}');
    expect(reply.status).toBe(201);
    expect(reply.body.note).toBe("poller \u{1F680}");
    expect((await call(t.api, "GET", `/authorizations/${reply.body.id}`, { auth: octocat })).body.note).toBe("poller \u{1F680}");
  });
});

describe("NUL in Basic credentials", () => {
  it.each([
    ["a login", basic("octo\u0000cat", DEMO.octocat.password)],
    ["a password", basic(DEMO.octocat.login, `${DEMO.octocat.password}\u0000`)],
  ])("in %s → 401 Bad credentials", async (_what, auth) => {
    const reply = await call(t.api, "GET", "/authorizations", { auth });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual(errorShape("Bad credentials"));
  });

  it("in an application's client_id → 401 on the application endpoints", async () => {
    const reply = await call(t.api, "GET", `/applications/${DEMO.app.clientId}/tokens/${"0".repeat(40)}`, { auth: basic(`x\u0000`, "y") });
    expect(reply.status).toBe(401);
  });
});

describe("NUL on the web host", () => {
  const TOKEN_CASES: [string, Record<string, string>, string][] = [
    ["client_id", { client_id: N, client_secret: SECRET, code: "c" }, "incorrect_client_credentials"],
    ["client_secret", { client_id: DEMO.app.clientId, client_secret: N, code: "c" }, "incorrect_client_credentials"],
    ["code", { ...APP_CREDENTIALS, code: N }, "bad_verification_code"],
  ];

  it.each(TOKEN_CASES)("token exchange (form), NUL in %s → %s, status 200", async (_field, fields, error) => {
    const res = await exchange(t, fields, "application/json");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { error: string }).error).toBe(error);
  });

  it.each(TOKEN_CASES)("token exchange (JSON), NUL in %s → %s, status 200", async (_field, fields, error) => {
    const res = await fetch(`${t.auth}${PATHS.token}`, { method: "POST", headers: { "content-type": "application/json", accept: "application/xml" }, body: JSON.stringify(fields) });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`<error>${error}</error>`);
  });

  it("authorize with a NUL client_id → the 404 page, no redirect", async () => {
    const res = await fetch(`${t.auth}${authorizePath({ client_id: N, redirect_uri: DEMO.app.callback })}`, { redirect: "manual" });
    expect(res.status).toBe(404);
    expect(res.headers.get("location")).toBeNull();
  });

  it("sign-in with a NUL login → the login page again, 401", async () => {
    const res = await signIn(new Browser(t.auth), `octo${"\u0000"}cat`, DEMO.octocat.password);
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("Incorrect username or password.");
  });

  it("a consent decision naming a NUL client_id → the 404 page", async () => {
    const browser = await signedInBrowser(t, "hubot");
    const page = await browser.get(authorizePath({ client_id: DEMO.app.clientId, scope: "gist" }));
    const fields = formFields(await page.text(), PATHS.decision);
    const res = await browser.post(PATHS.decision, { ...fields, client_id: N, decision: "authorize" });
    expect(res.status).toBe(404);
    expect(res.headers.get("location")).toBeNull();
  });

  it("the review page of a NUL client_id → the 404 page", async () => {
    const browser = await signedInBrowser(t, "defunkt");
    const res = await browser.get(`/settings/connections/applications/${encodeURIComponent(N)}`);
    expect(res.status).toBe(404);
  });

  it("revoking on the review page of a NUL client_id → the 404 page", async () => {
    const browser = await signedInBrowser(t, "defunkt");
    const page = await browser.get(authorizePath({ client_id: DEMO.app.clientId }));
    const csrf = formFields(await page.text(), PATHS.decision).csrf_token!;
    const res = await browser.post(`/settings/connections/applications/${encodeURIComponent(N)}/revoke`, { csrf_token: csrf });
    expect(res.status).toBe(404);
  });
});
