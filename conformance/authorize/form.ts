/**
 * The plain-HTTP authorize driver: gets through `GET {auth_url}/login/oauth/authorize` the way a
 * browser without script would. It opens the authorize URL, fills the login form (field names
 * from `profile.authorize.login`, default `login` / `password`), follows the redirects back to
 * the authorize page, presses the consent form's approve (or deny) button, and returns the
 * redirect to the application — the `Location` pointing at the callback — without following it.
 * When the authorize page redirects at once (an error, or an application the user already
 * authorized) that `Location` is the answer. Cookies are kept between requests, and form posts
 * carry this site's `Origin` and `Referer`, as a browser's do (CSRF checks look at them).
 *
 * `consent.approve` / `consent.deny` name the submit button as `name=value` (or just `name`);
 * without them the buttons are recognised by their text (Authorize/Approve/Allow, Deny/Cancel).
 * Every request goes through the case's HttpClient when one is given, so the authorize page's
 * answers are validated against the contract and the last request can be shown as curl (with the
 * password masked).
 */
import { HttpClient, type HttpResponse } from "../core/http.ts";
import { CaseFailure, SkipCase } from "../core/failure.ts";
import type { Profile, ProfileUser } from "../core/profile.ts";
import { homeOrigins, keepSecretsHome, profileSecrets } from "../core/credentials-home.ts";
import { extractForms, formData, MAX_FORM_PAGE_CHARS, type HtmlForm, type SubmitButton } from "./html-forms.ts";

export const AUTHORIZE_PATH = "/login/oauth/authorize";
const MAX_STEPS = 12;
const HTML_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8";

export interface AuthorizeOptions {
  /** Press approve (default) or deny on the consent page. */
  decision?: "approve" | "deny";
  /** The case's client: records every exchange and validates the authorize page's answers. */
  http?: HttpClient;
  /** Who signs in (default profile.users[0]). */
  user?: ProfileUser;
}

/** Host-only cookies of the web host; enough for a sign-in session and a CSRF cookie. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string | undefined {
    return this.cookies.size === 0 ? undefined : [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  remember(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => {
        const [k = "", v = ""] = a.split("=").map((s) => s.trim());
        if (/^max-age$/i.test(k)) return Number(v) <= 0;
        if (/^expires$/i.test(k)) return Date.parse(v) < Date.now();
        return false;
      });
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/** `name=value` or `name` → a predicate on submit buttons; undefined spec → match by text. */
function buttonMatcher(spec: string | undefined, fallback: RegExp): (b: SubmitButton) => boolean {
  if (!spec) return (b) => fallback.test(b.text) || fallback.test(b.value);
  const eq = spec.indexOf("=");
  const name = eq >= 0 ? spec.slice(0, eq) : spec;
  const value = eq >= 0 ? spec.slice(eq + 1) : undefined;
  return (b) => b.name === name && (value === undefined || b.value === value);
}

const APPROVE_TEXT = /\b(authori[sz]e|approve|allow|accept|grant)\b/i;
const DENY_TEXT = /\b(deny|cancel|reject|decline)\b/i;

function mask(text: string, secret: string): string {
  const encoded = new URLSearchParams({ s: secret }).toString().slice(2);
  return text.split(encoded).join("***");
}

function snippet(text: string): string {
  return text.replace(/\s+/g, " ").slice(0, 300);
}

/** Where the flow is done: any place off the web host, or the callback / redirect_uri itself. */
function isFinal(location: URL, authOrigin: string, targets: URL[]): boolean {
  if (location.origin !== authOrigin) return true;
  return targets.some((t) => location.origin === t.origin && location.pathname.startsWith(t.pathname));
}

function parseUrl(value: string | undefined, base?: string): URL | undefined {
  if (!value) return undefined;
  try {
    return new URL(value, base);
  } catch {
    return undefined;
  }
}

