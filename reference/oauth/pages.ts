/**
 * The web host's pages: sign in, consent, the review of one application's access, and the error
 * pages. Only markup lives here; what the pages show is decided by their callers. Every value is
 * escaped by `html`.
 */
import type { Scope } from "../auth/scopes.ts";
import { html, page, type Page, type SafeHtml } from "./html.ts";
import { NO_SCOPE_DESCRIPTION, SCOPE_DESCRIPTIONS } from "./scope-descriptions.ts";

/** Where the hand-registered form posts go (registerOAuthPages). */
export const ROUTES = {
  signIn: "/session",
  signOut: "/session/end",
  decision: "/login/oauth/authorize/decision",
  revoke: (clientId: string) => `/settings/connections/applications/${encodeURIComponent(clientId)}/revoke`,
} as const;

export interface AppSummary {
  name: string;
  url: string;
  owner: string | null;
}

function scopeList(scopes: readonly Scope[]): SafeHtml {
  if (scopes.length === 0) return html`<ul class="scopes"><li><strong>Public data only</strong><br><span class="muted">${NO_SCOPE_DESCRIPTION}</span></li></ul>`;
  return html`<ul class="scopes">${scopes.map((s) => html`<li><code>${s}</code><br><span class="muted">${SCOPE_DESCRIPTIONS[s]}</span></li>`)}</ul>`;
}

function hidden(fields: Readonly<Record<string, string | undefined>>): SafeHtml {
  return html`${Object.entries(fields).map(([name, value]) => (value === undefined ? "" : html`<input type="hidden" name="${name}" value="${value}">`))}`;
}

function signOut(login: string, csrf: string, returnTo: string): SafeHtml {
  return html`<footer class="muted">Signed in as <strong>${login}</strong> ·
<form class="inline" method="post" action="${ROUTES.signOut}">${hidden({ csrf_token: csrf, return_to: returnTo })}<button type="submit">Sign out</button></form></footer>`;
}

export interface LoginView {
  returnTo: string;
  csrf: string;
  /** The application the user is signing in for, when there is one. */
  app?: AppSummary;
  error?: string;
  login?: string;
  formTargets?: readonly string[];
  status?: number;
}

export function loginPage(v: LoginView): Page {
  return page("Sign in", html`<div class="card">
<h1>Sign in${v.app ? html` to continue to <strong>${v.app.name}</strong>` : ""}</h1>
${v.error ? html`<div class="error" role="alert">${v.error}</div>` : ""}
<form method="post" action="${ROUTES.signIn}">
${hidden({ csrf_token: v.csrf, return_to: v.returnTo })}
<label for="login">Username</label>
<input type="text" id="login" name="login" autocomplete="username" autocapitalize="off" required value="${v.login ?? ""}">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<label for="otp">Two-factor code <span class="muted">(only if two-factor authentication is on)</span></label>
<input type="text" id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}">
<div class="actions"><button type="submit" class="primary">Sign in</button></div>
</form>
</div>`, { status: v.status, formTargets: v.formTargets });
}

export interface ConsentView {
  login: string;
  app: AppSummary;
  scopes: readonly Scope[];
  csrf: string;
  /** The authorize request, carried to the decision post. */
  request: { client_id: string; redirect_uri: string; scope: string; state?: string; code_challenge?: string; code_challenge_method?: string };
  returnTo: string;
  redirectOrigin: string;
  formTargets: readonly string[];
}

export function consentPage(v: ConsentView): Page {
  return page(`Authorize ${v.app.name}`, html`<div class="card">
<h1>Authorize <strong>${v.app.name}</strong></h1>
<p><strong>${v.app.name}</strong>${v.app.owner ? html` by <strong>${v.app.owner}</strong>` : ""} wants to access your <strong>${v.login}</strong> account:</p>
${scopeList(v.scopes)}
<form method="post" action="${ROUTES.decision}">
${hidden({ csrf_token: v.csrf, ...v.request })}
<div class="actions">
<button type="submit" name="decision" value="deny">Deny</button>
<button type="submit" name="decision" value="authorize" class="primary">Authorize ${v.app.name}</button>
</div>
</form>
<p class="muted">Authorizing will redirect to <strong>${v.redirectOrigin}</strong>. You can revoke this access at any time in your settings.</p>
</div>
${signOut(v.login, v.csrf, v.returnTo)}`, { formTargets: v.formTargets });
}

export interface ReviewView {
  login: string;
  clientId: string;
  app: AppSummary;
  scopes: readonly Scope[];
  since: Date;
  tokens: number;
  csrf: string;
  returnTo: string;
}

export function reviewPage(v: ReviewView): Page {
  return page(`${v.app.name} — application access`, html`<div class="card">
<h1><strong>${v.app.name}</strong></h1>
<p class="muted">${v.app.owner ? html`Owned by <strong>${v.app.owner}</strong> · ` : ""}${/^https?:\/\//i.test(v.app.url) ? html`<a href="${v.app.url}" rel="noopener noreferrer">${v.app.url}</a>` : v.app.url}</p>
<p>Authorized since ${v.since.toISOString().slice(0, 10)} (${v.tokens} ${v.tokens === 1 ? "token" : "tokens"}), with these permissions:</p>
${scopeList(v.scopes)}
<form method="post" action="${ROUTES.revoke(v.clientId)}">
${hidden({ csrf_token: v.csrf })}
<div class="actions"><button type="submit" class="danger">Revoke access</button></div>
</form>
<p class="muted">Revoking stops every token of this application for your account at once.</p>
</div>
${signOut(v.login, v.csrf, v.returnTo)}`);
}

export function revokedPage(app: AppSummary, login: string): Page {
  return page("Access revoked", html`<div class="card">
<h1>Access revoked</h1>
<p><strong>${app.name}</strong> can no longer access the <strong>${login}</strong> account. Its tokens stopped working.</p>
</div>`);
}

export function signedOutPage(): Page {
  return page("Signed out", html`<div class="card"><h1>Signed out</h1><p>You are signed out.</p></div>`);
}

export function errorPage(status: number, title: string, message: string): Page {
  return page(title, html`<div class="card"><h1>${title}</h1><p>${message}</p></div>`, { status });
}

export const notFoundPage = (message = "There is no page here."): Page => errorPage(404, "Page not found", message);
