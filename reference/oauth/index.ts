/**
 * The web host: the OAuth web application flow's pages and token exchange. The three contract
 * operations (authorize, createAccessToken, getApplicationReview) are handlers for the generated
 * routes; what their HTML forms post to is outside the contract and registered here by hand:
 *
 * - `POST /session` and `POST /session/end`: sign in and out (sign-in.ts),
 * - `POST /login/oauth/authorize/decision`: the consent page's Authorize / Deny (decision.ts),
 * - `POST /settings/connections/applications/:client_id/revoke`: the review page's Revoke (review.ts).
 *
 * `oauthInvalidRequest` answers requests the generated validators refuse on the two page
 * operations with an HTML 404 page, since a browser page has no JSON 422 in the contract, and on
 * the token exchange with a 200 OAuth error (token-refusals.ts).
 */
import type { FastifyInstance } from "fastify";
import type { HostHandlers, InvalidRequestHandlers } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import { databaseRateLimiter, memoryRateLimiter } from "../http/rate-limit.ts";
import { authorizeHandler, checkAuthorizeRequest, errorRedirect, notFoundResult, redirectResult, UNKNOWN_CLIENT } from "./authorize.ts";
import { decisionRoute } from "./decision.ts";
import { ROUTES } from "./pages.ts";
import { reviewHandler, revokeRoute } from "./review.ts";
import { signInRoute, signOutRoute } from "./sign-in.ts";
import { tokenHandler } from "./token.ts";
import { tokenRefusal } from "./token-refusals.ts";

export function oauthHandlers(ctx: Context): Partial<HostHandlers<"auth">> {
  return {
    authorize: authorizeHandler(ctx),
    createAccessToken: tokenHandler(ctx),
    getApplicationReview: reviewHandler(ctx),
  };
}

function describe(fields: readonly string[]): string {
  return fields.length > 0 ? ` (${fields.join(", ")})` : "";
}

/** HTML answers to requests the generated validators refuse (missing or repeated parameters). */
export function oauthInvalidRequest(ctx: Context): InvalidRequestHandlers<"auth"> {
  return {
    createAccessToken: tokenRefusal(ctx),
    authorize: async (failure, raw) => {
      // A NUL in `state` alone (DECISIONS: NUL in state): the application is known, so it gets
      // its error redirect, with the state it sent echoed (percent-encoded: `%00`).
      const { client_id, redirect_uri, state } = raw.query;
      const fields = (failure.body.errors ?? []).map((e) => e.field);
      if (fields.length === 1 && fields[0] === "state" && typeof client_id === "string" && typeof state === "string" && state.includes("\0") && (redirect_uri === undefined || typeof redirect_uri === "string")) {
        const checked = await checkAuthorizeRequest(ctx, { client_id, redirect_uri, state });
        if (checked.kind === "unknown_client") return notFoundResult(UNKNOWN_CLIENT);
        return redirectResult(checked.kind === "error_redirect" ? checked.location : errorRedirect(checked.app, "invalid_request", state));
      }
      return notFoundResult(`This authorization link is not valid${describe((failure.body.errors ?? []).map((e) => e.field))}: it needs exactly one client_id, and each other parameter at most once.`);
    },
    getApplicationReview: () => notFoundResult("There is no page here."),
  };
}

/** Small forms; anything larger is not a form these pages sent. */
const FORM_BODY_LIMIT = 64 * 1024;

/** Routes of the web host that are not part of the contract (form posts of the HTML pages). */
export async function registerOAuthPages(app: FastifyInstance, ctx: Context): Promise<void> {
  // Failed sign-ins and failed Basic logins are one count (auth/login-failures.ts): the API's
  // limiter when the server gives it, shared through the database on PostgreSQL anyway.
  const limiter = ctx.limiter ?? (ctx.db.kind === "postgres" ? databaseRateLimiter(ctx.db) : memoryRateLimiter());
  const options = { bodyLimit: FORM_BODY_LIMIT };
  app.post(ROUTES.signIn, options, signInRoute(ctx, limiter));
  app.post(ROUTES.signOut, options, signOutRoute(ctx));
  app.post(ROUTES.decision, options, decisionRoute(ctx));
  app.post<{ Params: { client_id: string } }>("/settings/connections/applications/:client_id/revoke", options, revokeRoute(ctx));
}
