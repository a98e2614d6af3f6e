/**
 * The review page of one application's access, `GET /settings/connections/applications/:client_id`
 * (seed: Authorization review link), and its Revoke button's post (outside the contract). Not
 * signed in → the login page (200), coming back here. No grant (or no such application) → 404.
 * Revoking deletes every token of the user for the application and every unused code, in one
 * transaction: the tokens fail on the API host from the next request on.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { GetApplicationReviewRequest, GetApplicationReviewResponse } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import { findApplication } from "../store/applications.ts";
import { revokeGrant } from "../store/authorizations.ts";
import { deleteCodesForGrant } from "../store/codes.ts";
import { grantSummary } from "../store/grants.ts";
import { appSummary, htmlResult, loginResult, notFoundResult } from "./authorize.ts";
import { fromThisSite, tokensMatch } from "./csrf.ts";
import { FORBIDDEN_FORM } from "./decision.ts";
import { readForm, sendPage } from "./forms.ts";
import { errorPage, notFoundPage, reviewPage, revokedPage } from "./pages.ts";
import { signedIn } from "./web-session.ts";

export const REVIEW_PATH = "/settings/connections/applications/";
const NO_GRANT = "You have not authorized this application.";

export function reviewHandler(ctx: Context) {
  return async ({ params, raw }: GetApplicationReviewRequest): Promise<GetApplicationReviewResponse> => {
    const who = await signedIn(ctx, raw.headers);
    // The page's own path, not the request's URL: its query is nothing the page reads, and a
    // credential put there (`?access_token=`) must not be written back into the HTML.
    const self = `${REVIEW_PATH}${encodeURIComponent(params.client_id)}`;
    if (!who) return loginResult(ctx, raw.headers, self);
    const app = await findApplication(ctx.db, params.client_id);
    const grant = app && (await grantSummary(ctx.db, who.user.id, app.id));
    if (!app || !grant) return notFoundResult(NO_GRANT);
    const p = reviewPage({
      login: who.user.login,
      clientId: app.client_id,
      app: await appSummary(ctx, app),
      scopes: grant.scopes,
      since: grant.since,
      tokens: grant.tokens,
      csrf: who.session.csrfToken,
      returnTo: self,
    });
    return htmlResult({ ...p, status: 200 as const });
  };
}

export function revokeRoute(ctx: Context) {
  return async (request: FastifyRequest<{ Params: { client_id: string } }>, reply: FastifyReply): Promise<void> => {
    const form = readForm(request);
    if (!form.ok) return sendPage(reply, errorPage(form.status, "Bad request", form.reason));
    const who = await signedIn(ctx, request.headers);
    if (!who) return sendPage(reply, errorPage(403, "Signed out", "You are no longer signed in. Sign in and try again."));
    if (!tokensMatch(who.session.csrfToken, form.fields.csrf_token) || !fromThisSite(ctx, request.headers)) {
      return sendPage(reply, errorPage(403, "Forbidden", FORBIDDEN_FORM));
    }
    const app = await findApplication(ctx.db, request.params.client_id);
    if (!app) return sendPage(reply, notFoundPage(NO_GRANT));
    const revoked = await ctx.db.transaction(async (tx) => {
      await deleteCodesForGrant(tx, who.user.id, app.id);
      return revokeGrant(tx, who.user.id, app.id);
    });
    if (revoked === 0) return sendPage(reply, notFoundPage(NO_GRANT));
    return sendPage(reply, revokedPage(await appSummary(ctx, app), who.user.login));
  };
}
