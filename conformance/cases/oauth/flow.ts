/**
 * OAUTH-FLOW-*: rules of the web application flow beyond its single steps (seed: Authentication ›
 * Web application flow — "If the user already has a valid token for the application, the
 * authorize step skips the scope page and completes automatically with the scopes used the last
 * time"). The second authorization asks for less than the first granted; the code it returns
 * must carry the first grant's scopes, which a server that showed the consent page again (and
 * granted only what was asked) would not.
 */
import type { Case } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { credentials, exchange, expectCode, freshState, OAUTH_NEEDS, revokeToken, scopeSet, SEED, tokenFor } from "./support.ts";

export const FLOW_CASES: Case[] = [
  {
    id: "OAUTH-FLOW-001",
    title: "Authorizing again while a token is valid completes with the scopes granted last time",
    area: "oauth",
    seed: SEED.flow,
    rules: ["S-OAUTH-AUTO-COMPLETE", "D-OAUTH-AUTO-COMPLETE", "D-REF-OAUTH-SKIP-CONSENT"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const first = await tokenFor(ctx, "repo,user");
      check.equal(scopeSet(first.scope), ["repo", "user"], "the first token's scope", "/body/scope");
      const { code } = await expectCode(ctx, { scope: "user", state: freshState() });
      const { body } = await exchange(ctx, { ...credentials(ctx), code });
      check.ok(body.access_token, "the second code exchanges for a token", { actual: body, pointer: "/body/access_token" });
      check.equal(scopeSet(body.scope), ["repo", "user"], "the second token has the scopes used the last time (repo, user), not just the requested user", "/body/scope");
      // One grant holds both tokens: revoking it ends both.
      await revokeToken(ctx, body.access_token!);
    },
  },
];
