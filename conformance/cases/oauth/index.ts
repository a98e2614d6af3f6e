/**
 * The OAuth area: the web application flow on the web host and the token on API requests
 * (seed: Authentication, Endpoints › D, Errors). One module per topic; this table is what the
 * runner loads. The application_suspended error is not here: the profile describes no suspended
 * application to try it with.
 */
import type { Case } from "../../core/types.ts";
import { REDIRECT_CASES } from "./redirect-uri.ts";
import { PKCE_CASES } from "./pkce.ts";
import { AUTHORIZE_ERROR_CASES } from "./authorize-errors.ts";
import { SCOPE_CASES } from "./scopes.ts";
import { TOKEN_CASES } from "./token.ts";
import { TRANSPORT_CASES } from "./transport.ts";
import { FLOW_CASES } from "./flow.ts";
import { NONWEB_CASES } from "./nonweb.ts";
import { APP_TOKEN_CASES } from "./app-tokens.ts";
import { TOKEN_READ_CASES } from "./token-unreadable.ts";
import { REVIEW_CASES } from "./review-page.ts";
import { HARDENING_CASES } from "./hardening.ts";
import { AUTHORIZE_SCOPE_CASES } from "./authorize-scopes.ts";
import { REVIEW_VISITOR_CASES } from "./review-visitor.ts";
import { TOKEN_ERROR_BODY_CASES } from "./token-error-body.ts";
import { CLIENT_AUTH_CASES } from "./token-client-auth.ts";
import { NARROWED_CODE_CASES } from "./narrowed-codes.ts";
import { REVOCATION_CHECK_CASES } from "./revocation-checks.ts";
import { withCleanUp } from "./cleanup.ts";

// Each case removes what it made in a `finally`, whatever its checks said (cleanup.ts).
export const CASES: Case[] = [...REDIRECT_CASES, ...AUTHORIZE_ERROR_CASES, ...SCOPE_CASES, ...TOKEN_CASES, ...TRANSPORT_CASES, ...FLOW_CASES, ...PKCE_CASES, ...NONWEB_CASES, ...APP_TOKEN_CASES, ...TOKEN_READ_CASES, ...REVIEW_CASES, ...HARDENING_CASES, ...AUTHORIZE_SCOPE_CASES, ...REVIEW_VISITOR_CASES, ...TOKEN_ERROR_BODY_CASES, ...CLIENT_AUTH_CASES, ...NARROWED_CODE_CASES, ...REVOCATION_CHECK_CASES].map(withCleanUp);
