/**
 * Two requests that used to be made by the OAuth cases' clean-up and so were checked on the way,
 * until the clean-up moved to the seed's own means (issue 40): checked by cases of their own.
 *
 * OAUTH-APPS-003 — `DELETE /applications/{client_id}/grants/{access_token}` (D-NONWEB-APP-TOKENS)
 * revokes the user's whole grant to the application: every token of it refused, and the next
 * authorize shows the consent page again (no automatic completion). A target answering 204 and
 * revoking nothing fails here. The grant holds only tokens the case made: where users[0]'s own
 * profile token is the application's, revoking the grant would take it, and the case is skipped.
 *
 * OAUTH-NONWEB-007 — `GET`, `PATCH`, `DELETE /authorizations/{id}` (D-NONWEB-AUTHORIZATIONS) find
 * only the signed-in user's authorizations: another user's, named by id, is 404 and untouched.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { app, credentials, exchange, freshState, OAUTH_NEEDS, tokenFor } from "./support.ts";
import { createToken, freshNote, NONWEB_SEED, nonweb, requireAuthorizationsApi, tokenStatus, userBasic, type Authorization } from "./nonweb-support.ts";

function appBasic(ctx: CaseContext): { username: string; password: string } {
  const a = app(ctx);
  return { username: a.clientId, password: a.clientSecret };
}

export const REVOCATION_CHECK_CASES: Case[] = [
  {
    id: "OAUTH-APPS-003",
    title: "An application revokes a user's grant: every token of it is refused and the next authorize asks for consent again",
    area: "oauth",
    seed: "Authentication › Web application flow",
    rules: ["D-NONWEB-APP-TOKENS"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      if (ctx.decisions.off("D-NONWEB-APP-TOKENS")) ctx.skip("not checked: D-NONWEB-APP-TOKENS is switched off in the profile (the application API, grant revocation included, is the contract's)");
      const a = app(ctx);
      const own = ctx.profile.users[0]?.token;
      if (own) {
        const mine = await ctx.http.request({ operationId: "checkApplicationToken", params: { client_id: a.clientId, access_token: own }, basic: appBasic(ctx), validate: false });
        if (mine.status === 200) ctx.skip(`not checked: users[0]'s profile token is a token of ${a.clientId}, and revoking the grant would take it; give users[0] a token of its own`);
      }
      // Two tokens of one grant: the second authorize completes at once (the seed's automatic completion).
      const first = await tokenFor(ctx, "gist");
      const second = await tokenFor(ctx, "gist");
      check.equal(await tokenStatus(ctx, first.token), 200, "the first token is taken before the revocation", "/status");
      const d = ctx.rule("D-NONWEB-APP-TOKENS");
      const revoked = await ctx.http.request({ operationId: "revokeApplicationGrant", params: { client_id: a.clientId, access_token: second.token }, basic: appBasic(ctx) });
      d.status(revoked.status, 204, "DELETE /applications/:client_id/grants/:access_token revokes the grant (204)");
      for (const [name, token] of [["the token named", second.token], ["the grant's other token", first.token]] as const) d.equal(await tokenStatus(ctx, token), 401, `${name} is refused once the grant is revoked`, "/status");
      // No grant left: no automatic completion, the consent page is shown, and denying it is possible.
      const state = freshState();
      const next = await ctx.authorize({ client_id: a.clientId, scope: "gist", state }, { decision: "deny" });
      const code = next.searchParams.get("code");
      if (code) await exchange(ctx, { ...credentials(ctx), code }); // its token is the clean-up's (made.ts)
      d.ok(code === null && next.searchParams.get("error") === "access_denied", "after the grant is revoked the authorize page asks for consent again (no automatic completion)", { expected: "access_denied (the consent page was shown and denied)", actual: next.href, pointer: "/headers/location" });
    },
  },
  {
    id: "OAUTH-NONWEB-007",
    title: "Another user's authorization, named by id, is 404 to GET, PATCH and DELETE and stays untouched",
    area: "oauth",
    seed: NONWEB_SEED,
    rules: ["D-NONWEB-AUTHORIZATIONS"],
    needs: ["user", "basic", "second-user"],
    async run(ctx) {
      requireAuthorizationsApi(ctx);
      const basic = userBasic(ctx);
      const other = ctx.profile.users[1];
      if (!other?.password) return ctx.skip("profile has no password for users[1] (the case makes an authorization of theirs with Basic authentication)");
      // users[1]'s, removed by the case's clean-up as users[1].
      const theirs = await createToken(ctx, { username: other.login, password: other.password }, { scopes: [], note: freshNote("OAUTH-NONWEB-007") });
      const d = ctx.rule("D-NONWEB-AUTHORIZATIONS");
      const read = await nonweb(ctx, { operationId: "getAuthorization", params: { authorization_id: theirs.id }, basic });
      d.status(read.status, 404, `users[0] reading users[1]'s authorization ${theirs.id} by id: 404`);
      if (read.status === 200) d.ok(read.json<Authorization>().id !== theirs.id, "another user's authorization is not served", { expected: 404, actual: read.text.slice(0, 200), pointer: "/body" });
      const edited = await nonweb(ctx, { operationId: "updateAuthorization", params: { authorization_id: theirs.id }, basic, json: { add_scopes: ["gist"] } });
      d.status(edited.status, 404, `users[0] editing users[1]'s authorization ${theirs.id}: 404`);
      const deleted = await nonweb(ctx, { operationId: "deleteAuthorization", params: { authorization_id: theirs.id }, basic });
      d.status(deleted.status, 404, `users[0] deleting users[1]'s authorization ${theirs.id}: 404`);
      d.equal(await tokenStatus(ctx, theirs.token), 200, "users[1]'s token still works after users[0]'s requests", "/status");
    },
  },
];
