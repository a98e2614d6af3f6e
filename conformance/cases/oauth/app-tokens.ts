/**
 * OAUTH-APPS-*: the application endpoints (D-NONWEB-APP-TOKENS: `GET`, `POST`, `DELETE
 * /applications/{client_id}/tokens/{access_token}` with Basic authentication of
 * `client_id:client_secret` — check, reset, revoke; seed: the user, and so the application, can
 * revoke a token at any time). The token they work on is made for the case through the
 * authorizations API's get-or-create for the application (D-NONWEB-AUTHORIZATIONS), with a
 * fingerprint of its own so no other token of the user is touched.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { nonce } from "../../core/random.ts";
import type { HttpResponse } from "../../core/http.ts";
import { freshNote, NONWEB_SEED, nonweb, requireAuthorizationsApi, tidy, tokenStatus, userBasic, type Authorization, type Basic } from "./nonweb-support.ts";
import { tokenFor } from "./support.ts";

type AppCreds = { clientId: string; clientSecret: string };

/**
 * A new token of users[0] for `app`: made with get-or-create and a fresh fingerprint (its
 * authorization `id` known), or — where the target has no get-or-create
 * (D-REF-NONWEB-GET-CREATE off, or its PUT refused, which counts against that decision, not
 * against the application endpoints this case is about) — through the web flow.
 */
async function appToken(ctx: CaseContext, basic: Basic, app: AppCreds, caseId: string): Promise<{ token: string; id?: number }> {
  if (ctx.decisions.on("D-REF-NONWEB-GET-CREATE")) {
    const res = await nonweb(ctx, {
      operationId: "getOrCreateAuthorizationForAppAndFingerprint",
      params: { client_id: app.clientId, fingerprint: `conformance-${nonce()}` },
      basic,
      json: { client_secret: app.clientSecret, scopes: ["public_repo"], note: freshNote(caseId) },
    });
    if (res.status === 201) return res.json<Authorization>();
    ctx.rule("D-REF-NONWEB-GET-CREATE").status(res.status, 201, "a token of the application for users[0] (PUT /authorizations/clients/:client_id/:fingerprint)");
    ctx.note(`the get-or-create answered ${res.status}: the application's token for this case comes from the web flow`);
  }
  const { token } = await tokenFor(ctx, "public_repo");
  return { token };
}

function appRequest(ctx: CaseContext, operationId: "checkApplicationToken" | "resetApplicationToken" | "revokeApplicationToken", path: AppCreds, token: string, as: AppCreds): Promise<HttpResponse> {
  return ctx.http.request({ operationId, params: { client_id: path.clientId, access_token: token }, basic: { username: as.clientId, password: as.clientSecret } });
}

export const APP_TOKEN_CASES: Case[] = [
  {
    id: "OAUTH-APPS-001",
    title: "An application checks its token (200 with the user), resets it (the old one refused, the new one taken) and revokes it (then 404)",
    area: "oauth",
    seed: NONWEB_SEED,
    rules: ["D-NONWEB-APP-TOKENS", "D-SCHEMA-AUTHORIZATION-TOKEN", "D-REF-NONWEB-GET-CREATE"],
    needs: ["user", "basic", "app"],
    async run(ctx) {
      requireAuthorizationsApi(ctx);
      const basic = userBasic(ctx);
      const app = ctx.profile.app!;
      const login = ctx.profile.users[0]!.login;
      const created = await appToken(ctx, basic, app, "OAUTH-APPS-001");
      let revoked = false;
      try {
        const checked = await appRequest(ctx, "checkApplicationToken", app, created.token, app);
        check.status(checked.status, 200, "GET /applications/:client_id/tokens/:token checks the token");
        const body = checked.json<Authorization>();
        if (created.id !== undefined) check.equal(body.id, created.id, "the check answers the token's authorization", "/body/id");
        check.equal(body.user?.login?.toLowerCase(), login.toLowerCase(), "the check names the token's user", "/body/user/login");

        const reset = await appRequest(ctx, "resetApplicationToken", app, created.token, app);
        check.status(reset.status, 200, "POST /applications/:client_id/tokens/:token resets the token");
        const fresh = reset.json<Authorization>();
        check.ok(typeof fresh.token === "string" && fresh.token.length > 0 && fresh.token !== created.token, "the reset answer carries a new token", { expected: "a token other than the old one", actual: fresh.token, pointer: "/body/token" });
        ctx.rule("D-SCHEMA-AUTHORIZATION-TOKEN").equal(fresh.token_last_eight, fresh.token.slice(-8), "token_last_eight is the new token's", "/body/token_last_eight");
        check.equal(await tokenStatus(ctx, created.token), 401, "the old token is refused after a reset", "/status");
        check.equal(await tokenStatus(ctx, fresh.token), 200, "the new token is taken", "/status");

        const gone = await appRequest(ctx, "revokeApplicationToken", app, fresh.token, app);
        check.status(gone.status, 204, "DELETE /applications/:client_id/tokens/:token revokes the token");
        revoked = true;
        check.equal(await tokenStatus(ctx, fresh.token), 401, "a revoked token is refused", "/status");
        const after = await appRequest(ctx, "checkApplicationToken", app, fresh.token, app);
        check.status(after.status, 404, "checking a revoked token: 404");
      } finally {
        if (!revoked && created.id !== undefined) await tidy(ctx, basic, created.id);
      }
    },
  },
  {
    id: "OAUTH-APPS-002",
    title: "An application's credentials on a path naming another application, or on another's token, get 404; a suspended application may still check",
    area: "oauth",
    seed: NONWEB_SEED,
    rules: ["D-REF-NONWEB-APP-ENDPOINTS", "D-NONWEB-APP-TOKENS", "D-REF-NONWEB-GET-CREATE"],
    needs: ["user", "basic", "app", "other-app"],
    async run(ctx) {
      requireAuthorizationsApi(ctx);
      const basic = userBasic(ctx);
      const app = ctx.profile.app!;
      const other = ctx.profile.otherApp!;
      const created = await appToken(ctx, basic, app, "OAUTH-APPS-002");
      try {
        const crossed = await appRequest(ctx, "checkApplicationToken", other, created.token, app);
        check.status(crossed.status, 404, "app A's credentials on a path naming app B: 404");
        const foreign = await appRequest(ctx, "checkApplicationToken", other, created.token, other);
        check.status(foreign.status, 404, "app B checking a token of app A: 404 (it is not B's token; a suspended B may still check)");
        const reset = await appRequest(ctx, "resetApplicationToken", other, created.token, other);
        check.status(reset.status, 404, "app B resetting a token of app A: 404");
        const revoke = await appRequest(ctx, "revokeApplicationToken", other, created.token, other);
        check.status(revoke.status, 404, "app B revoking a token of app A: 404");
        check.equal(await tokenStatus(ctx, created.token), 200, "the token is untouched by the other application's requests", "/status");
        const own = await appRequest(ctx, "checkApplicationToken", app, created.token, app);
        ctx.rule("D-NONWEB-APP-TOKENS").status(own.status, 200, "app A checking its own token: 200");
      } finally {
        if (created.id !== undefined) await tidy(ctx, basic, created.id);
      }
    },
  },
];
