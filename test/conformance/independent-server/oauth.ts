/**
 * The independent server's web host: the OAuth web flow as the seed describes it (authorize,
 * sign in, consent, redirect with code and state; the token exchange in three formats; the
 * review page where a user revokes), with this server's own choices where the seed shows
 * nothing: its own login and consent pages, token errors with status 400, scopes it does not
 * know dropped, and no application API (`/applications/…`) at all.
 */
import { randomBytes } from "node:crypto";
import type { State } from "./state.ts";
import { APP, SUSPENDED_APP } from "./state.ts";
import { bodyOf, escapeHtml, html, same, type Answer, type Req } from "./http.ts";

export const KNOWN_SCOPES = ["user", "user:email", "user:follow", "public_repo", "repo", "repo_deployment", "repo:status", "delete_repo", "notifications", "gist", "read:repo_hook", "write:repo_hook", "admin:repo_hook", "admin:org_hook", "read:org", "write:org", "admin:org", "read:public_key", "write:public_key", "admin:public_key"];

/** What a scope includes (seed: the scope table). */
const IMPLIES: Record<string, string[]> = {
  user: ["user:email", "user:follow"],
  repo: ["public_repo", "repo:status", "repo_deployment", "notifications"],
  "admin:repo_hook": ["write:repo_hook", "read:repo_hook"],
  "write:repo_hook": ["read:repo_hook"],
  "admin:org": ["write:org", "read:org"],
  "write:org": ["read:org"],
  "admin:public_key": ["write:public_key", "read:public_key"],
  "write:public_key": ["read:public_key"],
};

export function implied(scope: string): string[] {
  const out = new Set<string>();
  const walk = (s: string) => (IMPLIES[s] ?? []).forEach((x) => (out.has(x) ? undefined : (out.add(x), walk(x))));
  walk(scope);
  return [...out];
}

/** Whether a token's scopes cover `scope`. */
export function covers(scopes: readonly string[], scope: string): boolean {
  return scopes.includes(scope) || scopes.some((s) => implied(s).includes(scope));
}

/** Known scopes only, without those another one implies, in the order asked. */
export function normalize(requested: readonly string[]): string[] {
  const known = [...new Set(requested.map((s) => s.trim()).filter((s) => KNOWN_SCOPES.includes(s)))];
  return known.filter((s) => !known.some((o) => o !== s && implied(o).includes(s)));
}

const APPS = [APP, SUSPENDED_APP];

