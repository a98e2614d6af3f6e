/**
 * The `browser` authorize driver: Debian Chromium driven by playwright-core goes through the
 * target's authorize page as users[0] — fills the login form, approves the consent form (by the
 * profile's CSS selectors) — and hands back the redirect to the callback without following it.
 * A real browser is what gets through pages that need JavaScript, cookies set by scripts, or
 * multi-step sign-in that a plain form post cannot.
 *
 * The redirect is caught with the DevTools Fetch domain, not `page.route`: Playwright's routes
 * never see a request that a redirect started, but Fetch pauses every request, so the page load
 * of the callback is recorded and aborted before it leaves the browser (the callback need not
 * exist).
 * The same pause keeps credentials home: a request to an origin other than the target's two (or
 * the identity providers the profile names in `authorize.allowOrigins`) that carries a secret of
 * the profile in its URL or body — a login form posting elsewhere, a script sending the typed
 * password away — is failed in the browser, unsent, and the case fails against D-URL-ORIGINS.
 * A context-wide route makes the same check on the requests the page's session does not see
 * (popups, frames of other sites); service workers are blocked.
 * One Chromium per run, launched on first use; a fresh browser context (no cookies) per call.
 */
import type { Browser, CDPSession, Page } from "playwright-core";
import type { Profile } from "../core/profile.ts";
import { CaseFailure, SkipCase } from "../core/failure.ts";
import { homeOrigins, profileSecrets, secretLeavesHome } from "../core/credentials-home.ts";
import { guardContext, leaksSecret, type Home, type PausedRequest } from "./browser-guard.ts";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";

/** DESIGN.md's flags: headless, no sandbox (containers), and nothing that talks to the network on its own. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage",
];

/** Selectors matching the reference server's pages; a profile gives its own for other targets. */
export const DEFAULT_SELECTORS = {
  username: 'input[name="login"]',
  password: 'input[name="password"]',
  submit: 'form:has(input[type="password"]) [type="submit"]',
  approve: 'button[name="decision"][value="authorize"]',
  deny: 'button[name="decision"][value="deny"]',
};

/** How long a page may take to show the login or consent form. */
const FORM_WAIT_MS = 5_000;
/** Login and consent, plus a retry of each (some sign-ins add an interstitial). */
const MAX_STEPS = 5;

export interface BrowserAuthorizer {
  authorize(query: Record<string, string>, decision?: "approve" | "deny"): Promise<URL>;
  close(): Promise<void>;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  settled(): T | undefined;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let value: T | undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return {
    promise,
    resolve(v) {
      value ??= v;
      resolve(v);
    },
    settled: () => value,
  };
}

/**
 * Where the authorize flow ends: a page load of the registered callback or of the redirect_uri
 * asked for (same origin, path under theirs) — the target may send errors to the registered one
 * when it refuses the other — or of any other site with `code`, `error` or `state` in its query.
 * Other sites without those are let through: a sign-in may pass through an identity provider.
 */
function redirectMatcher(profile: Profile, authUrl: string, query: Record<string, string>): (url: URL) => boolean {
  const targets = [profile.app?.callbackUrl, query.redirect_uri].flatMap((t) => {
    try {
      return t ? [new URL(t)] : [];
    } catch {
      return []; // a relative or broken redirect_uri (a case testing that) is no place to end
    }
  });
  const authOrigin = new URL(authUrl).origin;
  return (url) => {
    if (targets.some((t) => url.origin === t.origin && url.pathname.startsWith(t.pathname))) return true;
    return url.origin !== authOrigin && ["code", "error", "state"].some((k) => url.searchParams.has(k));
  };
}

/** The most of a page's title and text a failure quotes. */
const TITLE_CHARS = 200;
const TEXT_CHARS = 300;

/**
 * What the page showed, for a failure: its URL, title and text, cut inside the page — a target's
 * page may be megabytes, and only these few hundred characters cross into the suite's process.
 */
async function describePage(page: Page): Promise<string> {
  const shown = await Promise.race([
    page.evaluate(
      ([titleChars, textChars]) => ({ title: document.title.slice(0, titleChars), text: (document.body?.innerText ?? "").slice(0, textChars * 4) }),
      [TITLE_CHARS, TEXT_CHARS] as const,
    ),
    // A page whose script never yields is described without its text, as before.
    new Promise<undefined>((resolve) => setTimeout(resolve, 1000)),
  ]).catch(() => undefined);
  const text = (shown?.text ?? "").replace(/\s+/g, " ").trim().slice(0, TEXT_CHARS);
  return `${page.url().slice(0, 2000)} "${shown?.title ?? ""}": ${text}`;
}

/** Catch the page load that ends the flow: record it, abort it; stop secrets leaving home; let everything else through. */
async function interceptRedirect(session: CDPSession, isFinal: (url: URL) => boolean, caught: Deferred<URL>, home: Home, leaked: Deferred<CaseFailure>): Promise<void> {
  session.on("Fetch.requestPaused", (event: { requestId: string; resourceType: string; request: PausedRequest }) => {
    const { requestId, request } = event;
    let url: URL | undefined;
    try {
      url = new URL(request.url);
    } catch {
      url = undefined;
    }
    if (url && event.resourceType === "Document" && isFinal(url)) {
      caught.resolve(url);
      session.send("Fetch.failRequest", { requestId, errorReason: "Aborted" }).catch(() => undefined);
    } else if (url && /^https?:$/.test(url.protocol) && leaksSecret(request, url, home)) {
      leaked.resolve(secretLeavesHome(url.href, home.origins, "a credential of the profile (in the URL or body of a request the page made)"));
      session.send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" }).catch(() => undefined);
    } else {
      session.send("Fetch.continueRequest", { requestId }).catch(() => undefined);
    }
  });
  await session.send("Fetch.enable", { patterns: [{ urlPattern: "*", requestStage: "Request" }] });
}

