/**
 * OAUTH-SCOPE-*: scopes through the web flow and the scope headers (seed: Authentication › Web
 * application flow, "Scope normalization": `user, gist, user:email` → `user, gist`; the Scopes
 * table's implications; Authentication › Scope headers). The normalized list must be what the
 * token stores, so each case checks the token response and `X-OAuth-Scopes` on an API request
 * made with the token. Order within a list is not part of the rule: lists compare as sets. The
 * seed's scope headers are comma-separated lists; `, ` as the separator and the scopes each
 * operation accepts are the contract's (D-SCOPE-HEADERS). Space-separated input is D-OAUTH-SCOPE-INPUT
 * (the seed's scope parameter is comma-separated).
 */
import type { Case, CaseDraft, CaseContext } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import type { OperationId } from "../../core/http.ts";
import { check } from "../../core/failure.ts";
import { acceptedScopes } from "./accepted-scopes.ts";
import { COMMA_LIST, OAUTH_NEEDS, revokeToken, scopeSet, SEED, tokenFor } from "./support.ts";

/** X-OAuth-Scopes (and X-Accepted-OAuth-Scopes) of an API request made with `token`. */
async function scopeHeaders(ctx: CaseContext, token: string, operationId: OperationId = "listPublicEvents", params: Record<string, string> = {}) {
  const res = await ctx.http.request({ operationId, params, token });
  check.status(res.status, 200, `${operationId} with the new token`);
  const granted = res.headers.get("x-oauth-scopes");
  const accepted = res.headers.get("x-accepted-oauth-scopes");
  check.ok(granted !== null, "a token-authenticated response carries X-OAuth-Scopes", { expected: "the header", actual: null, pointer: "/headers/x-oauth-scopes" });
  check.ok(accepted !== null, "a token-authenticated response carries X-Accepted-OAuth-Scopes", { expected: "the header", actual: null, pointer: "/headers/x-accepted-oauth-scopes" });
  return { granted: scopeSet(granted), accepted: scopeSet(accepted), res };
}

function normalization(id: string, title: string, requested: string, expected: string[]): CaseDraft {
  return {
    id,
    title,
    area: "oauth",
    seed: SEED.scopes,
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const { token, scope } = await tokenFor(ctx, requested);
      check.equal(scopeSet(scope), expected, `requesting "${requested}": the token response's scope`, "/body/scope");
      const { granted } = await scopeHeaders(ctx, token);
      check.equal(granted, expected, `requesting "${requested}": X-OAuth-Scopes of the token`, "/headers/x-oauth-scopes");
      await revokeToken(ctx, token);
    },
  };
}

/** The rules each case below enforces (spec/seed-rules.yaml, spec/DECISIONS.md). */
const RULES: Record<string, readonly string[]> = {
  "OAUTH-SCOPE-001": ["S-OAUTH-SCOPE-NORMALIZATION", "D-OAUTH-SCOPE-INPUT", "S-SCOPE-TABLE"],
  "OAUTH-SCOPE-002": ["S-OAUTH-SCOPE-NORMALIZATION", "D-OAUTH-SCOPE-INPUT", "S-SCOPE-TABLE"],
  "OAUTH-SCOPE-003": ["D-OAUTH-SCOPE-INPUT"],
  "OAUTH-SCOPE-005": ["S-SCOPES-LIMIT", "D-SCHEMA-ACCESS-TOKEN-SCOPE", "D-OAUTH-SCOPE-LIST"],
};

export const SCOPE_CASES: Case[] = withRules(RULES, [
  normalization("OAUTH-SCOPE-001", "user,gist,user:email is stored as user,gist", "user,gist,user:email", ["gist", "user"]),
  normalization("OAUTH-SCOPE-002", "Scopes implied by another requested one are dropped (user:follow by user, read:repo_hook by admin:repo_hook)", "user,user:follow,admin:repo_hook,read:repo_hook", ["admin:repo_hook", "user"]),
  normalization("OAUTH-SCOPE-003", "Space-separated scopes are accepted like comma-separated ones", "repo user", ["repo", "user"]),
  normalization("OAUTH-SCOPE-005", "No scope requested: a token with an empty scope list", "", []),
  {
    id: "OAUTH-SCOPE-004",
    title: "X-OAuth-Scopes lists the token's scopes and X-Accepted-OAuth-Scopes the operation's",
    area: "oauth",
    seed: SEED.scopeHeaders,
    rules: ["S-SCOPE-HEADERS", "D-SCOPE-HEADERS"],
    needs: [...OAUTH_NEEDS, "public-repo"],
    async run(ctx) {
      const { token } = await tokenFor(ctx, "repo,user");
      const [owner, repo] = ctx.profile.repos!.public!.split("/") as [string, string];
      const decided = ctx.rule("D-SCOPE-HEADERS");
      for (const [operationId, params] of [["listRepoEvents", { owner, repo }], ["listPublicEvents", {}]] as const) {
        const { res } = await scopeHeaders(ctx, token, operationId, params);
        for (const name of ["x-oauth-scopes", "x-accepted-oauth-scopes"]) {
          const value = res.headers.get(name);
          // The seed: comma-separated lists. The contract: joined with ", " (D-SCOPE-HEADERS).
          check.matches(value, COMMA_LIST, `${operationId}: ${name} is a comma-separated list`, `/headers/${name}`);
          decided.matches(value, /^([^,\s]+(, [^,\s]+)*)?$/, `${operationId}: ${name} is joined with ", " (D-SCOPE-HEADERS)`, `/headers/${name}`);
        }
        check.equal(scopeSet(res.headers.get("x-oauth-scopes")), ["repo", "user"], `${operationId}: X-OAuth-Scopes lists the token's scopes`, "/headers/x-oauth-scopes");
        // Which scopes an operation checks for is the contract's (x-accepted-scopes; D-ANONYMOUS-ACCESS for the feeds).
        decided.equal(scopeSet(res.headers.get("x-accepted-oauth-scopes")), acceptedScopes(operationId), `${operationId}: X-Accepted-OAuth-Scopes is the contract's x-accepted-scopes (D-SCOPE-HEADERS)`, "/headers/x-accepted-oauth-scopes");
      }
      await revokeToken(ctx, token);
    },
  },
]);