function redirectAllowed(callback: string, given: string): boolean {
  // Written out before parsing: no fragment, no encoded slash or dot, the host exactly as registered.
  if (/[#\\\s]|%2f|%5c|%2e|%25|%[01][0-9a-f]|%7f|\/\.\.?(\/|$)/i.test(given)) return false;
  const origin = new URL(callback).origin;
  if (!given.startsWith(`${origin}/`) && given !== origin) return false;
  let cb: URL, u: URL;
  try {
    cb = new URL(callback);
    u = new URL(given);
  } catch {
    return false;
  }
  if (cb.protocol !== u.protocol || cb.host !== u.host) return false;
  const base = cb.pathname.replace(/\/$/, "");
  return u.pathname === cb.pathname || u.pathname.startsWith(`${base}/`);
}

function redirect(to: string, headers: Record<string, string> = {}): Answer {
  return { status: 302, headers: { location: to, ...headers } };
}

function withQuery(target: string, params: Record<string, string | undefined>): string {
  const u = new URL(target);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.href;
}

function cookieOf(req: Req, name: string): string | undefined {
  for (const part of (req.header("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}

export class WebHost {
  /** Authorize requests shown on a consent page, by the id its form carries. */
  private readonly pending = new Map<string, { clientId: string; redirectUri?: string; scopes: string[]; state?: string }>();

  constructor(
    private readonly s: State,
    private readonly options: { grantUnknownScopes?: boolean } = {},
  ) {}

  private session(req: Req): { id: string; userId?: number; csrf: string; fresh: boolean } {
    const id = cookieOf(req, "indie_sid");
    const known = id ? this.s.sessions.get(id) : undefined;
    if (id && known) return { id, ...known, fresh: false };
    const created = { csrf: randomBytes(12).toString("hex") };
    const newId = randomBytes(16).toString("hex");
    this.s.sessions.set(newId, created);
    return { id: newId, ...created, fresh: true };
  }

  /** Absolute, on this host (a relative Location is HTTP's too; this server writes them whole). */
  private here(req: Req, path: string): string {
    return new URL(path, req.url.origin).href;
  }

  private setCookie(sess: { id: string; fresh: boolean }): Record<string, string> {
    return sess.fresh ? { "set-cookie": `indie_sid=${sess.id}; Path=/; HttpOnly; SameSite=Lax` } : {};
  }

  private loginPage(returnTo: string, message = ""): Answer {
    return html(200, `<h1>Sign in to Indie</h1>${message ? `<p>${escapeHtml(message)}</p>` : ""}<form method="post" action="/session"><input type="hidden" name="return_to" value="${escapeHtml(returnTo)}"><label>User <input name="username"></label><label>Passphrase <input type="password" name="passphrase"></label><button type="submit">Sign in</button></form>`);
  }

  async handle(req: Req): Promise<Answer | undefined> {
    const p = req.path;
    if (p === "/login/oauth/authorize" && req.method === "GET") return this.authorize(req, Object.fromEntries(req.url.searchParams));
    if (p === "/login/oauth/authorize/decide" && req.method === "POST") return this.decide(req);
    if (p === "/session" && req.method === "GET") return this.loginPage(req.url.searchParams.get("return_to") ?? "/");
    if (p === "/session" && req.method === "POST") return this.signIn(req);
    if (p === "/login/oauth/access_token" && req.method === "POST") return this.token(req);
    const review = /^\/settings\/connections\/applications\/([^/]+)$/.exec(p);
    if (review && req.method === "GET") return this.review(req, review[1]!);
    if (review && req.method === "POST") return this.revoke(req, review[1]!);
    return undefined;
  }

  private signIn(req: Req): Answer {
    const form = bodyOf(req) ?? {};
    const returnTo = typeof form.return_to === "string" && form.return_to.startsWith("/") ? form.return_to : "/";
    const user = this.s.user(String(form.username ?? ""));
    if (!user || user.type !== "User" || !same(user.password, String(form.passphrase ?? ""))) return this.loginPage(returnTo, "Wrong user or passphrase.");
    const sess = this.session(req);
    // A new session id on sign-in.
    this.s.sessions.delete(sess.id);
    const id = randomBytes(16).toString("hex");
    this.s.sessions.set(id, { userId: user.id, csrf: randomBytes(12).toString("hex") });
    return { status: 303, headers: { location: this.here(req, returnTo), "set-cookie": `indie_sid=${id}; Path=/; HttpOnly; SameSite=Lax` } };
  }

  private authorize(req: Req, q: Record<string, string>): Answer {
    const app = APPS.find((a) => a.clientId === q.client_id);
    if (!app) return html(404, "<h1>No such application</h1>");
    if (q.redirect_uri !== undefined && !redirectAllowed(app.callbackUrl, q.redirect_uri))
      return redirect(withQuery(app.callbackUrl, { error: "redirect_uri_mismatch", error_description: "The redirect_uri is not under the registered callback", error_uri: "https://indie.test/docs/oauth#redirect", state: q.state }));
    if (app === SUSPENDED_APP) return redirect(withQuery(app.callbackUrl, { error: "application_suspended", error_description: "This application is suspended", error_uri: "https://indie.test/docs/oauth#suspended", state: q.state }));
    const sess = this.session(req);
    if (sess.userId === undefined) {
      // Back here after signing in, without any access_token the URL carried (it must not end up in a page).
      const back = new URL(req.url.href);
      back.searchParams.delete("access_token");
      return redirect(this.here(req, `/session?return_to=${encodeURIComponent(back.pathname + back.search)}`), this.setCookie(sess));
    }
    const target = q.redirect_uri ?? app.callbackUrl;
    // Seed: a user who already has a valid token for the application is not asked again; the scopes are those of last time.
    const grant = this.s.grants.find((g) => g.userId === sess.userId && g.clientId === app.clientId);
    const hasToken = [...this.s.tokens.values()].some((t) => t.userId === sess.userId && t.clientId === app.clientId);
    if (grant && hasToken) return redirect(withQuery(target, { code: this.issueCode(sess.userId, app.clientId, grant.scopes, q.redirect_uri), state: q.state }));
    // Commas by the seed; spaces taken too, as OAuth 2 writes scope lists.
    const requested = (q.scope ?? "").split(/[\s,]+/).filter(Boolean);
    const scopes = this.options.grantUnknownScopes ? [...new Set(requested)] : normalize(requested);
    const hidden = (n: string, v: string | undefined) => (v === undefined ? "" : `<input type="hidden" name="${n}" value="${escapeHtml(v)}">`);
    // The request waits here, not in the page: a browser rewrites some characters of a form field (NUL among them), and the state must come back unchanged.
    const pending = randomBytes(12).toString("hex");
    this.pending.set(pending, { clientId: app.clientId, ...(q.redirect_uri !== undefined ? { redirectUri: q.redirect_uri } : {}), scopes, ...(q.state !== undefined ? { state: q.state } : {}) });
    return html(
      200,
      `<h1>${escapeHtml(app === APP ? APP.name : app.clientId)} asks for access</h1><ul>${scopes.map((x) => `<li>${escapeHtml(x)}</li>`).join("") || "<li>public data only</li>"}</ul>` +
        `<form method="post" action="/login/oauth/authorize/decide">${hidden("request", pending)}${hidden("csrf", sess.csrf)}` +
        `<button type="submit" name="verdict" value="grant">Grant access</button><button type="submit" name="verdict" value="refuse">Refuse</button></form>`,
      this.setCookie(sess),
    );
  }

  private decide(req: Req): Answer {
    const posted = (bodyOf(req) ?? {}) as Record<string, string>;
    const sess = this.session(req);
    if (sess.userId === undefined || !posted.csrf || !same(posted.csrf, sess.csrf)) return html(403, "<h1>This form has expired</h1>");
    const request = this.pending.get(posted.request ?? "");
    if (!request) return html(403, "<h1>This form has expired</h1>");
    this.pending.delete(posted.request!);
    const form = { client_id: request.clientId, redirect_uri: request.redirectUri, state: request.state, verdict: posted.verdict };
    const app = APPS.find((a) => a.clientId === form.client_id);
    if (!app) return html(404, "<h1>No such application</h1>");
    const target = form.redirect_uri ?? app.callbackUrl;
    if (form.verdict !== "grant") return redirect(withQuery(app.callbackUrl, { error: "access_denied", error_description: "The user refused", error_uri: "https://indie.test/docs/oauth#denied", state: form.state }));
    const scopes = request.scopes;
    const existing = this.s.grants.find((g) => g.userId === sess.userId && g.clientId === app.clientId);
    if (existing) existing.scopes = scopes;
    else this.s.grants.push({ userId: sess.userId, clientId: app.clientId, scopes });
    return redirect(withQuery(target, { code: this.issueCode(sess.userId, app.clientId, scopes, form.redirect_uri), state: form.state }));
  }

  private issueCode(userId: number, clientId: string, scopes: string[], redirectUri: string | undefined): string {
    const code = randomBytes(10).toString("hex");
    this.s.codes.set(code, { code, userId, clientId, scopes, ...(redirectUri !== undefined ? { redirectUri } : {}), expires: Date.now() + 10 * 60_000 });
    return code;
  }

  private token(req: Req): Answer {
    const accept = (req.header("accept") ?? "").toLowerCase();
    const format = accept.includes("application/json") ? "json" : accept.includes("xml") ? "xml" : "form";
    const reply = (status: number, fields: Record<string, string>): Answer => {
      const headers = { "cache-control": "no-store", pragma: "no-cache" };
      if (format === "json") return { status, headers, json: fields };
      if (format === "xml") return { status, headers, text: `<?xml version="1.0" encoding="UTF-8"?><OAuth>${Object.entries(fields).map(([k, v]) => `<${k}>${escapeHtml(v)}</${k}>`).join("")}</OAuth>`, type: "application/xml; charset=utf-8" };
      return { status, headers, text: new URLSearchParams(fields).toString(), type: "application/x-www-form-urlencoded; charset=utf-8" };
    };
    const error = (code: string, description: string) => reply(400, { error: code, error_description: description, error_uri: `https://indie.test/docs/oauth#${code}` });
    const body = bodyOf(req);
    if (!body) return error("incorrect_client_credentials", "The request could not be read, so no client was named");
    // A parameter sent twice counts as not sent.
    const twice = new Set<string>();
    if ((req.header("content-type") ?? "").includes("x-www-form-urlencoded")) {
      const form = new URLSearchParams(req.body.toString("utf8"));
      for (const k of form.keys()) if (form.getAll(k).length > 1) twice.add(k);
    }
    const str = (k: string) => (!twice.has(k) && typeof body[k] === "string" ? (body[k] as string) : undefined);
    const app = APPS.find((a) => a.clientId === str("client_id"));
    if (!app || !same(app.clientSecret, str("client_secret") ?? "")) return error("incorrect_client_credentials", "The client_id and/or client_secret passed are incorrect.");
    const redirectUri = str("redirect_uri");
    if (redirectUri !== undefined && !redirectAllowed(app.callbackUrl, redirectUri)) return error("redirect_uri_mismatch", "The redirect_uri does not match the registered callback");
    const code = this.s.codes.get(str("code") ?? "");
    if (!code || code.clientId !== app.clientId || code.expires < Date.now()) return error("bad_verification_code", "The code passed is incorrect or expired.");
    if (code.redirectUri !== undefined && redirectUri !== undefined && code.redirectUri !== redirectUri) return error("redirect_uri_mismatch", "The redirect_uri differs from the authorize step's");
    this.s.codes.delete(code.code);
    const token = this.s.newToken(code.userId, code.scopes, { clientId: app.clientId });
    return reply(200, { access_token: token.value, scope: code.scopes.join(","), token_type: "bearer" });
  }

  private review(req: Req, clientId: string): Answer {
    const sess = this.session(req);
    if (sess.userId === undefined) return redirect(this.here(req, `/session?return_to=${encodeURIComponent(req.url.pathname)}`), this.setCookie(sess));
    const grant = this.s.grants.find((g) => g.userId === sess.userId && g.clientId === clientId);
    if (!grant) return html(404, "<h1>Nothing to review</h1>");
    return html(200, `<h1>${escapeHtml(clientId)}</h1><p>Scopes: ${escapeHtml(grant.scopes.join(", ") || "none")}</p><form method="post" action="${escapeHtml(req.url.pathname)}"><input type="hidden" name="csrf" value="${sess.csrf}"><button type="submit" name="do" value="revoke">Revoke access</button></form>`);
  }

  private revoke(req: Req, clientId: string): Answer {
    const sess = this.session(req);
    const form = (bodyOf(req) ?? {}) as Record<string, string>;
    if (sess.userId === undefined || !form.csrf || !same(form.csrf, sess.csrf)) return html(403, "<h1>This form has expired</h1>");
    this.s.grants = this.s.grants.filter((g) => !(g.userId === sess.userId && g.clientId === clientId));
    for (const [value, t] of this.s.tokens) if (t.userId === sess.userId && t.clientId === clientId) this.s.tokens.delete(value);
    // Codes issued under the revoked grant are void too.
    for (const [code, c] of this.s.codes) if (c.userId === sess.userId && c.clientId === clientId) this.s.codes.delete(code);
    return html(200, "<h1>Access revoked</h1>");
  }
}
