/**
 * OAUTH-TOKEN-*: the token exchange (seed: Endpoints › D › POST access_token; Errors › Access
 * token request errors). The three formats by `Accept` — none (a URL-encoded form), JSON, XML
 * with root `OAuth` — each with access_token, scope and token_type `bearer`, and a token that
 * works; the three error codes by their exact names, with error_description and error_uri, in
 * the format asked for; and a code that works only once. What the seed leaves open is checked
 * under its decision, so a profile can declare or switch it: the status of an error
 * (D-OAUTH-TOKEN-ERROR-STATUS, 200 unless declared), and the XML details (D-OAUTH-TOKEN-FORMATS:
 * the media type application/xml, the children in the seed's listing order, the root OAuth for
 * errors too — the seed names the root and the children of a token, not their order).
 */
import { randomHex } from "../../core/random.ts";
import type { Case, CaseContext } from "../../core/types.ts";
import type { HttpResponse } from "../../core/http.ts";
import { check } from "../../core/failure.ts";
import { postFormWithoutAccept } from "./bare-request.ts";
import { checkTokenStatus, checkXmlMediaType, credentials, exchange, expectCode, freshState, mediaTypeOf, OAUTH_NEEDS, parseXmlBody, revokeToken, SEED, type TokenBody } from "./support.ts";

function checkToken(body: TokenBody, format: string): string {
  check.ok(!body.error, `${format}: the exchange failed with ${body.error}`, { expected: "access_token", actual: body, pointer: "/body/error" });
  check.ok(typeof body.access_token === "string" && body.access_token.length > 0, `${format}: access_token`, { actual: body.access_token, pointer: "/body/access_token" });
  check.equal(body.token_type, "bearer", `${format}: token_type`, "/body/token_type");
  check.ok(typeof body.scope === "string", `${format}: scope is present`, { actual: body.scope, pointer: "/body/scope" });
  return body.access_token!;
}

/** A token error: the seed's code and fields; its status is D-OAUTH-TOKEN-ERROR-STATUS's (200 unless declared). */
function checkTokenError(ctx: CaseContext, res: HttpResponse, body: TokenBody, error: string, format = "JSON"): void {
  check.equal(body.error, error, `${format}: the error code`, "/body/error");
  check.ok(typeof body.error_description === "string" && body.error_description.length > 0, `${format}: error_description`, { actual: body.error_description, pointer: "/body/error_description" });
  check.matches(body.error_uri, /^https?:\/\/\S+$/, `${format}: error_uri is an absolute URL`, "/body/error_uri");
  check.ok(body.access_token === undefined, `${format}: an error carries no access_token`, { actual: body.access_token, pointer: "/body/access_token" });
  checkTokenStatus(ctx, res, body);
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
      checkTokenStatus(ctx, res, formBody(res));
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
      checkXmlMediaType(ctx, res, "Accept: application/xml");
      const { root, fields } = parseXmlBody(res.text);
      check.equal(root, "OAuth", "the XML root element", "/body");
      const token = checkToken(fields, "XML");
      const order = [...res.text.matchAll(/<(token_type|scope|access_token)\b/g)].map((m) => m[1]).join(",");
      ctx.rule("D-OAUTH-TOKEN-FORMATS").equal(order, "token_type,scope,access_token", "the XML children come in the seed's listing order: token_type, scope, access_token (D-OAUTH-TOKEN-FORMATS)", "/body");
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
      const { res, body } = await exchange(ctx, { ...credentials(ctx), client_secret: `wrong-${randomCode()}`, code });
      checkTokenError(ctx, res, body, "incorrect_client_credentials");
      await tidy(ctx, code);
    },
  },
  {
    id: "OAUTH-TOKEN-005",
    title: "A redirect_uri that does not match the callback gets redirect_uri_mismatch",
    area: "oauth",
    seed: SEED.tokenErrors,
    rules: ["S-OAUTH-TOKEN-ERRORS", "D-REF-OAUTH-TOKEN-CHECKS", "D-OAUTH-TOKEN-ERROR-STATUS"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const code = await freshCode(ctx);
      const { res, body } = await exchange(ctx, { ...credentials(ctx), code, redirect_uri: "https://conformance-elsewhere.invalid/callback" });
      checkTokenError(ctx, res, body, "redirect_uri_mismatch");
      await tidy(ctx, code);
    },
  },
  {
    id: "OAUTH-TOKEN-006",
    title: "An unknown code gets bad_verification_code",
    area: "oauth",
    seed: SEED.tokenErrors,
    rules: ["S-OAUTH-TOKEN-ERRORS", "D-OAUTH-TOKEN-ERROR-STATUS"],
    needs: ["app"],
    async run(ctx) {
      const { res, body } = await exchange(ctx, { ...credentials(ctx), code: randomCode() });
      checkTokenError(ctx, res, body, "bad_verification_code");
    },
  },
  {
    id: "OAUTH-TOKEN-007",
    title: "A code works once: the second exchange gets bad_verification_code",
    area: "oauth",
    seed: SEED.tokenErrors,
    rules: ["D-OAUTH-CODES", "D-REF-OAUTH-REUSED-CODE", "D-OAUTH-TOKEN-ERROR-STATUS"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const code = await freshCode(ctx);
      const first = await exchange(ctx, { ...credentials(ctx), code });
      const token = checkToken(first.body, "first exchange");
      const second = await exchange(ctx, { ...credentials(ctx), code });
      checkTokenError(ctx, second.res, second.body, "bad_verification_code", "second exchange");
      await revokeToken(ctx, token);
    },
  },
  {
    id: "OAUTH-TOKEN-008",
    title: "Token errors come in the format Accept asks for (form without Accept, XML)",
    area: "oauth",
    seed: SEED.tokenErrors,
    rules: ["S-OAUTH-TOKEN-ERRORS", "D-OAUTH-TOKEN-ERROR-STATUS", "D-OAUTH-TOKEN-FORMATS"],
    needs: ["app"],
    async run(ctx) {
      const form = await postFormWithoutAccept(ctx, "createAccessToken", tokenUrl(ctx), { ...credentials(ctx), code: randomCode() });
      check.equal(mediaTypeOf(form), "application/x-www-form-urlencoded", "no Accept: the error is a URL-encoded form", "/headers/content-type");
      checkTokenError(ctx, form, formBody(form), "bad_verification_code", "form");
      const { res } = await exchange(ctx, { ...credentials(ctx), code: randomCode() }, "application/xml");
      checkXmlMediaType(ctx, res, "Accept: application/xml, an error");
      const { root, fields } = parseXmlBody(res.text);
      check.ok(root !== undefined, "the XML error has one root element", { actual: res.text.slice(0, 200), pointer: "/body" });
      ctx.rule("D-OAUTH-TOKEN-FORMATS").equal(root, "OAuth", "the XML error's root element is OAuth, as a token's (D-OAUTH-TOKEN-FORMATS)", "/body");
      checkTokenError(ctx, res, fields, "bad_verification_code", "XML");
    },
  },
  {
    id: "OAUTH-TOKEN-009",
    title: "A missing client_secret gets incorrect_client_credentials",
    area: "oauth",
    seed: SEED.tokenErrors,
    rules: ["S-OAUTH-TOKEN-ERRORS", "D-SCHEMA-TOKEN-REQUEST-BODY", "D-OAUTH-TOKEN-ERROR-STATUS"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const code = await freshCode(ctx);
      const { res, body } = await exchange(ctx, { client_id: credentials(ctx).client_id, code });
      checkTokenError(ctx, res, body, "incorrect_client_credentials");
      await tidy(ctx, code);
    },
  },
];
