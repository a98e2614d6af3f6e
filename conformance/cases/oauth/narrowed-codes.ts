/**
 * OAUTH-NARROWCODES-001: a code issued before the user narrowed the grant does not bring the old
 * scopes back (D-REF-NARROW-ENDS-CODES; the seed: "a user can edit token scopes after the flow").
 * The user holds a `repo,gist` token of the application; the application's next authorize request
 * completes at once with a code (the grant covers it); the user then narrows the authorization to
 * `gist` with `PATCH /authorizations/{id}` (D-NONWEB-AUTHORIZATIONS; the id from the application's
 * token check, D-NONWEB-APP-TOKENS). Exchanging that code must
 * give no more than `gist`: the reference ends the code (`bad_verification_code`); a token at the
 * narrowed scopes keeps the rule too.
 */
import type { Case } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { app, credentials, exchange, expectCode, freshState, OAUTH_NEEDS, revokeToken, scopeSet, tokenFor } from "./support.ts";
import { nonweb, requireAuthorizationsApi, userBasic, type Authorization } from "./nonweb-support.ts";

const RULE = "D-REF-NARROW-ENDS-CODES";

export const NARROWED_CODE_CASES: Case[] = [
  {
    id: "OAUTH-NARROWCODES-001",
    title: "A code issued before PATCH /authorizations/{id} narrowed the grant does not exchange at the old, wider scopes",
    area: "oauth",
    seed: "Authentication › Web application flow (a user can edit token scopes after the flow)",
    rules: [RULE, "D-NONWEB-AUTHORIZATIONS", "D-NONWEB-APP-TOKENS"],
    needs: [...OAUTH_NEEDS, "basic"],
    async run(ctx) {
      requireAuthorizationsApi(ctx);
      const basic = userBasic(ctx);
      const first = await tokenFor(ctx, "repo,gist");
      const tokens = [first.token];
      try {
        const a = app(ctx);
        const checked = await ctx.http.request({ operationId: "checkApplicationToken", params: { client_id: a.clientId, access_token: first.token }, basic: { username: a.clientId, password: a.clientSecret } });
        check.status(checked.status, 200, "the application checks its token (GET /applications/{client_id}/tokens/{access_token}): its authorization");
        const mine = checked.json<Authorization>();
        // The grant covers repo,gist: this completes at once, with a code carrying those scopes.
        const { code } = await expectCode(ctx, { scope: "repo,gist", state: freshState() });
        const narrowed = await nonweb(ctx, { operationId: "updateAuthorization", params: { authorization_id: mine.id }, basic, json: { scopes: ["gist"] } });
        check.status(narrowed.status, 200, "PATCH /authorizations/{id} narrows the grant to gist");
        check.equal(scopeSet(narrowed.json<Authorization>().scopes.join(",")), ["gist"], "the authorization now lists gist only", "/body/scopes");
        const { body } = await exchange(ctx, { ...credentials(ctx), code });
        if (body.access_token) tokens.push(body.access_token);
        const c = ctx.rule(RULE);
        if (body.error !== undefined) {
          c.equal(body.error, "bad_verification_code", "the code issued before the narrowing is ended: bad_verification_code", "/body/error");
          return;
        }
        c.equal(scopeSet(body.scope), ["gist"], "a token from a code issued before the narrowing has the narrowed scopes, never the old ones (repo,gist)", "/body/scope");
        const res = await ctx.http.request({ operationId: "listPublicEvents", token: body.access_token! });
        c.equal(scopeSet(res.headers.get("x-oauth-scopes")), ["gist"], "X-OAuth-Scopes of that token: gist only", "/headers/x-oauth-scopes");
      } finally {
        for (const token of tokens) await revokeToken(ctx, token);
      }
    },
  },
];
