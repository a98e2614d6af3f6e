/**
 * OAUTH-UNKNOWNSCOPE-002: a name that is no scope, asked for on the authorize page, is never
 * granted — checked as the seed says it, whatever the target does with such a name. The seed: the
 * token response's `scope` lists "scopes that the user granted", the scopes are the rows of its
 * Scopes table (S-SCOPE-TABLE), and `X-OAuth-Scopes` lists "scopes the token has" (S-SCOPE-HEADERS).
 * So a token from a request with unknown names carries scopes of the table only, in its response
 * and on the API. What happens to the request is the target's: the contract ignores unknown names
 * (D-REF-OAUTH-UNKNOWN-SCOPES, OAUTH-UNKNOWNSCOPE-001), another target may refuse it with an error
 * redirect — nothing granted, which this case accepts and notes.
 */
import type { Case } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { nonce } from "../../core/random.ts";
import { app, checkTokenStatus, credentials, freshState, OAUTH_NEEDS, redirectQuery, revokeToken, scopeSet, tokenBody } from "./support.ts";

/** The seed's Scopes table, its "(no scope)" row aside (an empty list, not a name). */
export const SEED_SCOPES: readonly string[] = [
  "user",
  "user:email",
  "user:follow",
  "public_repo",
  "repo",
  "repo_deployment",
  "repo:status",
  "delete_repo",
  "notifications",
  "gist",
  "read:repo_hook",
  "write:repo_hook",
  "admin:repo_hook",
  "admin:org_hook",
  "read:org",
  "write:org",
  "admin:org",
  "read:public_key",
  "write:public_key",
  "admin:public_key",
];

export const AUTHORIZE_SCOPE_CASES: Case[] = [
  {
    id: "OAUTH-UNKNOWNSCOPE-002",
    title: "Names that are no scope, asked for on the authorize page, are never granted: the token's scope and X-OAuth-Scopes hold scopes of the seed's table only",
    area: "oauth",
    seed: "Authentication › Scopes; Resources › Access token response",
    rules: ["S-SCOPE-TABLE", "S-TOKEN-RESPONSE-FIELDS", "S-SCOPE-HEADERS"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const tag = nonce();
      // One name nothing like a scope, one shaped like the table's `kind:resource` names.
      const unknown = [`conformance-unknown-${tag}`, `admin:conformance${tag}`];
      const state = freshState();
      const location = await ctx.authorize({ client_id: app(ctx).clientId, scope: ["gist", ...unknown].join(","), state });
      const params = redirectQuery(location);
      if (params.error !== undefined || params.code === undefined) {
        // Refusing the request grants nothing: the seed rule holds (how it is refused is the target's).
        check.ok(params.code === undefined, "a refusal carries no code", { actual: location.href, pointer: "/headers/location" });
        ctx.note(`the target refused the request with unknown scope names (${params.error ?? "no code"}): nothing was granted`);
        return;
      }
      // Not validated against the contract's schema: this case's own checks say what is wrong, as the seed states it.
      const res = await ctx.http.request({ operationId: "createAccessToken", form: { ...credentials(ctx), code: params.code }, headers: { accept: "application/json" }, validate: false });
      const body = tokenBody(res);
      checkTokenStatus(ctx, res, body);
      check.ok(body.access_token, "the code is exchanged for a token", { expected: "access_token", actual: body.error ?? body, pointer: "/body/access_token" });
      try {
        const granted = scopeSet(body.scope);
        const foreign = granted.filter((s) => !SEED_SCOPES.includes(s));
        check.equal(foreign, [], "the token response's scope lists granted scopes, all of the seed's Scopes table: no name asked for that is no scope", "/body/scope");
        const res = await ctx.http.request({ operationId: "listPublicEvents", token: body.access_token! });
        check.status(res.status, 200, "an API request with the token");
        const header = res.headers.get("x-oauth-scopes");
        check.ok(header !== null, "a token-authenticated response carries X-OAuth-Scopes", { expected: "the header", actual: null, pointer: "/headers/x-oauth-scopes" });
        const has = scopeSet(header).filter((s) => !SEED_SCOPES.includes(s));
        check.equal(has, [], "X-OAuth-Scopes (the scopes the token has) lists scopes of the seed's table only", "/headers/x-oauth-scopes");
      } finally {
        await revokeToken(ctx, body.access_token!);
      }
    },
  },
];
