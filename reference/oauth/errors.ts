/**
 * The OAuth error answers, worded as the contract's examples: the authorize step's errors travel
 * in the query of a redirect to the registered callback URL, the token endpoint's in its body
 * (status 200, in the format the `Accept` header asks for). `error_uri` points at the section of
 * the developer documentation that explains each one.
 */
const DOCS = "https://developer.service.example/v3/oauth/";

export type AuthorizeErrorCode = "application_suspended" | "redirect_uri_mismatch" | "access_denied" | "invalid_request";
export type TokenErrorCode = "incorrect_client_credentials" | "redirect_uri_mismatch" | "bad_verification_code";

export interface OAuthErrorFields {
  error: string;
  error_description: string;
  error_uri: string;
}

const AUTHORIZE: Record<AuthorizeErrorCode, [string, string]> = {
  application_suspended: ["Your application has been suspended. Contact support.", "application-suspended"],
  redirect_uri_mismatch: ["The redirect_uri MUST match the registered callback URL for this application.", "redirect-uri-mismatch"],
  access_denied: ["The user has denied your application access.", "access-denied"],
  // Beyond the seed (RFC 6749 §4.1.2.1): a parameter the service cannot use (a NUL in state, a PKCE challenge it does not accept).
  invalid_request: ["The authorization request has a parameter the service cannot accept.", "invalid-request"],
};

const TOKEN: Record<TokenErrorCode, [string, string]> = {
  incorrect_client_credentials: ["The client_id and/or client_secret passed are incorrect.", "incorrect-client-credentials"],
  // The token endpoint's mismatch has its own documentation anchor (the model service's).
  redirect_uri_mismatch: ["The redirect_uri MUST match the registered callback URL for this application.", "redirect-uri-mismatch2"],
  bad_verification_code: ["The code passed is incorrect or expired.", "bad-verification-code"],
};

export function authorizeError(code: AuthorizeErrorCode): OAuthErrorFields {
  const [description, anchor] = AUTHORIZE[code];
  return { error: code, error_description: description, error_uri: `${DOCS}#${anchor}` };
}

export function tokenError(code: TokenErrorCode): OAuthErrorFields & { error: TokenErrorCode } {
  const [description, anchor] = TOKEN[code];
  return { error: code, error_description: description, error_uri: `${DOCS}#${anchor}` };
}
