/**
 * Step 3 of the web flow, `POST /login/oauth/access_token` (seed: Endpoints › D, Errors › Access
 * token request errors). Every answer has status 200, the errors included (DESIGN), in the format
 * the `Accept` header asks for: JSON, XML (root `OAuth`, serialised by the generated runtime), or
 * a URL-encoded form for anything else.
 *
 * Checks, in order: client credentials, from the body or HTTP Basic but never both (client-auth.ts;
 * digest compared in constant time; a missing or unknown client_id costs the same) →
 * incorrect_client_credentials; the code (unknown, another client's,
 * used, expired) → bad_verification_code; a given redirect_uri different from the one the code was
 * issued for → redirect_uri_mismatch. A used code presented again also revokes the token its first
 * exchange created (RFC 6749 §4.1.2: the code has leaked). Success consumes the code atomically
 * and creates a web-flow authorization with the code's scopes.
 */
import type { CreateAccessTokenRequest, CreateAccessTokenResponse } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import { formatScopes } from "../auth/scopes.ts";
import { verifyClientCredentials } from "../store/applications.ts";
import { createAuthorization, deleteAuthorization } from "../store/authorizations.ts";
import { consumeCode, findCode, linkAuthorization } from "../store/codes.ts";
import { tokenError, type OAuthErrorFields } from "./errors.ts";
import { resolveRedirectUri } from "./redirect-uri.ts";
import { verifierFits } from "./pkce.ts";
import { authenticateClient } from "./client-auth.ts";

export type TokenMediaType = "application/json" | "application/xml" | "application/x-www-form-urlencoded";

const FORM: TokenMediaType = "application/x-www-form-urlencoded";

function mediaTypeOfRange(range: string): TokenMediaType | undefined {
  if (range === "application/json" || (range.startsWith("application/") && range.endsWith("+json"))) return "application/json";
  if (range === "application/xml" || range === "text/xml") return "application/xml";
  if (range === FORM || range === "*/*" || range === "application/*") return FORM;
  return undefined;
}

/** The response format for an `Accept` header: highest q first, then the order given; form by default. */
export function tokenMediaType(accept: string | string[] | undefined): TokenMediaType {
  const header = Array.isArray(accept) ? accept.join(",") : accept ?? "";
  const ranges = header.split(",").map((part, index) => {
    const [type = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    return { type, weight: Number.isFinite(weight) ? weight : 0, index };
  });
  ranges.sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const r of ranges) {
    if (r.weight <= 0) continue;
    const found = mediaTypeOfRange(r.type);
    if (found) return found;
  }
  return FORM;
}

export interface TokenFields {
  client_id?: string;
  client_secret?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
}

/** The success body, in the contract's XML child order: token_type, scope, access_token. */
export interface TokenBody {
  token_type: "bearer";
  scope: string;
  access_token: string;
}

/** The redirect_uri the code was issued for, spelled the same or normalised the same, with no ambiguous path (redirect-uri.ts). */
function sameRedirect(given: string, issued: string): boolean {
  if (given === issued) return true;
  if (!resolveRedirectUri(issued, given).ok) return false;
  try {
    return new URL(given).href === issued;
  } catch {
    return false;
  }
}

/** The exchange of a request: its body's fields and its `Authorization` header (HTTP Basic client authentication). */
export async function exchangeRequest(ctx: Context, body: TokenFields, authorization: string | string[] | undefined): Promise<TokenBody | OAuthErrorFields> {
  const client = authenticateClient(authorization, body);
  if (!client.ok) return tokenError("incorrect_client_credentials");
  return exchangeCode(ctx, client.fields);
}

export async function exchangeCode(ctx: Context, f: TokenFields): Promise<TokenBody | OAuthErrorFields> {
  const app = await verifyClientCredentials(ctx.db, f.client_id ?? "", f.client_secret ?? "");
  if (!app || app.suspended) return tokenError("incorrect_client_credentials");
  if (!f.code) return tokenError("bad_verification_code");
  const row = await findCode(ctx.db, f.code);
  if (!row || row.app_id !== Number(app.id)) return tokenError("bad_verification_code");
  const now = ctx.now();
  if (row.used_at) {
    if (row.authorization_id !== null) await deleteAuthorization(ctx.db, row.authorization_id);
    return tokenError("bad_verification_code");
  }
  if (row.expires_at.getTime() <= now.getTime()) return tokenError("bad_verification_code");
  if (f.redirect_uri !== undefined && f.redirect_uri !== "" && !sameRedirect(f.redirect_uri, row.redirect_uri)) return tokenError("redirect_uri_mismatch");
  // PKCE (pkce.ts): a wrong or missing verifier leaves the code unused, like a wrong redirect_uri.
  if (!verifierFits(row.code_challenge, f.code_verifier)) return tokenError("bad_verification_code");

  const token = await ctx.db.transaction(async (tx) => {
    if (!(await consumeCode(tx, row.code_hash, now))) return undefined;
    const created = await createAuthorization(tx, { userId: row.user_id, appId: row.app_id, scopes: row.scopes, via: "web" });
    await linkAuthorization(tx, row.code_hash, created.row.id);
    return created.token;
  });
  if (token === undefined) return tokenError("bad_verification_code");
  return { token_type: "bearer", scope: formatScopes(row.scopes), access_token: token };
}

export function tokenHandler(ctx: Context) {
  return async ({ body, raw }: CreateAccessTokenRequest): Promise<CreateAccessTokenResponse> => {
    const answer = await exchangeRequest(ctx, (body ?? {}) as TokenFields, raw.headers.authorization);
    // RFC 6749 §5.1: responses carrying tokens must not be cached.
    const extraHeaders = { "Cache-Control": "no-store", Pragma: "no-cache" };
    return { status: 200, body: answer, mediaType: tokenMediaType(raw.headers.accept), extraHeaders } as CreateAccessTokenResponse;
  };
}
