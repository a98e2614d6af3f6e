/**
 * The browser side of the OAuth client suite: Debian Chromium through playwright-core (the
 * project's driver settings, conformance/authorize/browser.ts) opens the client's start URL, signs
 * in on the reference's login page as the demo user, approves or denies on the consent page, and
 * lets the client finish on its own pages. Every page load is seen through the DevTools Fetch
 * domain, which is how the suite records the authorize request the client built (its state,
 * redirect_uri, code_challenge) and holds the redirect to the client's callback — to read the
 * code, or hand the client another URL (a forged state) — before the client sees it.
 * One Chromium per run; a fresh browser context (no cookies) per sign-in.
 */
import type { Browser, CDPSession, Page } from "playwright-core";
import { CHROMIUM_ARGS, DEFAULT_CHROMIUM, DEFAULT_SELECTORS, visible } from "../../authorize/browser.ts";
import { CaseFailure } from "../../core/failure.ts";
import { SIGN_IN } from "./authorization-server.ts";

/** How long a whole sign-in may take, and how long the client's last page may keep loading. */
const FLOW_MS = 20_000;
const SETTLE_MS = 3_000;

export interface FlowOptions {
  startUrl: string;
  authUrl: string;
  callbackUrl: string;
  decision?: "approve" | "deny";
  /** Called once, when the browser is about to load the callback: returns the URL to load instead, or undefined. */
  onCallback?: (url: URL) => Promise<string | undefined> | string | undefined;
  signal?: AbortSignal;
}

export interface FlowResult {
  /** The authorize requests the client sent the browser to. */
  authorizeRequests: URL[];
  /** The callback as the authorization server redirected to it (before any change). */
  callback?: URL;
  /** The client's last page. */
  final: { url: string; text: string; status?: number };
}

export interface ClientBrowser {
  signIn(options: FlowOptions): Promise<FlowResult>;
  close(): Promise<void>;
}

function isUnder(url: URL, base: URL): boolean {
  return url.origin === base.origin && url.pathname.startsWith(base.pathname);
}

async function pageText(page: Page): Promise<string> {
  return (await page.locator("body").innerText({ timeout: 2000 }).catch(() => "")).replace(/\s+/g, " ").trim();
}

/** Pauses every page load; records authorize requests and holds the callback for `onCallback`. */
async function watchLoads(session: CDPSession, options: FlowOptions, result: FlowResult): Promise<void> {
  const authorize = new URL("/login/oauth/authorize", options.authUrl);
  const callback = new URL(options.callbackUrl);
  session.on("Fetch.requestPaused", (event: { requestId: string; request: { url: string } }) => {
    void (async () => {
      let url: URL | undefined;
      try {
        url = new URL(event.request.url);
      } catch {
        url = undefined;
      }
      let replacement: string | undefined;
      if (url && url.origin === authorize.origin && url.pathname === authorize.pathname) result.authorizeRequests.push(url);
      else if (url && !result.callback && isUnder(url, callback) && (url.searchParams.has("code") || url.searchParams.has("error"))) {
        result.callback = url;
        replacement = await options.onCallback?.(url);
      }
      await session.send("Fetch.continueRequest", { requestId: event.requestId, ...(replacement ? { url: replacement } : {}) });
    })().catch(() => session.send("Fetch.continueRequest", { requestId: event.requestId }).catch(() => undefined));
  });
  await session.send("Fetch.enable", { patterns: [{ urlPattern: "*", resourceType: "Document", requestStage: "Request" }] });
}

export function clientBrowser(): ClientBrowser {
  let launching: Promise<Browser> | undefined;
  const browser = () =>
    (launching ??= (async () => {
      const { chromium } = await import("playwright-core");
      const executablePath = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM;
      try {
        return await chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 30_000 });
      } catch (error) {
        throw new CaseFailure(`cannot start Chromium at ${executablePath}: ${(error as Error).message.split("\n")[0]}`, {});
      }
    })());

  async function walk(page: Page, options: FlowOptions, result: FlowResult): Promise<void> {
    const deadline = Date.now() + FLOW_MS;
    const authOrigin = new URL(options.authUrl).origin;
    await page.goto(options.startUrl, { timeout: FLOW_MS }).catch(() => undefined);
    let logins = 0;
    let decisions = 0;
    while (Date.now() < deadline) {
      options.signal?.throwIfAborted();
      // Back at the client once the callback has been loaded; before that, the client is still
      // on its way to the authorize page (or shows a page of its own first).
      if (result.callback && new URL(page.url()).origin !== authOrigin) return;
      await page
        .locator(`${DEFAULT_SELECTORS.username}, ${DEFAULT_SELECTORS.approve}`)
        .first()
        .waitFor({ state: "visible", timeout: 1000 })
        .catch(() => undefined);
      if (await visible(page, DEFAULT_SELECTORS.username)) {
        if (++logins > 2) throw new CaseFailure("signing in on the authorize page did not get past the login form", { actual: `${page.url()}: ${(await pageText(page)).slice(0, 300)}` });
        await page.locator(DEFAULT_SELECTORS.username).first().fill(SIGN_IN.login);
        await page.locator(DEFAULT_SELECTORS.password).first().fill(SIGN_IN.password);
        await Promise.all([page.waitForEvent("load", { timeout: 10_000 }).catch(() => undefined), page.locator(DEFAULT_SELECTORS.submit).first().click()]);
      } else if (await visible(page, DEFAULT_SELECTORS.approve)) {
        if (++decisions > 1) throw new CaseFailure("the consent page came back after the decision", { actual: page.url() });
        const press = options.decision === "deny" ? DEFAULT_SELECTORS.deny : DEFAULT_SELECTORS.approve;
        await Promise.all([page.waitForEvent("load", { timeout: 10_000 }).catch(() => undefined), page.locator(press).first().click()]);
      } else if (new URL(page.url()).origin === authOrigin) {
        throw new CaseFailure("the authorize page showed neither the login form nor the consent form", { actual: `${page.url()}: ${(await pageText(page)).slice(0, 300)}` });
      }
    }
    throw new CaseFailure(`the sign-in did not come back to the client within ${FLOW_MS / 1000} s`, { expected: `a redirect to ${options.callbackUrl}`, actual: page.url() });
  }

  return {
    async signIn(options) {
      const context = await (await browser()).newContext();
      const result: FlowResult = { authorizeRequests: [], final: { url: "", text: "" } };
      try {
        const page = await context.newPage();
        let status: number | undefined;
        page.on("response", (response) => {
          if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) status = response.status();
        });
        await watchLoads(await context.newCDPSession(page), options, result);
        await walk(page, options, result);
        // The client's own pages: let its redirects and last page finish.
        await page.waitForLoadState("load", { timeout: SETTLE_MS }).catch(() => undefined);
        await page.waitForLoadState("networkidle", { timeout: SETTLE_MS }).catch(() => undefined);
        result.final = { url: page.url(), text: await pageText(page), status };
        return result;
      } finally {
        await context.close().catch(() => undefined);
      }
    },
    async close() {
      const b = await launching?.catch(() => undefined);
      await b?.close();
    },
  };
}
