/**
 * OAUTH-ERROR-* and OAUTH-STATE-*: how the authorize step fails and what it hands back (seed:
 * Errors › Authorization request errors; Endpoints › D, `state` "returned unchanged on
 * redirect"). Errors redirect to the registered callback URL with error, error_description,
 * error_uri and the state sent. An unknown client_id has no callback to trust: the seed's
 * redirect_uri rule forbids sending the browser to a URI no registered callback matches, and the
 * contract answers a 404 page (D-OAUTH-AUTHORIZE-UNKNOWN-CLIENT). `state` must survive any
 * characters a client may put in it, on the code redirect and on error redirects alike;
 * OAUTH-STATE-004 (DECISIONS: NUL in state): one the flow cannot carry (NUL) ends in the
 * invalid_request error redirect — a decision; the seed's part is the state echoed unchanged.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { check, type Checks } from "../../core/failure.ts";
import { app, callback, checkErrorRedirect, credentials, exchange, expectCode, freshState, OAUTH_NEEDS, redirectQuery, revokeToken, SEED } from "./support.ts";

/** Characters that break naive encoding: spaces, +, /, ?, &, =, #, %, quotes, angle brackets, non-ASCII. */
export const ODD_STATE = `a b+c/d?e=f&g=h#i%20j~k'l"m<n>é😀`;

/** A path under the callback that no rule rejects, for error redirects that must ignore it. */
function elsewherePath(ctx: CaseContext): string {
  const cb = callback(ctx);
  return `${cb.origin}${cb.pathname.startsWith("/bar") ? "/elsewhere" : "/bar"}`;
}

async function deny(ctx: CaseContext, query: Record<string, string>): Promise<URL> {
  const location = await ctx.authorize(query, { decision: "deny" });
  const code = location.searchParams.get("code");
  if (!code || location.searchParams.has("error")) return location;
  // The user had already granted these scopes, so there was no consent page to deny: take the
  // token, revoke it, and ask again.
  ctx.note("the authorize page completed at once (an earlier grant); revoking the token it gave and asking again");
  const { body } = await exchange(ctx, { ...credentials(ctx), code });
  if (body.access_token) await revokeToken(ctx, body.access_token);
  const again = await ctx.authorize(query, { decision: "deny" });
  if (again.searchParams.has("code") && !again.searchParams.has("error")) {
    const { body: second } = await exchange(ctx, { ...credentials(ctx), code: again.searchParams.get("code")! });
    if (second.access_token) await revokeToken(ctx, second.access_token);
    // Another valid token of this application (the profile's own, perhaps) keeps the grant: the
    // suite will not revoke what it did not create.
    ctx.skip("the authorize page completes at once even after the case revoked its own token: users[0] holds another valid token of this application (the profile's own?), so there is no consent page to deny; give users[0] a token of another application");
  }
  return again;
}

