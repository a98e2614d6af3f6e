/**
 * OAUTH-TRANSPORT-*: both ways of sending a token (seed: Authentication › Sending the token —
 * `Authorization: token …` and the `access_token` query parameter). Each transport must be read:
 * the profile's token is accepted (the response carries X-OAuth-Scopes, which only a
 * token-authenticated response has) and a made-up token in the same place is refused with 401
 * `Bad credentials` (D-ERRORS), which proves the server looked at it rather than answering
 * anonymously.
 */
import { randomHex } from "../../core/random.ts";
import type { Case, CaseContext } from "../../core/types.ts";
import type { RequestOptions } from "../../core/http.ts";
import { check } from "../../core/failure.ts";
import { scopeSet, SEED } from "./support.ts";

type Send = (token: string) => Pick<RequestOptions, "token" | "query">;

async function transportCase(ctx: CaseContext, how: string, send: Send): Promise<void> {
  const token = ctx.profile.users[0]!.token!;
  const ok = await ctx.http.request({ operationId: "listPublicEvents", ...send(token) });
  check.status(ok.status, 200, `the profile's token in ${how}`);
  const scopes = ok.headers.get("x-oauth-scopes");
  check.ok(scopes !== null, `a token in ${how} authenticates the request (X-OAuth-Scopes is sent)`, { expected: "X-OAuth-Scopes", actual: null, pointer: "/headers/x-oauth-scopes" });
  ctx.note(`X-OAuth-Scopes: ${scopeSet(scopes).join(", ")}`);
  // How an unknown token is refused is the contract's (D-ERRORS: 401 "Bad credentials"); the seed
  // shows no error answers for the API.
  const bogus = await ctx.http.request({ operationId: "listPublicEvents", ...send(randomHex(20)) });
  const errors = ctx.rule("D-ERRORS");
  errors.status(bogus.status, 401, `a made-up token in ${how} is refused with 401 (D-ERRORS)`);
  if (bogus.status === 401) errors.equal(bogus.json<{ message?: string }>().message, "Bad credentials", "the 401 message (D-ERRORS)", "/body/message");
}

export const TRANSPORT_CASES: Case[] = [
  {
    id: "OAUTH-TRANSPORT-001",
    title: "A token in the Authorization header (token …) authenticates; a bad one gets 401",
    area: "oauth",
    seed: SEED.sending,
    rules: ["S-TOKEN-TRANSPORT", "D-ERRORS"],
    needs: ["user"],
    run: (ctx) => transportCase(ctx, "the Authorization header", (token) => ({ token })),
  },
  {
    id: "OAUTH-TRANSPORT-002",
    title: "A token in the access_token query parameter authenticates; a bad one gets 401",
    area: "oauth",
    seed: SEED.sending,
    rules: ["S-TOKEN-TRANSPORT", "D-ERRORS"],
    needs: ["user"],
    run: (ctx) => transportCase(ctx, "the access_token query parameter", (token) => ({ query: { access_token: token } })),
  },
];
