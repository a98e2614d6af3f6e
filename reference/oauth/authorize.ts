/**
 * Step 1 of the web flow, `GET /login/oauth/authorize` (seed: Endpoints › D, Authentication ›
 * Web application flow, Errors › Authorization request errors). In order:
 *
 * 1. Unknown client_id → 404 HTML page. There is no trusted place to redirect to.
 * 2. Suspended application → redirect to the registered callback with `application_suspended`.
 * 3. redirect_uri breaking the rules (redirect-uri.ts) → redirect to the registered callback
 *    with `redirect_uri_mismatch`. Neither of these depends on who the user is.
 * 4. Not signed in → the login page, which comes back here afterwards.
 * 5. A web grant that already covers the requested scopes → straight back with a new code for
 *    the scopes granted the last time (seed: "completes automatically"), no consent page.
 * 6. Otherwise the consent page; its decision is posted to decision.ts.
 *
 * `scope` is comma- or space-separated; unknown names are ignored (DECISIONS: scope input) and
 * the list is normalised (`user,gist,user:email` → `gist,user`).
 */
import { returnUrl } from "./return-url.ts";
import type { IncomingHttpHeaders } from "node:http";
import type { AuthorizeRequest, AuthorizeResponse } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import { isScope, normalize, satisfies, type Scope } from "../auth/scopes.ts";
import { findAccountById } from "../store/accounts.ts";
import { findApplication, type Application } from "../store/applications.ts";
import { findWebGrant } from "../store/authorizations.ts";
import { issueCode } from "../store/codes.ts";
import { authorizeError, type AuthorizeErrorCode } from "./errors.ts";
import type { Page } from "./html.ts";
import { consentPage, loginPage, notFoundPage, type AppSummary } from "./pages.ts";
import { originOf, resolveRedirectUri, withQuery } from "./redirect-uri.ts";
import { checkChallenge } from "./pkce.ts";
import { loginCsrf, signedIn } from "./web-session.ts";

export const AUTHORIZE_PATH = "/login/oauth/authorize";

