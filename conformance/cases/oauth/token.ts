/**
 * OAUTH-TOKEN-*: the token exchange (seed: Endpoints › D › POST access_token; Errors › Access
 * token request errors). The three formats by `Accept` — none (a URL-encoded form), JSON, XML
 * with root `OAuth` — each with access_token, scope and token_type `bearer`, and a token that
 * works; the three error codes by their exact names, with error_description and error_uri, in
 * the format asked for (status 200, as the contract decides); and a code that works only once.
 */
import { randomHex } from "../../core/random.ts";
import type { Case, CaseContext } from "../../core/types.ts";
import type { HttpResponse } from "../../core/http.ts";
import { check } from "../../core/failure.ts";
import { postFormWithoutAccept } from "./bare-request.ts";
import { credentials, exchange, expectCode, freshState, mediaTypeOf, OAUTH_NEEDS, parseXmlBody, revokeToken, SEED, type TokenBody } from "./support.ts";

function checkToken(body: TokenBody, format: string): string {
  check.ok(!body.error, `${format}: the exchange failed with ${body.error}`, { expected: "access_token", actual: body, pointer: "/body/error" });
  check.ok(typeof body.access_token === "string" && body.access_token.length > 0, `${format}: access_token`, { actual: body.access_token, pointer: "/body/access_token" });
  check.equal(body.token_type, "bearer", `${format}: token_type`, "/body/token_type");
  check.ok(typeof body.scope === "string", `${format}: scope is present`, { actual: body.scope, pointer: "/body/scope" });
  return body.access_token!;
}

function checkTokenError(body: TokenBody, error: string, format = "JSON"): void {
  check.equal(body.error, error, `${format}: the error code`, "/body/error");
  check.ok(typeof body.error_description === "string" && body.error_description.length > 0, `${format}: error_description`, { actual: body.error_description, pointer: "/body/error_description" });
  check.matches(body.error_uri, /^https?:\/\/\S+$/, `${format}: error_uri is an absolute URL`, "/body/error_uri");
  check.ok(body.access_token === undefined, `${format}: an error carries no access_token`, { actual: body.access_token, pointer: "/body/access_token" });
}

/** The token authenticates an API request. */
async function tokenWorks(ctx: CaseContext, token: string): Promise<void> {
  const res = await ctx.http.request({ operationId: "listPublicEvents", token });
  check.status(res.status, 200, "an API request with the new token");
  check.ok(res.headers.get("x-oauth-scopes") !== null, "the API knows the token (X-OAuth-Scopes)", { pointer: "/headers/x-oauth-scopes" });
}

async function freshCode(ctx: CaseContext, scope = "gist"): Promise<string> {
  return (await expectCode(ctx, { scope, state: freshState() })).code;
}

/** After an error case: exchange the still-unused code properly (if it still works) and revoke. */
async function tidy(ctx: CaseContext, code: string): Promise<void> {
  const { body } = await exchange(ctx, { ...credentials(ctx), code });
  if (body.access_token) await revokeToken(ctx, body.access_token);
}

function tokenUrl(ctx: CaseContext): string {
  return ctx.http.url({ operationId: "createAccessToken" });
}

function formBody(res: HttpResponse): TokenBody {
  return Object.fromEntries(new URLSearchParams(res.text));
}

const randomCode = () => randomHex(20);

