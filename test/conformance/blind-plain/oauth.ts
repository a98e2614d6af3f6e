// oauth.ts — the OAuth web flow on the web host: authorize (redirect_uri rules, sign-in, consent with CSRF,
// automatic completion), the code-for-token exchange in form / JSON / XML, and the review/revoke page.
import type { App } from "./store.ts";
import { type Reply } from "./http.ts";
import { appPage, appsPage, consentPage, messagePage } from "./pages.ts";
import type { Router } from "./router.ts";
import { covers, normalize, parseScopeList } from "./scopes.ts";
import { escapeHtml, randomHex, safeEqual } from "./util.ts";
import { ensureSession, html, redirect, session, toLogin, type WebCtx } from "./web.ts";

const CODE_TTL_MS = 10 * 60_000;

/** The effective redirect URI, or null when it breaks the rules (same scheme, host and port; callback path or below). */
export function checkRedirect(app: App, raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined || raw === "") return app.callbackUrl;
  let u: URL;
  let cb: URL;
  try { u = new URL(raw); cb = new URL(app.callbackUrl); } catch { return null; }
  if (u.protocol !== cb.protocol || u.host !== cb.host || u.username !== "" || u.password !== "" || u.hash !== "") return null;
  const base = cb.pathname.endsWith("/") ? cb.pathname : `${cb.pathname}/`;
  if (u.pathname !== cb.pathname && !u.pathname.startsWith(base)) return null;
  return u.href;
}

function withParams(target: string, params: Record<string, string | null>): string {
  const u = new URL(target);
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v);
  return u.href;
}

const ERROR_TEXT: Record<string, string> = {
  application_suspended: "Your application has been suspended. Contact support.",
  redirect_uri_mismatch: "The redirect_uri MUST match the registered callback URL for this application.",
  access_denied: "The user has denied your application access.",
  incorrect_client_credentials: "The client_id and/or client_secret passed are incorrect.",
  bad_verification_code: "The code passed is incorrect or expired.",
};

const errorUri = (c: WebCtx, error: string): string => `${c.w.web}/developers/oauth-errors#${error.replace(/_/g, "-")}`;

function errorRedirect(c: WebCtx, target: string, error: string, state: string | null): Reply {
  return redirect(withParams(target, { error, error_description: ERROR_TEXT[error] ?? error, error_uri: errorUri(c, error), state }));
}

interface AuthRequest { app: App; redirectUri: string; rawRedirect: string | null; scopes: string[]; state: string | null }

/** Validates client and redirect_uri; a Reply when the request ends here. */
function parseRequest(c: WebCtx, get: (k: string) => string | null): AuthRequest | Reply {
  const app = c.w.store.apps.get(get("client_id") ?? "");
  if (!app) return html(404, messagePage("Not Found", "No application with this client_id."));
  const state = get("state");
  const rawRedirect = get("redirect_uri");
  const redirectUri = checkRedirect(app, rawRedirect);
  if (!redirectUri) return errorRedirect(c, app.callbackUrl, "redirect_uri_mismatch", state);
  if (app.suspended) return errorRedirect(c, app.callbackUrl, "application_suspended", state);
  return { app, redirectUri, rawRedirect, scopes: normalize(parseScopeList(get("scope"))), state };
}

function issueCode(c: WebCtx, ar: AuthRequest, login: string, scopes: string[]): Reply {
  const code = randomHex(10);
  c.w.store.codes.set(code, { clientId: ar.app.clientId, login, scopes, expires: Date.now() + CODE_TTL_MS });
  return redirect(withParams(ar.redirectUri, { code, state: ar.state }));
}

