/**
 * OAUTH-UNREADABLE-* and OAUTH-UNKNOWNSCOPE-*: what the web flow does with input it cannot use.
 * A token request the endpoint cannot read (fields of the wrong type, a body that is not JSON) is
 * answered like any token error — status 200 (or the declared D-OAUTH-TOKEN-ERROR-STATUS) with the OAuth error its checks reach in their
 * usual order (D-OAUTH-TOKEN-UNREADABLE). Unknown scope names on the authorize page are ignored:
 * the code and its token carry the known ones only (D-REF-OAUTH-UNKNOWN-SCOPES; the non-web
 * flow's 422 for them is OAUTH-NONWEB-004's).
 */
import type { Case } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { nonce, randomHex } from "../../core/random.ts";
import { credentials, exchange, expectCode, freshState, OAUTH_NEEDS, revokeToken, scopeSet, SEED, tokenBody } from "./support.ts";

export const TOKEN_READ_CASES: Case[] = [
  {
    id: "OAUTH-UNREADABLE-001",
    title: "A token request with fields of the wrong type or a body that is not JSON gets 200 with the OAuth error its checks reach",
    area: "oauth",
    seed: SEED.tokenErrors,
    rules: ["D-OAUTH-TOKEN-UNREADABLE", "D-OAUTH-TOKEN-ERROR-STATUS"],
    needs: ["app"],
    async run(ctx) {
      // The status of token errors is a declarable choice: the one the profile declares, else 200.
      const status = ctx.decisions.value("D-OAUTH-TOKEN-ERROR-STATUS");
      const ask = async (init: { json?: unknown; body?: string }, what: string, error: string) => {
        const res = await ctx.http.request({ operationId: "createAccessToken", ...init, headers: { accept: "application/json", "content-type": "application/json" } });
        ctx.rule("D-OAUTH-TOKEN-ERROR-STATUS").status(res.status, status, `${what}: the token endpoint answers ${status}, as for every token error`);
        const body = tokenBody(res);
        check.equal(body.error, error, `${what}: error ${error}`, "/body/error");
        check.ok(!body.access_token, `${what}: no token`, { actual: body.access_token, pointer: "/body/access_token" });
      };
      const { client_id, client_secret } = credentials(ctx);
      await ask({ json: { client_id: 12345, client_secret: [client_secret], code: { code: "x" } } }, "client_id a number and client_secret an array", "incorrect_client_credentials");
      await ask({ body: `{"client_id": "${client_id}", "client_secret": ` }, "a body that is not JSON", "incorrect_client_credentials");
      await ask({ json: { client_id, client_secret, code: 12345678 } }, "the right credentials and code a number", "bad_verification_code");
      await ask({ json: { client_id, client_secret, code: [`conformance-${randomHex(10)}`] } }, "the right credentials and code an array", "bad_verification_code");
    },
  },
  {
    id: "OAUTH-UNKNOWNSCOPE-001",
    title: "Unknown scope names on the authorize page are ignored: the token carries the known ones only",
    area: "oauth",
    seed: SEED.authorize,
    rules: ["D-REF-OAUTH-UNKNOWN-SCOPES", "D-OAUTH-SCOPE-INPUT"],
    needs: [...OAUTH_NEEDS],
    async run(ctx) {
      const unknown = `conformance-unknown-${nonce()}`;
      const { code } = await expectCode(ctx, { scope: `gist,${unknown}`, state: freshState() });
      const { body } = await exchange(ctx, { ...credentials(ctx), code });
      check.ok(body.access_token, "the code of a request with an unknown scope is exchanged for a token", { expected: "access_token", actual: body, pointer: "/body/access_token" });
      try {
        const scopes = scopeSet(body.scope);
        check.ok(!scopes.includes(unknown), "the unknown name is not granted", { expected: "no unknown scope", actual: body.scope, pointer: "/body/scope" });
        check.ok(scopes.includes("gist"), "the known scope asked for is granted (or was granted the last time)", { expected: "gist among the scopes", actual: body.scope, pointer: "/body/scope" });
      } finally {
        await revokeToken(ctx, body.access_token!);
      }
    },
  },
];