export const TOKEN_CASES: Case[] = [
  {
    id: "OAUTH-TOKEN-001",
    title: "Without Accept the token comes as a URL-encoded form (access_token, scope, token_type)",
    area: "oauth",
    seed: SEED.token,
    rules: ["S-OAUTH-TOKEN-FORMATS", "S-TOKEN-RESPONSE-FIELDS", "S-OAUTH-TOKEN-EXCHANGE", "S-OAUTH-FLOW", "D-OAUTH-TOKEN-REQUEST-BODY"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const code = await freshCode(ctx);
      const res = await postFormWithoutAccept(ctx, "createAccessToken", tokenUrl(ctx), { ...credentials(ctx), code });
      check.status(res.status, 200);
      check.equal(mediaTypeOf(res), "application/x-www-form-urlencoded", "no Accept: the body is a URL-encoded form", "/headers/content-type");
      const token = checkToken(formBody(res), "form");
      await tokenWorks(ctx, token);
      await revokeToken(ctx, token);
    },
  },
  {
    id: "OAUTH-TOKEN-002",
    title: "Accept: application/json gets the token as a JSON object",
    area: "oauth",
    seed: SEED.token,
    rules: ["S-OAUTH-TOKEN-FORMATS", "D-OAUTH-TOKEN-FORMATS", "S-TOKEN-RESPONSE-FIELDS"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const code = await freshCode(ctx);
      const { res, body } = await exchange(ctx, { ...credentials(ctx), code }, "application/json");
      check.equal(mediaTypeOf(res), "application/json", "the body is JSON", "/headers/content-type");
      const token = checkToken(body, "JSON");
      await tokenWorks(ctx, token);
      await revokeToken(ctx, token);
    },
  },
  {
    id: "OAUTH-TOKEN-003",
    title: "Accept: application/xml gets XML with root OAuth and token_type, scope, access_token",
    area: "oauth",
    seed: SEED.token,
    rules: ["S-OAUTH-TOKEN-FORMATS", "D-OAUTH-TOKEN-FORMATS"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const code = await freshCode(ctx);
      const { res } = await exchange(ctx, { ...credentials(ctx), code }, "application/xml");
      check.equal(mediaTypeOf(res), "application/xml", "the body is XML", "/headers/content-type");
      const { root, fields } = parseXmlBody(res.text);
      check.equal(root, "OAuth", "the XML root element", "/body");
      const token = checkToken(fields, "XML");
      const order = [...res.text.matchAll(/<(token_type|scope|access_token)\b/g)].map((m) => m[1]).join(",");
      check.equal(order, "token_type,scope,access_token", "the XML children come in the seed's order: token_type, scope, access_token", "/body");
      await tokenWorks(ctx, token);
      await revokeToken(ctx, token);
    },
  },
  {
    id: "OAUTH-TOKEN-004",
    title: "A wrong client_secret gets incorrect_client_credentials",
    area: "oauth",
    seed: SEED.tokenErrors,
    rules: ["S-OAUTH-TOKEN-ERRORS", "D-OAUTH-TOKEN-ERROR-STATUS"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const code = await freshCode(ctx);
      const { body } = await exchange(ctx, { ...credentials(ctx), client_secret: `wrong-${randomCode()}`, code });
      checkTokenError(body, "incorrect_client_credentials");
      await tidy(ctx, code);
    },
  },
  {
    id: "OAUTH-TOKEN-005",
    title: "A redirect_uri that does not match the callback gets redirect_uri_mismatch",
    area: "oauth",
    seed: SEED.tokenErrors,
    rules: ["S-OAUTH-TOKEN-ERRORS", "D-REF-OAUTH-TOKEN-CHECKS"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const code = await freshCode(ctx);
      const { body } = await exchange(ctx, { ...credentials(ctx), code, redirect_uri: "https://conformance-elsewhere.invalid/callback" });
      checkTokenError(body, "redirect_uri_mismatch");
      await tidy(ctx, code);
    },
  },
  {
    id: "OAUTH-TOKEN-006",
    title: "An unknown code gets bad_verification_code",
    area: "oauth",
    seed: SEED.tokenErrors,
    rules: ["S-OAUTH-TOKEN-ERRORS"],
    needs: ["app"],
    async run(ctx) {
      const { body } = await exchange(ctx, { ...credentials(ctx), code: randomCode() });
      checkTokenError(body, "bad_verification_code");
    },
  },
  {
    id: "OAUTH-TOKEN-007",
    title: "A code works once: the second exchange gets bad_verification_code",
    area: "oauth",
    seed: SEED.tokenErrors,
    rules: ["D-OAUTH-CODES", "D-REF-OAUTH-REUSED-CODE"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const code = await freshCode(ctx);
      const first = await exchange(ctx, { ...credentials(ctx), code });
      const token = checkToken(first.body, "first exchange");
      const second = await exchange(ctx, { ...credentials(ctx), code });
      checkTokenError(second.body, "bad_verification_code", "second exchange");
      await revokeToken(ctx, token);
    },
  },
  {
    id: "OAUTH-TOKEN-008",
    title: "Token errors come in the format Accept asks for (form without Accept, XML)",
    area: "oauth",
    seed: SEED.tokenErrors,
    rules: ["S-OAUTH-TOKEN-ERRORS", "D-OAUTH-TOKEN-ERROR-STATUS"],
    needs: ["app"],
    async run(ctx) {
      const form = await postFormWithoutAccept(ctx, "createAccessToken", tokenUrl(ctx), { ...credentials(ctx), code: randomCode() });
      check.status(form.status, 200, "token errors are answered with 200");
      check.equal(mediaTypeOf(form), "application/x-www-form-urlencoded", "no Accept: the error is a URL-encoded form", "/headers/content-type");
      checkTokenError(formBody(form), "bad_verification_code", "form");
      const { res } = await exchange(ctx, { ...credentials(ctx), code: randomCode() }, "application/xml");
      check.equal(mediaTypeOf(res), "application/xml", "Accept: application/xml: the error is XML", "/headers/content-type");
      const { root, fields } = parseXmlBody(res.text);
      check.equal(root, "OAuth", "the XML root element", "/body");
      checkTokenError(fields, "bad_verification_code", "XML");
    },
  },
  {
    id: "OAUTH-TOKEN-009",
    title: "A missing client_secret gets incorrect_client_credentials",
    area: "oauth",
    seed: SEED.tokenErrors,
    rules: ["S-OAUTH-TOKEN-ERRORS", "D-SCHEMA-TOKEN-REQUEST-BODY"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const code = await freshCode(ctx);
      const { body } = await exchange(ctx, { client_id: credentials(ctx).client_id, code });
      checkTokenError(body, "incorrect_client_credentials");
      await tidy(ctx, code);
    },
  },
];
