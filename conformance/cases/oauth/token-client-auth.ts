/**
 * OAUTH-CLIENTAUTH-001: client authentication with HTTP Basic at the token endpoint
 * (D-OAUTH-CLIENT-BASIC; RFC 6749 §2.3.1, which an authorization server MUST support and which
 * common client libraries send by default). The seed names `client_id` and `client_secret` as
 * parameters only, so the whole case is the contract's and switchable: a code exchanges with
 * `Authorization: Basic base64(urlencode(client_id):urlencode(client_secret))` and no secret in
 * the body; a wrong secret in Basic gets the same `incorrect_client_credentials` as in the body;
 * Basic together with a `client_secret` in the body is two methods in one request (RFC 6749 §2.3)
 * and is refused the same way — leaving the code unused (D-REF-OAUTH-TOKEN-CHECKS: a wrong client
 * does not use it up), so the case then exchanges it properly.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { nonce } from "../../core/random.ts";
import { app, checkTokenStatus, expectCode, freshState, OAUTH_NEEDS, revokeToken, SEED, tokenBody, type TokenBody } from "./support.ts";

const RULE = "D-OAUTH-CLIENT-BASIC";

/** RFC 6749 §2.3.1: each part form-urlencoded before it is joined and base64-encoded. */
function basicHeader(id: string, secret: string): string {
  const encode = (v: string) => new URLSearchParams({ v }).toString().slice(2);
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`, "utf8").toString("base64")}`;
}

async function exchangeWith(ctx: CaseContext, authorization: string, form: Record<string, string>): Promise<TokenBody> {
  const res = await ctx.http.request({ operationId: "createAccessToken", form, headers: { accept: "application/json", authorization } });
  const body = tokenBody(res);
  checkTokenStatus(ctx, res, body);
  return body;
}

export const CLIENT_AUTH_CASES: Case[] = [
  {
    id: "OAUTH-CLIENTAUTH-001",
    title: "The token endpoint takes the client's credentials with HTTP Basic; a wrong Basic secret, or Basic with client_secret in the body, gets incorrect_client_credentials",
    area: "oauth",
    seed: SEED.token,
    rules: [RULE, "D-OAUTH-TOKEN-ERROR-STATUS"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const a = app(ctx);
      const c = ctx.rule(RULE);
      const { code } = await expectCode(ctx, { scope: "gist", state: freshState() });
      const tokens: string[] = [];
      try {
        const wrong = await exchangeWith(ctx, basicHeader(a.clientId, `conformance-wrong-${nonce()}`), { code });
        c.equal(wrong.error, "incorrect_client_credentials", "a wrong secret in Basic: incorrect_client_credentials, as in the body", "/body/error");
        if (wrong.access_token) tokens.push(wrong.access_token);
        const both = await exchangeWith(ctx, basicHeader(a.clientId, a.clientSecret), { client_id: a.clientId, client_secret: a.clientSecret, code });
        c.equal(both.error, "incorrect_client_credentials", "Basic and client_secret in the body at once (two methods, RFC 6749 §2.3): incorrect_client_credentials", "/body/error");
        if (both.access_token) tokens.push(both.access_token);
        const basic = await exchangeWith(ctx, basicHeader(a.clientId, a.clientSecret), { code });
        c.ok(basic.access_token, "the code exchanges with the client's credentials in HTTP Basic only", { expected: "access_token", actual: basic.error ?? basic, pointer: "/body/access_token" });
        tokens.push(basic.access_token!);
        c.equal(basic.token_type, "bearer", "token_type", "/body/token_type");
        const res = await ctx.http.request({ operationId: "listPublicEvents", token: basic.access_token! });
        c.status(res.status, 200, "the token works on an API request");
      } finally {
        for (const token of tokens) await revokeToken(ctx, token);
      }
    },
  },
];
