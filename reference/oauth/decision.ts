/**
 * The consent page's answer, `POST /login/oauth/authorize/decision` (outside the contract: the
 * pages' forms are implementation-defined). The post must come from a signed-in session with that
 * session's CSRF token and from this site; the authorize request it carries is checked again
 * from scratch (the application may have been suspended, and hidden fields can be edited).
 *
 * Authorize → a new code, redirect to the redirect URI with `code` and the unchanged `state`.
 * Deny → redirect to the registered callback with `access_denied` (seed: Authorization request
 * errors go to the registered callback URL).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Context } from "../context.ts";
import { issueCode } from "../store/codes.ts";
import { checkAuthorizeRequest, errorRedirect, flowTargets, UNKNOWN_CLIENT } from "./authorize.ts";
import { fromThisSite, tokensMatch } from "./csrf.ts";
import { readForm, sendPage, sendRedirect } from "./forms.ts";
import { errorPage, notFoundPage } from "./pages.ts";
import { withQuery } from "./redirect-uri.ts";
import { signedIn } from "./web-session.ts";

export const FORBIDDEN_FORM = "This form has expired or did not come from this site. Go back to the application and start again.";

export function decisionRoute(ctx: Context) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const form = readForm(request);
    if (!form.ok) return sendPage(reply, errorPage(form.status, "Bad request", form.reason));
    const f = form.fields;

    const who = await signedIn(ctx, request.headers);
    if (!who) return sendPage(reply, errorPage(403, "Signed out", "You are no longer signed in. Go back to the application and start again."));
    if (!tokensMatch(who.session.csrfToken, f.csrf_token) || !fromThisSite(ctx, request.headers)) {
      return sendPage(reply, errorPage(403, "Forbidden", FORBIDDEN_FORM));
    }
    if (!f.client_id) return sendPage(reply, errorPage(400, "Bad request", "The form names no application."));

    const checked = await checkAuthorizeRequest(ctx, { client_id: f.client_id, redirect_uri: f.redirect_uri, scope: f.scope, state: f.state, code_challenge: f.code_challenge, code_challenge_method: f.code_challenge_method });
    if (checked.kind === "unknown_client") return sendPage(reply, notFoundPage(UNKNOWN_CLIENT));
    if (checked.kind === "error_redirect") return sendRedirect(reply, checked.location);
    const { app, redirectUri, scopes, state, codeChallenge } = checked;

    if (f.decision === "deny") return sendRedirect(reply, errorRedirect(app, "access_denied", state));
    if (f.decision !== "authorize") return sendPage(reply, errorPage(400, "Bad request", "Choose Authorize or Deny."));
    const code = await issueCode(ctx.db, { appId: app.id, userId: who.user.id, redirectUri, scopes, now: ctx.now(), codeChallenge });
    return sendRedirect(reply, withQuery(redirectUri, { code, state }), [], flowTargets(checked));
  };
}
