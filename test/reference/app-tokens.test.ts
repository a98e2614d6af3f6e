/**
 * The application token endpoints over real HTTP, with Basic `client_id:client_secret`: check
 * (200 with the user), reset (200 with a new token; the old one dies at once), revoke (204) and
 * revoke the whole grant (204: every token of that user for the application); wrong or missing
 * client credentials (401), and tokens of other applications or made up (404).
 */
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../reference/auth/secrets.ts";
import { createApplication } from "../../reference/store/applications.ts";
import { basic, DEMO, useServer } from "./harness.ts";
import { call, demoApp, errorShape, hubot, octocat } from "./authorizations-client.ts";

const t = useServer();
const OTHER = { clientId: "other-client-id-0003", clientSecret: "other-client-secret-0003-keep-it-private" };
const otherApp = basic(OTHER.clientId, OTHER.clientSecret);

/** A new token of `user` for the demo application (a fingerprint per call keeps them apart). */
let counter = 0;
async function demoToken(user = octocat, scopes = ["repo"]): Promise<{ id: number; token: string }> {
  const res = await call(t.api, "PUT", `/authorizations/clients/${DEMO.app.clientId}/fp-${++counter}`, { auth: user, body: { client_secret: DEMO.app.clientSecret, scopes } });
  expect(res.status).toBe(201);
  return res.body;
}

async function works(token: string): Promise<boolean> {
  const res = await fetch(`${t.api}/events`, { headers: { Authorization: `token ${token}` } });
  await res.arrayBuffer();
  return res.status !== 401;
}

const tokenPath = (token: string, clientId: string = DEMO.app.clientId) => `/applications/${clientId}/tokens/${token}`;