export const AUTHORIZE_ERROR_CASES: Case[] = [
  {
    id: "OAUTH-ERROR-001",
    title: "redirect_uri_mismatch redirects to the registered callback with error, error_description, error_uri and state",
    area: "oauth",
    seed: SEED.authorizeErrors,
    rules: ["S-OAUTH-AUTHORIZE-ERRORS", "D-OAUTH-AUTHORIZE-ERRORS", "D-SCHEMA-AUTHORIZE-ERROR-REDIRECT"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const state = freshState();
      const location = await ctx.authorize({ client_id: app(ctx).clientId, redirect_uri: elsewherePath(ctx), state });
      const params = checkErrorRedirect(ctx, location, "redirect_uri_mismatch", state);
      check.ok(params.error_description && params.error_description.length > 0, "error_description is not empty", { actual: params.error_description, pointer: "/headers/location/error_description" });
      check.matches(params.error_uri, /^https?:\/\/\S+$/, "error_uri is an absolute URL", "/headers/location/error_uri");
    },
  },
  {
    id: "OAUTH-ERROR-002",
    title: "An unknown client_id gets an error page (404), never a redirect",
    area: "oauth",
    seed: SEED.authorize,
    rules: ["S-OAUTH-REDIRECT-URI", "D-OAUTH-AUTHORIZE-UNKNOWN-CLIENT", "D-REF-OAUTH-REFUSED-AUTHORIZE"],
    needs: ["app"],
    async run(ctx) {
      const clientId = `conformance-unknown-${freshState()}`;
      const elsewhere = "https://conformance-elsewhere.invalid/callback";
      const decided = ctx.rule("D-OAUTH-AUTHORIZE-UNKNOWN-CLIENT");
      for (const redirect_uri of [app(ctx).callbackUrl, elsewhere]) {
        const res = await ctx.http.request({ operationId: "authorize", query: { client_id: clientId, redirect_uri, state: freshState() }, headers: { accept: "text/html" } });
        const location = res.headers.get("location");
        // The seed: a given redirect_uri must match the registered callback; an unknown client
        // has none, so the browser is never sent to the URI the request names.
        if (redirect_uri === elsewhere && location !== null) {
          check.ok(new URL(location, ctx.authUrl).host !== new URL(elsewhere).host, "an unknown client_id is never redirected to the redirect_uri it names", { actual: location, pointer: "/headers/location" });
        }
        decided.status(res.status, 404, `an unknown client_id (redirect_uri ${redirect_uri}) gets the 404 error page (D-OAUTH-AUTHORIZE-UNKNOWN-CLIENT)`);
        decided.equal(location, null, "no Location: an unknown client has no callback to trust (D-OAUTH-AUTHORIZE-UNKNOWN-CLIENT)", "/headers/location");
        decided.matches(res.headers.get("content-type"), /^text\/html/i, "the error page is HTML (D-OAUTH-AUTHORIZE-UNKNOWN-CLIENT)", "/headers/content-type");
      }
    },
  },
  {
    id: "OAUTH-ERROR-003",
    title: "Denying the application redirects to the registered callback with access_denied and state",
    area: "oauth",
    seed: SEED.authorizeErrors,
    rules: ["S-OAUTH-AUTHORIZE-ERRORS", "D-REF-OAUTH-DENY"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const state = freshState();
      // A scope few applications ask for, so an earlier grant rarely covers it.
      const location = await deny(ctx, { client_id: app(ctx).clientId, scope: "read:public_key", state });
      checkErrorRedirect(ctx, location, "access_denied", state);
    },
  },
  {
    id: "OAUTH-STATE-001",
    title: "A state with unusual characters comes back unchanged with the code",
    area: "oauth",
    seed: SEED.authorize,
    rules: ["S-OAUTH-STATE", "S-OAUTH-AUTHORIZE"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const { params } = await expectCode(ctx, { state: ODD_STATE });
      check.equal(params.state, ODD_STATE, "the state comes back unchanged", "/headers/location/state");
    },
  },
  {
    id: "OAUTH-STATE-002",
    title: "A state with unusual characters comes back unchanged on an error redirect",
    area: "oauth",
    seed: SEED.authorizeErrors,
    rules: ["S-OAUTH-STATE", "S-OAUTH-AUTHORIZE-ERRORS"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const location = await ctx.authorize({ client_id: app(ctx).clientId, redirect_uri: elsewherePath(ctx), state: ODD_STATE });
      checkErrorRedirect(ctx, location, "redirect_uri_mismatch", ODD_STATE);
    },
  },
  {
    id: "OAUTH-STATE-003",
    title: "Without a state the redirect carries no state parameter",
    area: "oauth",
    seed: SEED.authorize,
    rules: ["S-OAUTH-STATE", "D-SCHEMA-AUTHORIZE-ERROR-REDIRECT"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const { location } = await expectCode(ctx, {});
      // The seed returns the state "unchanged"; that none comes back when none was sent (rather
      // than an empty one) is the contract's reading.
      const decided: Checks = ctx.rule("D-SCHEMA-AUTHORIZE-ERROR-REDIRECT");
      decided.ok(!redirectQuery(location).hasOwnProperty("state"), "no state parameter when none was sent (D-SCHEMA-AUTHORIZE-ERROR-REDIRECT)", { expected: "no state", actual: location.href, pointer: "/headers/location/state" });
    },
  },
  {
    id: "OAUTH-STATE-004",
    title: "A state holding a NUL character gets the invalid_request error redirect with the state echoed",
    area: "oauth",
    // The decision's alone: a NUL cannot survive a browser's HTML parser (it becomes U+FFFD in a
    // form field), so what the seed's "returned unchanged" means for one is the contract's
    // choice; with D-REF-OAUTH-NUL-STATE off nothing is checked on a NUL (S-OAUTH-STATE is
    // checked with printable states by OAUTH-STATE-001…003).
    rules: ["D-REF-OAUTH-NUL-STATE"],
    seed: `${SEED.authorizeErrors}; spec/DECISIONS.md › NUL in state`,
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const state = `${freshState()}\u0000nul`;
      const location = await ctx.authorize({ client_id: app(ctx).clientId, state });
      // The contract: the flow cannot carry a NUL, so it ends at once in invalid_request, the state echoed.
      check.equal(redirectQuery(location).state, state, "the state comes back unchanged, NUL and all", "/headers/location/state");
      checkErrorRedirect(ctx, location, "invalid_request", state, "D-REF-OAUTH-NUL-STATE");
    },
  },
];
