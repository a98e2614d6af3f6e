/**
 * Token lookups are remembered in process (reference/http/viewer-cache.ts). Each way a token can
 * change is exercised after the token has been used (so it is cached): the very next request
 * must see the change — a reset or revoked token is refused, re-scoped tokens carry the new
 * scopes — and made-up tokens stay refused however often they are tried.
 */
import { describe, expect, it } from "vitest";
import { DEMO, useServer } from "./harness.ts";
import { call, demoApp, octocat } from "./authorizations-client.ts";

const t = useServer();
let counter = 0;

async function newToken(scopes = ["repo"]): Promise<{ id: number; token: string }> {
  const res = await call(t.api, "PUT", `/authorizations/clients/${DEMO.app.clientId}/cache-${++counter}`, { auth: octocat, body: { client_secret: DEMO.app.clientSecret, scopes } });
  expect(res.status).toBe(201);
  return res.body;
}

/** Uses the token on an authenticated feed: its status and the scopes the server saw. */
async function use(token: string): Promise<{ status: number; scopes: string | null }> {
  const res = await fetch(`${t.api}/users/octocat/events`, { headers: { Authorization: `token ${token}` } });
  await res.arrayBuffer();
  return { status: res.status, scopes: res.headers.get("x-oauth-scopes") };
}

describe("cached token lookups follow every change at once", () => {
  it("a reset token is refused on its next request, the new one works", async () => {
    const { token } = await newToken();
    expect((await use(token)).status).toBe(200);
    const reset = await call(t.api, "POST", `/applications/${DEMO.app.clientId}/tokens/${token}`, { auth: demoApp });
    expect(reset.status).toBe(200);
    expect((await use(token)).status).toBe(401);
    expect((await use(reset.body.token)).status).toBe(200);
  });

  it("a revoked token is refused on its next request", async () => {
    const { token } = await newToken();
    expect((await use(token)).status).toBe(200);
    expect((await call(t.api, "DELETE", `/applications/${DEMO.app.clientId}/tokens/${token}`, { auth: demoApp })).status).toBe(204);
    expect((await use(token)).status).toBe(401);
  });

  it("a whole grant revoked refuses every cached token of it", async () => {
    const a = await newToken();
    const b = await newToken();
    expect((await use(a.token)).status).toBe(200);
    expect((await use(b.token)).status).toBe(200);
    expect((await call(t.api, "DELETE", `/applications/${DEMO.app.clientId}/grants/${a.token}`, { auth: demoApp })).status).toBe(204);
    expect((await use(a.token)).status).toBe(401);
    expect((await use(b.token)).status).toBe(401);
  });

  it("an authorization deleted through the authorizations API is refused", async () => {
    const { id, token } = await newToken();
    expect((await use(token)).status).toBe(200);
    expect((await call(t.api, "DELETE", `/authorizations/${id}`, { auth: octocat })).status).toBe(204);
    expect((await use(token)).status).toBe(401);
  });

  it("re-scoping shows in X-OAuth-Scopes on the next request", async () => {
    const { id, token } = await newToken(["gist"]);
    expect((await use(token)).scopes).toBe("gist");
    expect((await call(t.api, "PATCH", `/authorizations/${id}`, { auth: octocat, body: { add_scopes: ["repo"] } })).status).toBe(200);
    expect((await use(token)).scopes).toBe("gist, repo");
  });

  it("a made-up token is refused every time", async () => {
    for (let i = 0; i < 3; i++) expect((await use("f".repeat(40))).status).toBe(401);
  });
});
