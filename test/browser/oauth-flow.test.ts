/**
 * The OAuth web flow in a real browser against the reference server: the generated client builds
 * the authorize URL, Chromium signs in as octocat, sees the consent page (screenshot in
 * test-results/consent.png), approves and is redirected to the demo application's callback
 * http://127.0.0.1:8080/callback with a code and the same state; the client exchanges the code
 * and the token works on the API host. Then the review page's Revoke button, clicked in the
 * browser, stops the token at once. The pages load nothing but themselves and break no
 * Content-Security-Policy rule on the way (Chromium applies form-action to the redirect too).
 *
 * Playwright cannot route a request that a redirect started (page.route sees only the first URL
 * of a redirect chain), so the callback is observed with waitForRequest, and answered by a small
 * stand-in application on 127.0.0.1:8080 when that port is free.
 */
import { readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceClient } from "../../generated/client/index.ts";
import { DEMO, useServer } from "../reference/harness.ts";
import { chromiumSkip, launchChromium, saveArtifact } from "./chromium.ts";
import { ceiling } from "../ceilings.ts";

const t = useServer();
const CALLBACK = DEMO.app.callback;

/** The demo application's callback, if 127.0.0.1:8080 is free; undefined otherwise. */
async function standInApplication(): Promise<Server | undefined> {
  const server = createServer((req, res) => {
    const ok = req.url?.startsWith("/callback");
    res.writeHead(ok ? 200 : 404, { "content-type": "text/html; charset=utf-8" }).end(ok ? "<!DOCTYPE html><title>Callback</title><p>callback received</p>" : "");
  });
  return new Promise((resolve) => {
    server.once("error", () => resolve(undefined));
    server.listen(8080, "127.0.0.1", () => resolve(server));
  });
}

describe("OAuth web flow in Chromium", () => {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let skipReason: string | undefined;
  const problems: string[] = [];
  const foreign: string[] = [];
  let token: string | undefined;
  let application: Server | undefined;

  beforeAll(async () => {
    skipReason = await chromiumSkip(); // throws under CI when Chromium is missing
    if (skipReason !== undefined) {
      console.warn(`Skipping browser tests: ${skipReason}`);
      return;
    }
    application = await standInApplication();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 900, height: 820 } });
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(`${t.auth}/`) || url.startsWith(CALLBACK)) return route.continue();
      foreign.push(url);
      return route.abort();
    });
    page = await context.newPage();
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    // CSP violations (form-action on the redirect to the callback, inline styles) show up as console errors.
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
    });
  }, ceiling(60_000));

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await new Promise((resolve) => (application ? application.close(resolve) : resolve(undefined)));
  });

  it("signs in, shows the consent page, approves and lands on the callback with a code and the same state", async (ctx) => {
    if (!browser) return ctx.skip(skipReason);
    const client = new ServiceClient({ baseUrl: t.api, authUrl: t.auth });
    const { url, state } = client.authorizeUrl({ clientId: DEMO.app.clientId, scopes: ["user", "gist", "user:email"] });

    await page.goto(url);
    expect(await page.title()).toBe("Sign in");
    ctx.annotate(`screenshot: ${saveArtifact("login.png", await page.screenshot({ fullPage: true }))}`);
    await page.getByLabel("Username").fill(DEMO.octocat.login);
    await page.getByLabel("Password").fill(DEMO.octocat.password);
    await page.getByRole("button", { name: "Sign in" }).click();

    await page.getByRole("heading", { name: "Authorize Demo App" }).waitFor();
    const scopes = await page.locator("ul.scopes code").allTextContents();
    expect(scopes).toEqual(["gist", "user"]);
    await expect.poll(() => page.locator("ul.scopes").textContent()).toContain("Write access to gists.");
    expect(await page.locator("ul.scopes").textContent()).toContain("Read/write access to profile info only; includes user:email and user:follow.");
    expect(await page.getByRole("button", { name: "Deny" }).isVisible()).toBe(true);
    const consentShot = saveArtifact("consent.png", await page.screenshot({ fullPage: true }));
    // The artifact is a real PNG on disk, not an empty file.
    expect(readFileSync(consentShot).subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(statSync(consentShot).size).toBeGreaterThan(5_000);
    ctx.annotate(`screenshot: ${consentShot}`);

    const [callback] = await Promise.all([
      page.waitForRequest((r) => r.url().startsWith(CALLBACK) && r.isNavigationRequest()),
      page.getByRole("button", { name: "Authorize Demo App" }).click(),
    ]);
    const landed = new URL(callback.url());
    if (application) {
      await page.waitForURL((u) => u.href.startsWith(CALLBACK));
      expect(await page.textContent("p")).toBe("callback received");
    } else ctx.annotate("127.0.0.1:8080 is taken: the redirect was observed, not answered");
    expect(`${landed.origin}${landed.pathname}`).toBe(CALLBACK);
    client.checkState(state, landed.searchParams.get("state"));
    const code = landed.searchParams.get("code")!;
    expect(code).toMatch(/^[0-9a-f]{40}$/);

    const access = await client.exchangeCode({ clientId: DEMO.app.clientId, clientSecret: DEMO.app.clientSecret, code, format: "json" });
    expect(access.token_type).toBe("bearer");
    expect(access.scopes.sort()).toEqual(["gist", "user"]);
    token = access.access_token;

    const res = await fetch(`${t.api}/events`, { headers: { authorization: `token ${token}` } });
    expect(res.status).not.toBe(401);
    expect(res.headers.get("x-oauth-scopes")).toBe("gist, user");

    // Without the stand-in application, Chromium logs the refused connection to the callback.
    expect(problems.filter((p) => application || !p.includes("ERR_CONNECTION_REFUSED"))).toEqual([]);
    expect(foreign).toEqual([]);
  }, ceiling(60_000));

  it("revokes the grant from the review page; the token stops working at once", async (ctx) => {
    if (!browser || !token) return ctx.skip(skipReason ?? "the flow test did not produce a token");
    await page.goto(`${t.auth}/settings/connections/applications/${DEMO.app.clientId}`);
    await page.getByRole("heading", { name: "Demo App" }).waitFor();
    expect(await page.locator("ul.scopes code").allTextContents()).toEqual(["gist", "user"]);
    ctx.annotate(`screenshot: ${saveArtifact("review.png", await page.screenshot({ fullPage: true }))}`);
    await page.getByRole("button", { name: "Revoke access" }).click();
    await page.getByRole("heading", { name: "Access revoked" }).waitFor();

    const res = await fetch(`${t.api}/events`, { headers: { authorization: `token ${token}` } });
    expect(res.status).toBe(401);
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
  }, ceiling(60_000));
});