describe("application token endpoints", () => {
  it("checks a token: 200 with the authorization and its user, token hidden", async () => {
    const { id, token } = await demoToken();
    const res = await call(t.api, "GET", tokenPath(token), { auth: demoApp });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, token: "", hashed_token: sha256Hex(token), token_last_eight: token.slice(-8), scopes: ["repo"] });
    expect(res.body.app).toEqual({ client_id: DEMO.app.clientId, name: "Demo App", url: "http://127.0.0.1:8080" });
    expect(res.body.user).toMatchObject({ login: "octocat", type: "User" });
    expect(res.headers.get("x-ratelimit-limit")).toBe("5000");
  });

  it("resets a token: 200 with the new token; the old one stops working at once", async () => {
    const { id, token } = await demoToken(hubot, ["gist"]);
    const res = await call(t.api, "POST", tokenPath(token), { auth: demoApp });
    expect(res.status).toBe(200);
    const fresh = res.body.token as string;
    expect(fresh).toMatch(/^[0-9a-f]{40}$/);
    expect(fresh).not.toBe(token);
    expect(res.body).toMatchObject({ id, hashed_token: sha256Hex(fresh), token_last_eight: fresh.slice(-8), scopes: ["gist"], user: { login: "hubot" } });
    expect(await works(token)).toBe(false);
    expect(await works(fresh)).toBe(true);
    expect((await call(t.api, "GET", tokenPath(token), { auth: demoApp })).status).toBe(404);
    expect((await call(t.api, "GET", tokenPath(fresh), { auth: demoApp })).status).toBe(200);
  });

  it("revokes a token: 204, it stops working, and a second revoke is a 404", async () => {
    const { token } = await demoToken();
    const keep = await demoToken();
    const res = await call(t.api, "DELETE", tokenPath(token), { auth: demoApp });
    expect(res.status).toBe(204);
    expect(await works(token)).toBe(false);
    expect(await works(keep.token)).toBe(true);
    expect((await call(t.api, "DELETE", tokenPath(token), { auth: demoApp })).status).toBe(404);
  });

  it("revokes a grant: 204, every token of that user for the application stops working, others keep working", async () => {
    const a = await demoToken(hubot);
    const b = await demoToken(hubot);
    const octocats = await demoToken(octocat);
    const personal = (await call(t.api, "POST", "/authorizations", { auth: hubot, body: {} })).body.token as string;
    const res = await call(t.api, "DELETE", `/applications/${DEMO.app.clientId}/grants/${a.token}`, { auth: demoApp });
    expect(res.status).toBe(204);
    expect(await works(a.token)).toBe(false);
    expect(await works(b.token)).toBe(false);
    expect(await works(octocats.token)).toBe(true);
    expect(await works(personal)).toBe(true);
    expect((await call(t.api, "DELETE", `/applications/${DEMO.app.clientId}/grants/${a.token}`, { auth: demoApp })).status).toBe(404);
  });

  describe("refusals", () => {
    it.each([
      ["GET", ""],
      ["POST", ""],
      ["DELETE", ""],
      ["DELETE", "grants"],
    ])("%s %s: wrong client secret → 401 Bad credentials, none → 401 Requires authentication", async (method, kind) => {
      const { token } = await demoToken();
      const path = kind === "grants" ? `/applications/${DEMO.app.clientId}/grants/${token}` : tokenPath(token);
      const wrong = await call(t.api, method, path, { auth: basic(DEMO.app.clientId, "wrong-secret") });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual(errorShape("Bad credentials"));
      const none = await call(t.api, method, path);
      expect(none.status).toBe(401);
      expect(none.body).toEqual(errorShape("Requires authentication"));
      const user = await call(t.api, method, path, { auth: octocat });
      expect(user.status).toBe(401);
      expect(await works(token)).toBe(true);
    });

    it("answers 404 for another application's token, and leaves it working", async () => {
      await createApplication(t.server.db, { clientId: OTHER.clientId, clientSecret: OTHER.clientSecret, name: "Other", url: "http://127.0.0.1:8090", callbackUrl: "http://127.0.0.1:8090/cb" });
      const { token } = await demoToken();
      for (const [method, path] of [
        ["GET", tokenPath(token, OTHER.clientId)],
        ["POST", tokenPath(token, OTHER.clientId)],
        ["DELETE", tokenPath(token, OTHER.clientId)],
        ["DELETE", `/applications/${OTHER.clientId}/grants/${token}`],
      ] as const) {
        const res = await call(t.api, method, path, { auth: otherApp });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body).toEqual(errorShape("Not Found"));
      }
      expect(await works(token)).toBe(true);
    });

    it("answers 404 when the path names another application than the credentials", async () => {
      const { token } = await demoToken();
      const res = await call(t.api, "GET", tokenPath(token, OTHER.clientId), { auth: demoApp });
      expect(res.status).toBe(404);
    });

    it("answers 404 for a personal token (it belongs to no application)", async () => {
      const personal = (await call(t.api, "POST", "/authorizations", { auth: octocat, body: {} })).body.token as string;
      expect((await call(t.api, "GET", tokenPath(personal), { auth: demoApp })).status).toBe(404);
    });

    it.each(["0000000000000000000000000000000000000000", "not-a-token", "%00", "a".repeat(99), "..%2f..%2fetc"])("answers 404 for the token %j", async (token) => {
      const res = await call(t.api, "GET", tokenPath(token), { auth: demoApp });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(errorShape("Not Found"));
    });

    it("never answers a 5xx to a token longer than the router takes", async () => {
      // Fastify refuses path parameters over 100 characters itself (414, not yet in the error shape).
      const res = await call(t.api, "GET", tokenPath("a".repeat(2000)), { auth: demoApp });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    });

    it.each([
      ["PUT", "tokens"],
      ["PATCH", "tokens"],
      ["GET", "grants"],
      ["POST", "grants"],
    ])("answers 404 to %s on %s (no such operation)", async (method, kind) => {
      const res = await call(t.api, method, `/applications/${DEMO.app.clientId}/${kind}/abc`, { auth: demoApp });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(errorShape("Not Found"));
    });

    it("ignores a request body on the reset (none is declared)", async () => {
      const { token } = await demoToken();
      const res = await call(t.api, "POST", tokenPath(token), { auth: demoApp, rawBody: "{broken", headers: { "Content-Type": "application/json" } });
      expect(res.status).toBeLessThan(500);
    });
  });
});
