/**
 * The OAuth web application flow, client side: build the authorize URL with an unguessable
 * `state`, check the `state` that comes back (constant time; a mismatch means a third party
 * forged the redirect and the flow must stop), and exchange the code for a token in any of the
 * three response formats. The token endpoint reports its errors with status 200, so the body —
 * not the status — decides between a token and a typed TokenExchangeError. With `pkce: true`
 * (RFC 7636, beyond the seed) the URL also carries an S256 `code_challenge` of a fresh verifier,
 * returned as `codeVerifier` for the exchange (`exchangeCode({ …, codeVerifier })`).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { joinUrl } from "./http.ts";

export const AUTHORIZE_PATH = "/login/oauth/authorize";
export const ACCESS_TOKEN_PATH = "/login/oauth/access_token";

export interface AuthorizeUrlInput {
  clientId: string;
  redirectUri?: string;
  scopes?: readonly string[];
  /** Generated (32 random bytes, base64url) when not given. */
  state?: string;
  /** Send a PKCE challenge (S256) of a fresh verifier; the server must support PKCE. Default false. */
  pkce?: boolean;
}

export interface AuthorizeUrl {
  url: string;
  /** Keep it (e.g. in the session) and pass it to checkState on the callback. */
  state: string;
  /** With `pkce: true`: keep it with the state and send it with the code exchange. */
  codeVerifier?: string;
}

/** A PKCE verifier: 32 random bytes, base64url (43 characters, RFC 7636 §4.1). */
export function randomCodeVerifier(): string {
  return randomBytes(32).toString("base64url");
}

/** The S256 challenge of a verifier: BASE64URL(SHA-256(verifier)), no padding. */
export function codeChallenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

export function randomState(): string {
  return randomBytes(32).toString("base64url");
}

export function authorizeUrl(authUrl: string, input: AuthorizeUrlInput): AuthorizeUrl {
  if (!input.clientId) throw new TypeError("authorizeUrl: clientId is required");
  const state = input.state ?? randomState();
  const url = new URL(joinUrl(authUrl, AUTHORIZE_PATH));
  url.searchParams.set("client_id", input.clientId);
  if (input.redirectUri !== undefined) url.searchParams.set("redirect_uri", input.redirectUri);
  if (input.scopes && input.scopes.length > 0) url.searchParams.set("scope", input.scopes.join(","));
  url.searchParams.set("state", state);
  if (!input.pkce) return { url: url.href, state };
  const codeVerifier = randomCodeVerifier();
  url.searchParams.set("code_challenge", codeChallenge(codeVerifier));
  url.searchParams.set("code_challenge_method", "S256");
  return { url: url.href, state, codeVerifier };
}

export class OAuthStateError extends Error {
  override readonly name = "OAuthStateError";
}

/**
 * Throws OAuthStateError unless `received` equals `expected`. Both sides are hashed first so
 * the comparison is constant time whatever their lengths.
 */
export function checkState(expected: string | null | undefined, received: string | null | undefined): void {
  if (!expected) throw new OAuthStateError("OAuth state check: no state was issued for this flow");
  if (!received) throw new OAuthStateError("OAuth state check: the callback carries no state; aborting the flow");
  const a = createHash("sha256").update(expected, "utf8").digest();
  const b = createHash("sha256").update(received, "utf8").digest();
  if (!timingSafeEqual(a, b)) throw new OAuthStateError("OAuth state mismatch: the callback was not started by this client; aborting the flow");
}

export type TokenFormat = "form" | "json" | "xml";

export const ACCEPT_BY_FORMAT: Record<TokenFormat, string> = {
  form: "application/x-www-form-urlencoded",
  json: "application/json",
  xml: "application/xml",
};

export type TokenErrorCode = "incorrect_client_credentials" | "redirect_uri_mismatch" | "bad_verification_code";

/** A token-endpoint error body, or an answer that is neither a token nor such an error. */
export class TokenExchangeError extends Error {
  override readonly name = "TokenExchangeError";
  constructor(
    /** `invalid_response` when the body was not understood. */
    readonly error: TokenErrorCode | "invalid_response",
    readonly description: string,
    readonly uri: string | undefined,
    readonly status: number,
  ) {
    super(`${error}: ${description}`);
  }
}

export interface AccessToken {
  access_token: string;
  scope: string;
  token_type: "bearer";
  /** The granted scopes, split; may be fewer than requested. */
  scopes: string[];
}

const TOKEN_ERRORS = new Set<string>(["incorrect_client_credentials", "redirect_uri_mismatch", "bad_verification_code"]);

/** Turn a decoded token-endpoint body (any of the three formats) into a token or a thrown error. */
export function interpretTokenResponse(status: number, body: unknown): AccessToken {
  const fields = body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const text = (v: unknown): string | undefined => (typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined);
  const error = text(fields.error);
  if (error !== undefined) {
    const code = TOKEN_ERRORS.has(error) ? (error as TokenErrorCode) : "invalid_response";
    throw new TokenExchangeError(code, text(fields.error_description) ?? error, text(fields.error_uri), status);
  }
  const accessToken = text(fields.access_token);
  if (status !== 200 || !accessToken) {
    throw new TokenExchangeError("invalid_response", `unexpected token endpoint answer (status ${status})`, undefined, status);
  }
  const scope = text(fields.scope) ?? "";
  return { access_token: accessToken, scope, token_type: "bearer", scopes: scope.split(",").map((s) => s.trim()).filter(Boolean) };
}
