/**
 * The review page `GET /settings/connections/applications/:client_id` and its Revoke button:
 * the login page when signed out, 404 without a grant, the grant's scopes, CSRF on the revoke
 * post, and revocation that takes effect on the API host at once (tokens of both flows, and
 * codes not yet exchanged).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO, basic, useServer } from "./harness.ts";
import { api, APP_CREDENTIALS, authorizePath, Browser, codeFor, exchange, formFields, PATHS, signedInBrowser, tokenFor } from "./oauth-web.ts";

const t = useServer();
const REVIEW = PATHS.review(DEMO.app.clientId);

describe("the review page", () => {
  it("shows the login page when signed out, coming back to the review page", async () => {
    const res = await new Browser(t.auth).get(REVIEW);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(formFields(await res.text(), PATHS.signIn).return_to).toBe(REVIEW);
  });

  it("is a 404 page for a user without a grant, and for an unknown application", async () => {
    const browser = await signedInBrowser(t, "defunkt");
    for (const path of [REVIEW, PATHS.review("no-such-client"), PATHS.review(DEMO.suspendedApp.clientId)]) {
      const res = await browser.get(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'/);
    }
  });

  it("answers long client_ids without a 5xx: 404 when signed in, a 4xx past the URL limits", async () => {
    const browser = await signedInBrowser(t, "defunkt");
    expect((await browser.get(PATHS.review("x".repeat(300)))).status).toBe(404);
    const res = await browser.get(PATHS.review("x".repeat(5000)));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe("revoking", () => {
  let browser: Browser;
  let webToken: string;
  beforeAll(async () => {
    browser = await signedInBrowser(t, "octocat");
    webToken = (await tokenFor(t, browser, "repo,user:email")).token;
  });

  it("lists the application, its scopes and a Revoke form", async () => {
    const res = await browser.get(REVIEW);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("Demo App");
    expect(page).toContain("<code>repo</code>");
    expect(page).toContain("<code>user:email</code>");
    expect(formFields(page, PATHS.revoke(DEMO.app.clientId)).csrf_token).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a revoke post without the token or from another site, and the token keeps working", async () => {
    const fields = formFields(await (await browser.get(REVIEW)).text(), PATHS.revoke(DEMO.app.clientId));
    expect((await browser.post(PATHS.revoke(DEMO.app.clientId), {})).status).toBe(403);
    expect((await browser.post(PATHS.revoke(DEMO.app.clientId), { csrf_token: "1".repeat(64) })).status).toBe(403);
    expect((await browser.post(PATHS.revoke(DEMO.app.clientId), fields, { origin: "https://evil.example" })).status).toBe(403);
    expect((await new Browser(t.auth).post(PATHS.revoke(DEMO.app.clientId), fields)).status).toBe(403);
    expect((await api(t, "/events", webToken)).status).not.toBe(401);
  });

  it("revokes every token of the user for the application and pending codes; the API refuses them at once", async () => {
    // A token of the non-web flow for the same application (own fingerprint), and a code not yet exchanged.
    const put = await fetch(`${t.api}/authorizations/clients/${DEMO.app.clientId}/laptop`, {
      method: "PUT",
      headers: { authorization: basic(DEMO.octocat.login, DEMO.octocat.password), "content-type": "application/json" },
      body: JSON.stringify({ client_secret: DEMO.app.clientSecret, scopes: ["gist"] }),
    });
    expect(put.status).toBe(201);
    const apiToken = ((await put.json()) as { token: string }).token;
    const { code: pending } = await codeFor(browser, { client_id: DEMO.app.clientId, scope: "repo" });
    // Another user's grant to the same application is not touched.
    const hubot = await signedInBrowser(t, "hubot");
    const hubotToken = (await tokenFor(t, hubot, "gist")).token;

    expect((await api(t, "/events", webToken)).status).not.toBe(401);
    const fields = formFields(await (await browser.get(REVIEW)).text(), PATHS.revoke(DEMO.app.clientId));
    const res = await browser.post(PATHS.revoke(DEMO.app.clientId), fields);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Access revoked");

    const after = await api(t, "/events", webToken);
    expect(after.status).toBe(401);
    expect((await after.json()).message).toBe("Bad credentials");
    expect((await api(t, "/events", apiToken)).status).toBe(401);
    expect((await (await exchange(t, { ...APP_CREDENTIALS, code: pending }, "application/json")).json()).error).toBe("bad_verification_code");
    expect((await api(t, "/events", hubotToken)).status).not.toBe(401);

    expect((await browser.get(REVIEW)).status).toBe(404);
    expect((await browser.post(PATHS.revoke(DEMO.app.clientId), fields)).status).toBe(404);
    // No grant any more: authorizing again asks for consent instead of completing at once.
    expect((await browser.get(authorizePath({ client_id: DEMO.app.clientId, scope: "repo" }))).status).toBe(200);
  });
});
