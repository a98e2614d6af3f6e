/**
 * Driving the web host's pages over plain HTTP for the OAuth tests: a minimal cookie jar (the
 * pages' cookies are all host-only and Path=/), form posts with this site's Origin, and the
 * steps of the web flow (sign in, consent, exchange) as one-liners. `redirect: "manual"`
 * everywhere: the tests look at each redirect.
 */
import { expect } from "vitest";
import { DEMO, type TestServer } from "./harness.ts";

export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(readonly origin: string) {}

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  remember(res: Response): Response {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/max-age=0/i.test(c) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.remember(await fetch(new URL(path, this.origin), { redirect: "manual", headers: { cookie: this.header(), ...headers } }));
  }

  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.remember(
      await fetch(new URL(path, this.origin), {
        method: "POST",
        redirect: "manual",
        headers: { cookie: this.header(), origin: this.origin, "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(fields),
      }),
    );
  }
}

function unescape(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** The hidden fields of the form posting to `action` on a page. */
export function formFields(page: string, action: string): Record<string, string> {
  const start = page.indexOf(`action="${action}"`);
  expect(start, `a form posting to ${action}`).toBeGreaterThan(-1);
  const form = page.slice(start, page.indexOf("</form>", start));
  return Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, unescape(m[2]!)]));
}

export const PATHS = {
  authorize: "/login/oauth/authorize",
  token: "/login/oauth/access_token",
  signIn: "/session",
  signOut: "/session/end",
  decision: "/login/oauth/authorize/decision",
  review: (clientId: string) => `/settings/connections/applications/${clientId}`,
  revoke: (clientId: string) => `/settings/connections/applications/${clientId}/revoke`,
};

export function authorizePath(params: Record<string, string>): string {
  return `${PATHS.authorize}?${new URLSearchParams(params)}`;
}

/** Opens `returnTo` (a page showing the login form) and signs in; returns the response of the sign-in post. */
export async function signIn(browser: Browser, login: string, password: string, returnTo = "/login/oauth/authorize?client_id=demo-client-id-0001", extra: Record<string, string> = {}): Promise<Response> {
  const page = await (await browser.get(returnTo)).text();
  const fields = formFields(page, PATHS.signIn);
  return browser.post(PATHS.signIn, { ...fields, login, password, ...extra });
}

export const USERS = {
  octocat: [DEMO.octocat.login, DEMO.octocat.password],
  hubot: [DEMO.hubot.login, DEMO.hubot.password],
  defunkt: [DEMO.defunkt.login, DEMO.defunkt.password],
} as const;

/** A browser signed in as `user`. */
export async function signedInBrowser(t: TestServer, user: keyof typeof USERS): Promise<Browser> {
  const browser = new Browser(t.auth);
  const [login, password] = USERS[user];
  const res = await signIn(browser, login, password);
  expect(res.status).toBe(303);
  expect(browser.cookies.has("service_session")).toBe(true);
  return browser;
}

/** Opens the authorize URL (expecting the consent page) and posts `decision`; returns the redirect. */
export async function decide(browser: Browser, params: Record<string, string>, decision: "authorize" | "deny"): Promise<Response> {
  const res = await browser.get(authorizePath(params));
  expect(res.status, "the consent page").toBe(200);
  const fields = formFields(await res.text(), PATHS.decision);
  return browser.post(PATHS.decision, { ...fields, decision });
}

/**
 * A fresh code for `params`: through the consent page, or straight from the authorize redirect
 * when the user already granted the application what it asks for.
 */
export async function codeFor(browser: Browser, params: Record<string, string>): Promise<{ code: string; location: URL }> {
  const first = await browser.get(authorizePath(params));
  const res = first.status === 302 ? first : await browser.post(PATHS.decision, { ...formFields(await first.text(), PATHS.decision), decision: "authorize" });
  expect([302, 303]).toContain(res.status);
  const location = new URL(res.headers.get("location")!);
  const code = location.searchParams.get("code");
  expect(code).toMatch(/^[0-9a-f]{40}$/);
  return { code: code!, location };
}

export async function exchange(t: TestServer, fields: Record<string, string>, accept?: string): Promise<Response> {
  return fetch(`${t.auth}${PATHS.token}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(accept ? { accept } : {}) },
    body: new URLSearchParams(fields),
  });
}

export const APP_CREDENTIALS = { client_id: DEMO.app.clientId, client_secret: DEMO.app.clientSecret };

/** A token for the demo app, via the whole web flow; `browser` must be signed in. */
export async function tokenFor(t: TestServer, browser: Browser, scope: string): Promise<{ token: string; scope: string }> {
  const { code } = await codeFor(browser, { client_id: DEMO.app.clientId, scope });
  const body = new URLSearchParams(await (await exchange(t, { ...APP_CREDENTIALS, code })).text());
  expect(body.get("access_token")).toMatch(/^[0-9a-f]{40}$/);
  return { token: body.get("access_token")!, scope: body.get("scope")! };
}

export function api(t: TestServer, path: string, token: string): Promise<Response> {
  return fetch(`${t.api}${path}`, { headers: { authorization: `token ${token}` } });
}