export interface AuthorizeParams {
  client_id: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

export type Checked =
  | { kind: "unknown_client" }
  | { kind: "error_redirect"; location: string }
  | { kind: "ok"; app: Application; redirectUri: string; scopes: Scope[]; state: string | undefined; codeChallenge: string | undefined };

/** The requested scopes: known names only, normalised. */
export function requestedScopes(input: string | undefined): Scope[] {
  return normalize((input ?? "").split(/[\s,]+/).filter(isScope));
}

export function errorRedirect(app: Application, code: AuthorizeErrorCode, state: string | undefined): string {
  return withQuery(app.callback_url, { ...authorizeError(code), state });
}

/** Steps 1–3: what the request asks for, independent of the user. Used again on the decision post. */
export async function checkAuthorizeRequest(ctx: Context, p: AuthorizeParams): Promise<Checked> {
  const app = await findApplication(ctx.db, p.client_id);
  if (!app) return { kind: "unknown_client" };
  if (app.suspended) return { kind: "error_redirect", location: errorRedirect(app, "application_suspended", p.state) };
  const redirect = resolveRedirectUri(app.callback_url, p.redirect_uri);
  if (!redirect.ok) return { kind: "error_redirect", location: errorRedirect(app, "redirect_uri_mismatch", p.state) };
  const pkce = checkChallenge(p.code_challenge, p.code_challenge_method);
  if (!pkce.ok) return { kind: "error_redirect", location: errorRedirect(app, "invalid_request", p.state) };
  return { kind: "ok", app, redirectUri: redirect.uri, scopes: requestedScopes(p.scope), state: p.state, codeChallenge: pkce.challenge };
}

export async function appSummary(ctx: Context, app: Application): Promise<AppSummary> {
  const owner = app.owner_id === null ? undefined : await findAccountById(ctx.db, Number(app.owner_id));
  return { name: app.name, url: app.url, owner: owner?.login ?? null };
}

/** Origins a form on a page of this flow may end up at: the redirect target. */
export function flowTargets(checked: Checked): string[] {
  if (checked.kind !== "ok") return [];
  return [originOf(checked.redirectUri), originOf(checked.app.callback_url)].filter((o): o is string => o !== undefined);
}

/**
 * The form targets of the login page that returns to `returnTo`: after signing in, an authorize
 * URL may redirect straight on to the application (step 5), and Chromium checks that redirect
 * against the login page's form-action.
 */
export async function targetsForReturn(ctx: Context, returnTo: string): Promise<string[]> {
  const url = new URL(returnTo, "http://same.invalid");
  const clientId = url.searchParams.get("client_id");
  if (url.pathname !== AUTHORIZE_PATH || !clientId) return [];
  return flowTargets(await checkAuthorizeRequest(ctx, { client_id: clientId, redirect_uri: url.searchParams.get("redirect_uri") ?? undefined }));
}

export function htmlResult<S extends 200 | 404>(p: Page & { status: S }, cookies: string[] = []): { status: S; body: string; mediaType: "text/html"; extraHeaders: Record<string, string | string[]> } {
  return { status: p.status, body: p.body, mediaType: "text/html", extraHeaders: cookies.length > 0 ? { ...p.headers, "Set-Cookie": cookies } : p.headers };
}

export function redirectResult(location: string): { status: 302; headers: { Location: string }; extraHeaders: Record<string, string> } {
  return { status: 302, headers: { Location: location }, extraHeaders: { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" } };
}

/** The login page as an operation result (200), coming back to `returnTo` once signed in. */
export function loginResult(ctx: Context, headers: IncomingHttpHeaders, returnTo: string, app?: AppSummary, formTargets: string[] = []) {
  const csrf = loginCsrf(ctx, headers);
  const p = loginPage({ returnTo, csrf: csrf.token, app, formTargets });
  return htmlResult({ ...p, status: 200 as const }, csrf.cookie ? [csrf.cookie] : []);
}

export function notFoundResult(message: string) {
  return htmlResult({ ...notFoundPage(message), status: 404 as const });
}

export const UNKNOWN_CLIENT = "No application is registered with this client_id. Check the link you followed.";

export function authorizeHandler(ctx: Context) {
  return async ({ query, raw }: AuthorizeRequest): Promise<AuthorizeResponse> => {
    const checked = await checkAuthorizeRequest(ctx, query);
    if (checked.kind === "unknown_client") return notFoundResult(UNKNOWN_CLIENT);
    if (checked.kind === "error_redirect") return redirectResult(checked.location);
    const { app, redirectUri, scopes, state, codeChallenge } = checked;

    const who = await signedIn(ctx, raw.headers);
    if (!who) return loginResult(ctx, raw.headers, returnUrl(raw.url), await appSummary(ctx, app), flowTargets(checked));

    const grant = await findWebGrant(ctx.db, who.user.id, app.id);
    if (grant && scopes.every((s) => satisfies(grant.scopes, [s]))) {
      const code = await issueCode(ctx.db, { appId: app.id, userId: who.user.id, redirectUri, scopes: grant.scopes, now: ctx.now(), codeChallenge });
      return redirectResult(withQuery(redirectUri, { code, state }));
    }

    const p = consentPage({
      login: who.user.login,
      app: await appSummary(ctx, app),
      scopes,
      csrf: who.session.csrfToken,
      request: { client_id: app.client_id, redirect_uri: redirectUri, scope: scopes.join(","), state, ...(codeChallenge ? { code_challenge: codeChallenge, code_challenge_method: "S256" } : {}) },
      returnTo: returnUrl(raw.url),
      redirectOrigin: originOf(redirectUri) ?? redirectUri,
      formTargets: flowTargets(checked),
    });
    return htmlResult({ ...p, status: 200 as const });
  };
}