type Format = "json" | "xml" | "form";
function tokenReply(format: Format, status: number, fields: Record<string, string>): Reply {
  const headers = { "Cache-Control": "no-store" };
  if (format === "json") return { status, body: fields, headers };
  if (format === "xml") {
    const inner = Object.entries(fields).reverse().map(([k, v]) => `<${k}>${escapeHtml(v)}</${k}>`).join("");
    return { status, text: `<?xml version="1.0" encoding="UTF-8"?>\n<OAuth>${inner}</OAuth>`, headers: { ...headers, "Content-Type": "application/xml; charset=utf-8" } };
  }
  return { status, text: new URLSearchParams(fields).toString(), headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded; charset=utf-8" } };
}

function formatOf(accept: string | undefined): Format {
  const a = (accept ?? "").toLowerCase();
  return a.includes("json") ? "json" : a.includes("xml") ? "xml" : "form";
}

/** Token request parameters from a form or JSON body, the query string, or Basic client credentials. */
async function tokenParams(c: WebCtx): Promise<(k: string) => string | null> {
  const raw = (await c.body()).toString("utf8");
  let fromBody: (k: string) => string | null;
  if ((c.req.headers["content-type"] ?? "").includes("json")) {
    let obj: Record<string, unknown> = {};
    try { const v: unknown = JSON.parse(raw); if (v && typeof v === "object" && !Array.isArray(v)) obj = v as Record<string, unknown>; } catch { obj = {}; }
    fromBody = (k) => { const v = obj[k]; return typeof v === "string" ? v : typeof v === "number" ? String(v) : null; };
  } else {
    const f = new URLSearchParams(raw);
    fromBody = (k) => f.get(k);
  }
  const basic = /^Basic\s+(.+)$/i.exec(c.req.headers.authorization ?? "")?.[1];
  const pair = basic ? Buffer.from(basic, "base64").toString("utf8") : "";
  const i = pair.indexOf(":");
  const creds: Record<string, string> = i > 0 ? { client_id: pair.slice(0, i), client_secret: pair.slice(i + 1) } : {};
  return (k) => fromBody(k) ?? c.url.searchParams.get(k) ?? creds[k] ?? null;
}

export function registerOAuth(r: Router<WebCtx>): void {
  r.on("GET", "/login/oauth/authorize", (c) => {
    const ar = parseRequest(c, (k) => c.url.searchParams.get(k));
    if ("status" in ar) return ar;
    const s = session(c);
    if (!s?.login) return toLogin(c);
    const grant = c.w.store.grantFor(s.login, ar.app.clientId);
    const hasToken = c.w.store.authsFor(s.login, ar.app.clientId).length > 0;
    if (grant && hasToken && covers(grant.scopes, ar.scopes)) return issueCode(c, ar, s.login, grant.scopes);
    const fields: Record<string, string> = { client_id: ar.app.clientId, scope: ar.scopes.join(",") };
    if (ar.rawRedirect !== null) fields.redirect_uri = ar.rawRedirect;
    if (ar.state !== null) fields.state = ar.state;
    return html(200, consentPage(ar.app, s.login, ar.scopes, fields, s.csrf));
  });

  r.on("POST", "/login/oauth/authorize", async (c) => {
    const f = await c.form();
    const s = session(c);
    if (!s?.login) return redirect("/login");
    if (!safeEqual(f.get("authenticity_token") ?? "", s.csrf)) return html(422, messagePage("Unprocessable", "Invalid authenticity token."));
    const ar = parseRequest(c, (k) => f.get(k));
    if ("status" in ar) return ar;
    if (f.get("authorize") !== "1") return errorRedirect(c, ar.redirectUri, "access_denied", ar.state);
    const previous = c.w.store.grantFor(s.login, ar.app.clientId)?.scopes ?? [];
    return issueCode(c, ar, s.login, normalize([...previous, ...ar.scopes]));
  });

  r.on("POST", "/login/oauth/access_token", async (c) => {
    const get = await tokenParams(c);
    const format = formatOf(c.req.headers.accept);
    const error = (e: string): Reply => tokenReply(format, 400, { error: e, error_description: ERROR_TEXT[e] ?? e, error_uri: errorUri(c, e) });
    const app = c.w.store.apps.get(get("client_id") ?? "");
    if (!safeEqual(app?.clientSecret ?? "\u0000no-app", get("client_secret") ?? "") || !app) return error("incorrect_client_credentials");
    const ru = get("redirect_uri");
    if (ru !== null && ru !== "" && !checkRedirect(app, ru)) return error("redirect_uri_mismatch");
    const codeValue = get("code") ?? "";
    const code = c.w.store.codes.get(codeValue);
    if (!code || code.clientId !== app.clientId || code.expires < Date.now()) return error("bad_verification_code");
    c.w.store.codes.delete(codeValue);
    const auth = c.w.store.createAuth({ login: code.login, scopes: code.scopes, clientId: app.clientId });
    return tokenReply(format, 200, { access_token: auth.token, scope: auth.scopes.join(","), token_type: "bearer" });
  });

  r.on("GET", "/settings/applications", (c) => {
    const s = session(c);
    if (!s?.login) return toLogin(c);
    const login = s.login;
    const list = [...c.w.store.grants.values()].filter((g) => g.login === login)
      .flatMap((grant) => { const app = c.w.store.apps.get(grant.clientId); return app ? [{ app, grant }] : []; });
    return html(200, appsPage(list));
  });

  const reviewed = (c: WebCtx, clientId: string | undefined): { app: App; login: string } | Reply => {
    const s = session(c);
    if (!s?.login) return toLogin(c);
    const app = c.w.store.apps.get(clientId ?? "");
    if (!app || !c.w.store.grantFor(s.login, app.clientId)) return html(404, messagePage("Not Found", "This application is not authorized."));
    return { app, login: s.login };
  };

  r.on("GET", "/settings/connections/applications/:client_id", (c, p) => {
    const x = reviewed(c, p.client_id);
    if ("status" in x) return x;
    const grant = c.w.store.grantFor(x.login, x.app.clientId);
    return grant ? html(200, appPage(x.app, grant, ensureSession(c).csrf)) : html(404, messagePage("Not Found", "Not authorized."));
  });

  r.on("POST", "/settings/connections/applications/:client_id", async (c, p) => {
    const x = reviewed(c, p.client_id);
    if ("status" in x) return x;
    const f = await c.form();
    if (!safeEqual(f.get("authenticity_token") ?? "", ensureSession(c).csrf)) return html(422, messagePage("Unprocessable", "Invalid authenticity token."));
    const grant = c.w.store.grantFor(x.login, x.app.clientId);
    if (grant) c.w.store.deleteGrant(grant);
    return redirect("/settings/applications");
  });
}