/** Whether the first element `selector` matches is shown (false when there is none). */
export async function visible(page: Page, selector: string): Promise<boolean> {
  return page
    .locator(selector)
    .first()
    .isVisible()
    .catch(() => false);
}

export function browserAuthorizer(profile: Profile, authUrl: string, baseUrl: string = authUrl): BrowserAuthorizer {
  const settings = profile.authorize;
  const home: Home = { origins: homeOrigins([authUrl, baseUrl], settings?.allowOrigins), secrets: profileSecrets(profile) };
  const selectors = {
    username: settings?.login?.username ?? DEFAULT_SELECTORS.username,
    password: settings?.login?.password ?? DEFAULT_SELECTORS.password,
    submit: settings?.login?.submit ?? DEFAULT_SELECTORS.submit,
    approve: settings?.consent?.approve ?? DEFAULT_SELECTORS.approve,
    deny: settings?.consent?.deny ?? DEFAULT_SELECTORS.deny,
  };
  let launching: Promise<Browser> | undefined;

  async function browser(): Promise<Browser> {
    launching ??= (async () => {
      let chromium;
      try {
        ({ chromium } = await import("playwright-core"));
      } catch {
        throw new CaseFailure("the browser driver needs the playwright-core package (npm install playwright-core)", {});
      }
      const executablePath = settings?.executablePath ?? process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM;
      try {
        return await chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 30_000 });
      } catch (error) {
        throw new CaseFailure(`cannot start Chromium at ${executablePath}: ${(error as Error).message.split("\n")[0]}`, {});
      }
    })();
    return launching;
  }

  async function walk(page: Page, caught: Deferred<URL>, start: string, decision: "approve" | "deny"): Promise<URL> {
    // The consent form is recognised by its approve button either way; the decision picks the one pressed.
    const press = decision === "deny" ? selectors.deny : selectors.approve;
    const user = profile.users[0]!;
    const loaded = () => page.waitForEvent("load", { timeout: 15_000 }).then(() => undefined, () => undefined);
    const firstLoad = loaded();
    page.goto(start).catch(() => undefined); // aborted when the page redirects straight to the callback
    await Promise.race([caught.promise, firstLoad]);
    let logins = 0;
    for (let step = 0; step < MAX_STEPS; step++) {
      const done = caught.settled();
      if (done) return done;
      // The forms are usually there at load; a script-rendered page gets a few seconds.
      await Promise.race([
        caught.promise,
        page
          .locator(`${selectors.username}, ${selectors.approve}`)
          .first()
          .waitFor({ state: "visible", timeout: FORM_WAIT_MS })
          .catch(() => undefined),
      ]);
      if (caught.settled()) return caught.settled()!;
      const next = loaded();
      if (await visible(page, selectors.username)) {
        if (++logins > 1) throw new CaseFailure(`signing in as ${user.login} did not get past the login form (check users[0].password and authorize.login)`, { expected: "the consent page or a redirect to the callback", actual: await describePage(page) });
        await page.locator(selectors.username).first().fill(user.login);
        await page.locator(selectors.password).first().fill(user.password ?? "");
        if (await visible(page, selectors.submit)) await page.locator(selectors.submit).first().click();
        else await page.locator(selectors.password).first().press("Enter");
      } else if (await visible(page, selectors.approve)) {
        if (!(await visible(page, press))) throw new CaseFailure(`the consent page has no ${decision} button`, { expected: `an element matching ${press}`, actual: await describePage(page) });
        await page.locator(press).first().click();
      } else {
        throw new CaseFailure("the authorize page showed neither the login form nor the consent form, and did not redirect to the callback", {
          expected: `a redirect to the callback, or a page matching ${selectors.username} or ${selectors.approve}`,
          actual: await describePage(page),
        });
      }
      await Promise.race([caught.promise, next]);
    }
    return caught.settled() ?? Promise.reject(new CaseFailure(`no redirect to the callback after ${MAX_STEPS} pages`, { expected: "a redirect to the callback", actual: await describePage(page) }));
  }

  return {
    async authorize(query, decision = "approve") {
      if (decision === "deny" && settings?.consent?.approve && !settings.consent.deny) {
        // A configured approve button but no deny: the default deny selector would be a guess.
        throw new SkipCase("the profile names no deny button (authorize.consent.deny)");
      }
      const isFinal = redirectMatcher(profile, authUrl, query);
      // Service workers blocked: their requests would pass by both checks.
      const context = await (await browser()).newContext({ serviceWorkers: "block" });
      try {
        const leaked = deferred<CaseFailure>();
        await guardContext(context, home, leaked);
        const page = await context.newPage();
        const caught = deferred<URL>();
        await interceptRedirect(await context.newCDPSession(page), isFinal, caught, home, leaked);
        // A secret stopped on its way out fails the case whatever the page did next.
        const stopped = leaked.promise.then((failure) => Promise.reject(failure));
        stopped.catch(() => undefined);
        const walking = walk(page, caught, `${authUrl}/login/oauth/authorize?${new URLSearchParams(query)}`, decision);
        walking.catch(() => undefined); // when the leak wins, the walk ends with the context, unheard
        const location = await Promise.race([walking, stopped]);
        const failure = leaked.settled();
        if (failure) throw failure;
        return location;
      } finally {
        await context.close().catch(() => undefined);
      }
    },
    async close() {
      if (!launching) return;
      const b = await launching.catch(() => undefined);
      await b?.close();
    },
  };
}
