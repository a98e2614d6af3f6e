/**
 * The contract's hardening rules around tokens (spec/DECISIONS.md, reference hardening round two),
 * each a choice beyond the seed and so switchable: token answers are not cached
 * (D-REF-NONWEB-NO-STORE, RFC 6749 §5.1), revoking a token ends the codes issued under its grant
 * (D-REF-REVOKE-ENDS-CODES), the OAuth pages never write back a token given in their URL
 * (D-REF-OAUTH-PAGE-ECHO), and a narrowed token no longer reads from a feed's cache what its old
 * scopes allowed (D-FEED-CACHE-SCOPES; the seed: "a user can edit token scopes after the flow").
 */
import { randomBytes } from "node:crypto";
import type { Case } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { app, credentials, exchange, expectCode, freshState, OAUTH_NEEDS, revokeToken, tokenFor } from "./support.ts";
import { createToken, freshNote, NONWEB_SEED, nonweb, requireAuthorizationsApi, tidy, userBasic } from "./nonweb-support.ts";
import { needsDecision, stopAt } from "../profile.ts";

export const HARDENING_CASES: Case[] = [
  {
    id: "OAUTH-NOSTORE-001",
    title: "The answer that creates a token carries Cache-Control: no-store",
    area: "oauth",
    seed: NONWEB_SEED,
    rules: ["D-REF-NONWEB-NO-STORE"],
    needs: ["user", "basic"],
    async run(ctx) {
      requireAuthorizationsApi(ctx);
      const basic = userBasic(ctx);
      const res = await nonweb(ctx, { operationId: "createAuthorization", basic, json: { scopes: ["public_repo"], note: freshNote("OAUTH-NOSTORE-001") } });
      const id = (res.json<{ id?: number }>().id as number | undefined) ?? undefined;
      try {
        check.status(res.status, 201, "POST /authorizations creates a token");
        check.matches(res.headers.get("cache-control"), /(^|,)\s*no-store\s*(,|$)/i, "an answer carrying a new token is not to be stored by caches (RFC 6749 §5.1)", "/headers/cache-control");
      } finally {
        await tidy(ctx, basic, id);
      }
    },
  },
  {
    id: "OAUTH-REVOKECODES-001",
    title: "Revoking the application's token through the API ends a code issued before it",
    area: "oauth",
    seed: "Authentication › Web application flow",
    rules: ["D-REF-REVOKE-ENDS-CODES", "D-NONWEB-APP-TOKENS"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      needsDecision(ctx, "D-NONWEB-APP-TOKENS", "revoking through the application API");
      const { token } = await tokenFor(ctx, "repo");
      // The grant now covers `repo`: this authorize completes at once with a new code.
      const { code } = await expectCode(ctx, { scope: "repo", state: freshState() });
      const a = app(ctx);
      const revoked = await ctx.http.request({ operationId: "revokeApplicationToken", params: { client_id: a.clientId, access_token: token }, basic: { username: a.clientId, password: a.clientSecret } });
      // Revoking through the application API is D-NONWEB-APP-TOKENS' premise, not this rule's: without it there is nothing to check here.
      if (revoked.status < 200 || revoked.status >= 300) {
        await revokeToken(ctx, token);
        stopAt(ctx, "D-NONWEB-APP-TOKENS", "the application revokes its token", { expected: "2xx", actual: revoked.status, pointer: "/status" });
      }
      const { body } = await exchange(ctx, { ...credentials(ctx), code });
      if (body.access_token) await revokeToken(ctx, body.access_token);
      check.equal(body.error, "bad_verification_code", "a code issued before the revocation no longer buys a token", "/body/error");
    },
  },
  {
    id: "OAUTH-ECHO-001",
    title: "The review and authorize pages never write back an access_token given in their URL",
    area: "oauth",
    seed: "Endpoints › D › Authorization review link",
    rules: ["D-REF-OAUTH-PAGE-ECHO"],
    needs: ["app"],
    async run(ctx) {
      // Not a real token: a marker that must not come back in the page.
      const marker = `conformanceecho${randomBytes(8).toString("hex")}`;
      const pages = [
        { what: "the review page", path: `/settings/connections/applications/${encodeURIComponent(app(ctx).clientId)}` },
        { what: "the authorize page", path: `/login/oauth/authorize?client_id=${encodeURIComponent(app(ctx).clientId)}` },
      ];
      for (const page of pages) {
        const url = new URL(page.path, `${ctx.authUrl}/`);
        url.searchParams.set("access_token", marker);
        const res = await ctx.http.request({ method: "GET", path: url.href, headers: { accept: "text/html" } });
        check.ok(res.status < 500, `${page.what} answers`, { actual: res.status, pointer: "/status" });
        const echoed = res.text.includes(marker) || (res.headers.get("location") ?? "").includes(marker);
        check.ok(!echoed, `${page.what} does not write the access_token of its URL into the page or a redirect (it would end up in logs, history and Referer)`, { expected: "no echo", actual: res.status, pointer: "/body" });
      }
    },
  },
  {
    id: "OAUTH-NARROWED-001",
    title: "A token narrowed after it read a private feed no longer reads it, nor gets a 304 for it",
    area: "oauth",
    seed: "Authentication › Web application flow (a user can edit token scopes after the flow)",
    rules: ["D-FEED-CACHE-SCOPES"],
    needs: ["user", "basic", "private-repo"],
    async run(ctx) {
      requireAuthorizationsApi(ctx);
      const basic = userBasic(ctx);
      const [owner, repo] = ctx.profile.repos!.private!.split("/") as [string, string];
      const created = await createToken(ctx, basic, { scopes: ["repo"], note: freshNote("OAUTH-NARROWED-001") });
      try {
        const first = await ctx.http.request({ operationId: "listRepoEvents", params: { owner, repo }, token: created.token });
        check.status(first.status, 200, "the private repository's feed with a repo token");
        const etag = first.headers.get("etag");
        const narrowed = await nonweb(ctx, { operationId: "updateAuthorization", params: { authorization_id: created.id }, basic, json: { scopes: ["gist"] } });
        check.status(narrowed.status, 200, "PATCH /authorizations/{id} narrows the token to gist");
        const again = await ctx.http.request({ operationId: "listRepoEvents", params: { owner, repo }, token: created.token });
        check.ok(again.status !== 200, "the narrowed token no longer reads the private repository's feed", { expected: "a 4xx (the contract's 404)", actual: again.status, pointer: "/status" });
        if (etag) {
          const conditional = await ctx.http.request({ operationId: "listRepoEvents", params: { owner, repo }, token: created.token, headers: { "if-none-match": etag } });
          check.ok(conditional.status !== 304, "nor gets a 304 for what it read before (a 304 says the private page it holds is still current)", { expected: "a 4xx", actual: conditional.status, pointer: "/status" });
        }
      } finally {
        await tidy(ctx, basic, created.id);
      }
    },
  },
];
