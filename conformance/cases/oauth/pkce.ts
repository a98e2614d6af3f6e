/**
 * OAUTH-PKCE-*: PKCE on the web flow (RFC 7636, S256 only; beyond the seed, spec/DECISIONS.md ›
 * PKCE). A code asked for with a `code_challenge` exchanges only with the verifier that hashes to
 * it — without it, or with another, the answer is `bad_verification_code` and the code is still
 * good for the right verifier; a code asked for without a challenge is not exchanged with a
 * verifier; `plain` and a challenge without a method get the `invalid_request` error redirect.
 * Skipped when the profile says `pkce: false`. Cases that obtain a token revoke the grant again.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Case, CaseContext } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { app, checkErrorRedirect, checkTokenStatus, credentials, exchange, expectCode, freshState, OAUTH_NEEDS, revokeToken } from "./support.ts";

const SEED = "Authentication › Web application flow; spec/DECISIONS.md › PKCE (RFC 7636)";

function verifier(): string {
  return randomBytes(32).toString("base64url");
}

function challengeOf(v: string): string {
  return createHash("sha256").update(v, "ascii").digest("base64url");
}

function pkceCase(id: string, title: string, run: (ctx: CaseContext) => Promise<void>): Case {
  return {
    id,
    title,
    area: "oauth",
    seed: SEED,
    rules: ["D-OAUTH-PKCE", "D-OAUTH-TOKEN-ERROR-STATUS"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      if (ctx.profile.pkce === false) ctx.skip("the profile says the target has no PKCE (pkce: false)");
      await run(ctx);
    },
  };
}

/** Exchanges `code` with the given extra fields, expecting `error` (or a token when undefined); returns the token. */
async function expectExchange(ctx: CaseContext, code: string, extra: Record<string, string>, error: string | undefined, what: string): Promise<string | undefined> {
  const { res, body } = await exchange(ctx, { ...credentials(ctx), code, ...extra });
  if (error !== undefined) {
    check.equal(body.error, error, `${what}: the exchange is refused with ${error}`, "/body/error");
    checkTokenStatus(ctx, res, body);
    return undefined;
  }
  check.ok(!body.error && body.access_token, `${what}: the exchange gives a token`, { expected: "access_token", actual: body, pointer: "/body" });
  return body.access_token;
}

export const PKCE_CASES: Case[] = [
  pkceCase("OAUTH-PKCE-001", "A code asked for with an S256 code_challenge is exchanged with its code_verifier", async (ctx) => {
    const v = verifier();
    const { code } = await expectCode(ctx, { state: freshState(), code_challenge: challengeOf(v), code_challenge_method: "S256" });
    const token = await expectExchange(ctx, code, { code_verifier: v }, undefined, "the right verifier");
    if (token) await revokeToken(ctx, token);
  }),
  pkceCase("OAUTH-PKCE-002", "Such a code without its code_verifier, or with another, is bad_verification_code, and stays good for the right one", async (ctx) => {
    const v = verifier();
    const { code } = await expectCode(ctx, { state: freshState(), code_challenge: challengeOf(v), code_challenge_method: "S256" });
    await expectExchange(ctx, code, {}, "bad_verification_code", "no code_verifier");
    await expectExchange(ctx, code, { code_verifier: verifier() }, "bad_verification_code", "another code_verifier");
    const token = await expectExchange(ctx, code, { code_verifier: v }, undefined, "then the right verifier");
    if (token) await revokeToken(ctx, token);
  }),
  pkceCase("OAUTH-PKCE-003", "A code asked for without a code_challenge is not exchanged with a code_verifier", async (ctx) => {
    const { code } = await expectCode(ctx, { state: freshState() });
    await expectExchange(ctx, code, { code_verifier: verifier() }, "bad_verification_code", "a code_verifier for a code issued without a challenge");
    const token = await expectExchange(ctx, code, {}, undefined, "then without one");
    if (token) await revokeToken(ctx, token);
  }),
  pkceCase("OAUTH-PKCE-004", "code_challenge_method=plain, or a code_challenge without a method, gets the invalid_request redirect with the state", async (ctx) => {
    const v = verifier();
    const variants: Record<string, string>[] = [{ code_challenge: v, code_challenge_method: "plain" }, { code_challenge: challengeOf(v) }];
    for (const extra of variants) {
      ctx.note(`authorize with ${JSON.stringify(extra)}`);
      const state = freshState();
      const location = await ctx.authorize({ client_id: app(ctx).clientId, state, ...extra });
      checkErrorRedirect(ctx, location, "invalid_request", state);
    }
  }),
];
