/**
 * Narrowing a grant ends its pending codes (D-REF-NARROW-ENDS-CODES; issue 34), on a real server
 * over HTTP with PGlite: a code issued before `PATCH /authorizations/{id}` narrowed the
 * application's authorization answers `bad_verification_code`, so no token comes back with the
 * old, wider scopes; widening or renaming keeps the codes; a used code stays known (its reuse
 * still revokes the token it bought); and the next authorize asking for the old scopes shows the
 * consent page again.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { basic, DEMO, useServer } from "./harness.ts";
import { api, APP_CREDENTIALS, authorizePath, type Browser, codeFor, exchange, signedInBrowser, tokenFor } from "./oauth-web.ts";

const t = useServer();
let browser: Browser;

beforeAll(async () => {
  browser = await signedInBrowser(t, "octocat");
});

const OCTOCAT = basic(DEMO.octocat.login, DEMO.octocat.password);

/** The authorization of a token, as the application's token check reports it. */
async function authorizationOf(token: string): Promise<{ id: number; scopes: string[] }> {
  const res = await fetch(`${t.api}/applications/${DEMO.app.clientId}/tokens/${token}`, { headers: { authorization: basic(DEMO.app.clientId, DEMO.app.clientSecret) } });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: number; scopes: string[] };
}

async function patch(id: number, body: Record<string, unknown>): Promise<{ scopes: string[] }> {
  const res = await fetch(`${t.api}/authorizations/${id}`, { method: "PATCH", headers: { authorization: OCTOCAT, "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json()) as { scopes: string[] };
}

async function exchanged(code: string): Promise<Record<string, string>> {
  return (await (await exchange(t, { ...APP_CREDENTIALS, code }, "application/json")).json()) as Record<string, string>;
}

const flow = (scope: string) => ({ client_id: DEMO.app.clientId, scope });

describe("PATCH /authorizations/{id} and the codes issued before it", () => {
  it("narrowing ends a pending code: bad_verification_code, never a token with the old scopes", async () => {
    const { token } = await tokenFor(t, browser, "repo,gist");
    const { id } = await authorizationOf(token);
    // The grant covers repo,gist: the authorize step completes at once with a code.
    const { code } = await codeFor(browser, flow("repo,gist"));
    expect((await patch(id, { scopes: ["gist"] })).scopes).toEqual(["gist"]);
    const body = await exchanged(code);
    expect(body.error).toBe("bad_verification_code");
    expect(body.access_token).toBeUndefined();
    expect((await api(t, "/events", token)).headers.get("x-oauth-scopes")).toBe("gist");
    // The narrowed grant no longer covers repo: the consent page again, not an automatic code.
    expect((await browser.get(authorizePath(flow("repo,gist")))).status).toBe(200);
  });

  it("remove_scopes that takes away what a scope implies ends pending codes too", async () => {
    const { token } = await tokenFor(t, browser, "user");
    const { id } = await authorizationOf(token);
    const { code } = await codeFor(browser, flow("user"));
    await patch(id, { remove_scopes: ["user:email"] });
    expect((await exchanged(code)).error).toBe("bad_verification_code");
  });

  it.each([
    ["widening (add_scopes)", { add_scopes: ["repo"] }],
    ["the same scopes again", { scopes: ["gist"] }],
    ["a new note, with a scope it has", { add_scopes: ["gist"], note: "renamed by the test" }],
  ])("%s keeps a pending code, which exchanges at its own scopes", async (_what, change) => {
    const { token } = await tokenFor(t, browser, "gist");
    const { id } = await authorizationOf(token);
    const { code } = await codeFor(browser, flow("gist"));
    await patch(id, change);
    const body = await exchanged(code);
    expect(body.access_token).toMatch(/^[0-9a-f]{40}$/);
    expect(body.scope).toBe("gist");
  });

  it("keeps used codes: after a narrowing, a reused code still revokes the token it bought", async () => {
    const { code } = await codeFor(browser, flow("repo,gist"));
    const first = await exchanged(code);
    expect(first.access_token).toMatch(/^[0-9a-f]{40}$/);
    await patch((await authorizationOf(first.access_token!)).id, { scopes: ["gist"] });
    expect((await exchanged(code)).error).toBe("bad_verification_code");
    expect((await api(t, "/events", first.access_token!)).status).toBe(401);
  });
});