export async function authorizeWithForm(profile: Profile, authUrl: string, query: Record<string, string>, options: AuthorizeOptions = {}): Promise<URL> {
  const user = options.user ?? profile.users[0];
  if (!user?.password) throw new SkipCase(`the profile gives no password for ${user?.login ?? "users[0]"}, so the login form cannot be filled`);
  const http = options.http ?? new HttpClient(authUrl, authUrl);
  const decision = options.decision ?? "approve";
  const loginField = profile.authorize?.login?.username ?? "login";
  const passwordField = profile.authorize?.login?.password ?? "password";
  const submitSpec = profile.authorize?.login?.submit;
  const consent = profile.authorize?.consent;
  const wanted = decision === "approve" ? buttonMatcher(consent?.approve, APPROVE_TEXT) : buttonMatcher(consent?.deny, DENY_TEXT);
  if (decision === "deny" && !consent?.deny && consent?.approve) {
    // A configured approve button but no deny: guessing would risk pressing approve.
    throw new SkipCase("the profile names no deny button (authorize.consent.deny)");
  }

  const jar = new CookieJar();
  const authOrigin = new URL(authUrl).origin;
  const targets = [parseUrl(profile.app?.callbackUrl), parseUrl(query.redirect_uri)].filter((u): u is URL => u !== undefined);
  let url = new URL(AUTHORIZE_PATH, authUrl.endsWith("/") ? authUrl : `${authUrl}/`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);

  const get = async (target: URL): Promise<HttpResponse> => {
    const cookie = jar.header();
    const isAuthorize = target.origin === authOrigin && target.pathname === AUTHORIZE_PATH;
    const res = await http.request({
      ...(isAuthorize ? { operationId: "authorize" as const } : {}),
      method: "GET",
      path: target.href,
      headers: { accept: HTML_ACCEPT, ...(cookie ? { cookie } : {}) },
    });
    jar.remember(res.headers);
    return res;
  };

  // The password goes only where the target's pages live, or to an identity provider the profile names.
  const home = homeOrigins([http.baseUrl, http.authUrl], profile.authorize?.allowOrigins);
  const secrets = [...profileSecrets(profile), ...(user.password ? [user.password] : [])];

  const submit = async (page: URL, form: HtmlForm, values: Record<string, string>, button?: SubmitButton, secret?: string): Promise<HttpResponse> => {
    const action = new URL(form.action || page.href, page);
    const data = formData(form, values, button);
    if (form.method === "GET") for (const [k, v] of Object.entries(data)) action.searchParams.set(k, v);
    // Before anything is sent: a form of the target's posting the password elsewhere fails the case (D-URL-ORIGINS).
    keepSecretsHome({ url: action.href, body: form.method === "GET" ? undefined : new URLSearchParams(data).toString() }, home, secrets);
    const cookie = jar.header();
    const headers: Record<string, string> = { accept: HTML_ACCEPT, origin: page.origin, referer: page.href, ...(cookie ? { cookie } : {}) };
    let res: HttpResponse;
    try {
      if (form.method === "GET") res = await http.request({ method: "GET", path: action.href, headers });
      else res = await http.request({ method: "POST", path: action.href, headers, form: data });
    } catch (error) {
      // A request that got no answer names its URL in the failure (a GET form's carries the password).
      if (secret && error instanceof Error) error.message = mask(error.message, secret);
      throw error;
    } finally {
      // The password must not reach reports through the recorded exchange or the request sent.
      for (const sent of [http.last, http.lastSent]) {
        if (!secret || !sent) continue;
        if (sent.requestBody) sent.requestBody = mask(sent.requestBody, secret);
        sent.url = mask(sent.url, secret);
      }
    }
    jar.remember(res.headers);
    url = action;
    return res;
  };

  let res = await get(url);
  let signedIn = false;
  for (let step = 0; step < MAX_STEPS; step++) {
    if (res.status >= 300 && res.status < 400) {
      const location = parseUrl(res.headers.get("location") ?? undefined, url.href);
      if (!location) throw new CaseFailure(`the authorize flow got a ${res.status} without a usable Location`, { expected: "a Location header", actual: res.headers.get("location"), pointer: "/headers/location" });
      if (isFinal(location, authOrigin, targets)) return location;
      url = location;
      res = await get(url);
      continue;
    }
    if (res.status !== 200) {
      throw new CaseFailure(`the authorize flow stopped at ${url.pathname} with status ${res.status}`, { expected: "a login page, a consent page or a redirect", actual: `${res.status} ${snippet(res.text)}`, pointer: "/status" });
    }
    const forms = extractForms(res.text);
    const login = forms.find((f) => f.fields.some((x) => x.name === loginField) && f.fields.some((x) => x.name === passwordField));
    if (login) {
      if (signedIn) throw new CaseFailure(`signing in as ${user.login} failed: the login form came back`, { expected: "the consent page or a redirect", actual: snippet(res.text) });
      signedIn = true;
      const button = submitSpec ? login.buttons.find(buttonMatcher(submitSpec, /./)) : undefined;
      res = await submit(url, login, { [loginField]: user.login, [passwordField]: user.password }, button, user.password);
      continue;
    }
    const choice = forms.flatMap((f) => f.buttons.filter(wanted).map((b) => ({ form: f, button: b })))[0];
    if (choice) {
      res = await submit(url, choice.form, {}, choice.button);
      continue;
    }
    const cut = res.text.length > MAX_FORM_PAGE_CHARS ? ` in its first ${MAX_FORM_PAGE_CHARS / 1024} KiB (the rest of a page is not read)` : "";
    throw new CaseFailure(`the page at ${url.pathname} has neither the login form (${loginField}, ${passwordField}) nor a consent button to ${decision}${cut}`, {
      expected: `a form with ${decision === "approve" ? consent?.approve ?? "an Authorize button" : consent?.deny ?? "a Deny button"}`,
      actual: snippet(res.text),
    });
  }
  throw new CaseFailure(`the authorize flow did not reach the callback within ${MAX_STEPS} steps`, { actual: url.href });
}
