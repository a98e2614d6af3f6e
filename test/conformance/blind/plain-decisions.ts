/**
 * The decisions of the server in test/conformance/blind-plain/: the block one run with an empty
 * `decisions:` suggested (`--suggest-decisions`), pasted as the README says a team does, each with
 * the evidence of that run. test/conformance/blind-servers.test.ts checks that one such run still
 * suggests exactly these, and that with them the suite passes.
 */
import type { DecisionSetting } from "../../../conformance/core/decisions.ts";

export const PLAIN_DECISIONS: Record<string, DecisionSetting> = {
  "D-ACTIVITY-ID": "opaque", // FEEDS-WINDOW-001: listPublicEvents 200: the response breaks the contract (D-ACTIVITY-ID): /body/0/id must match pattern "^[0-9]+$"; /body/1/id must ma
  "D-ACTIVITY-PAYLOADS": "off", // FEEDS-WINDOW-001: listPublicEvents 200: the response breaks the contract (D-ACTIVITY-PAYLOADS): /body/2/payload/commits/0/url must match format "uri";
  "D-ANONYMOUS-ACCESS": "off", // CONTRACT-SCOPE-005: /users/alice/events/orgs/acme with a token of scope gist: refused, the dashboard wants repo
  "D-ERRORS": "off", // CONTRACT-SCOPE-001: listRepoHookDeliveries 404: the response breaks the contract (D-ERRORS): /body/message is required (and 86 more)
  "D-ETAG": "off", // FEEDS-ETAG-001: /events: ETag is a strong, quoted entity tag (and 13 more)
  "D-HOOK-STATUSES": "off", // HOOKS-CREATE-001: POST /repos/alice/hello/hooks creates the webhook (and 17 more)
  "D-INVALID-QUERY": "off", // CONTRACT-REQ-002: GET /events?page=0x2 (and 16 more)
  "D-ISSUE-MERGED-COMMIT": "off", // ISSUE-EVENTS-KIND-009: commit_id is the pull request's head SHA (D-ISSUE-MERGED-COMMIT)
  "D-LINK-FIRST-PREV": "off", // FEEDS-LINK-002: /events page 2 has rel="first"
  "D-LIST-PAGINATION": "off", // ISSUE-EVENTS-PAGE-001: page 1 of a list longer than one page holds 30 events
  "D-NONWEB-TWO-FACTOR": "off", // OAUTH-NONWEB-002: a code is accepted once: the same code again gives no second token (and 2 more)
  "D-OAUTH-CLIENT-BASIC": "off", // OAUTH-CLIENTAUTH-001: Basic and client_secret in the body at once (two methods, RFC 6749 §2.3): incorrect_client_credentials (and 1 more)
  "D-OAUTH-PKCE": "off", // OAUTH-PKCE-002: no code_verifier: the exchange is refused with bad_verification_code (and 2 more)
  "D-OAUTH-REDIRECT-SPELLINGS": "off", // OAUTH-REDIRECT-021: the redirect reports error=redirect_uri_mismatch
  "D-OAUTH-REDIRECT-TRICKS": "off", // OAUTH-REDIRECT-020: the redirect reports error=redirect_uri_mismatch
  "D-OAUTH-REVIEW-PAGE": "off", // OAUTH-REVIEW-001: getApplicationReview 302: the response breaks the contract (D-OAUTH-REVIEW-PAGE): /status getApplicationReview: status 302 is not in
  "D-OAUTH-TOKEN-ERROR-STATUS": 400, // CONTRACT-REQ-007: POST /login/oauth/access_token with client_id twice: a token error, answered with 200 (D-OAUTH-TOKEN-ERROR-STATUS) (and 25 more)
  "D-PING-ENDPOINT": "off", // HOOKS-ORG-002: pingOrgHook 202: the response breaks the contract (D-PING-ENDPOINT): /status pingOrgHook: status 202 is not in the contract (expected 2
  "D-REF-HOOKS-CAP": "off", // HOOKS-CAP-001: the repository took 21 more hooks beside its 0 without refusing one
  "D-REF-HOOKS-EGRESS": "off", // HOOKS-CREATE-006: a webhook posting to http://169.254.169.254/latest/meta-data/: refused with 422 Validation Failed
  "D-REF-HOOKS-EVENTS": "off", // HOOKS-CREATE-003: a second webhook posting to http://127.0.0.1:42813/D9tP781fuUTQ2bVbqTNoGQ/HOOKS-CREATE-003/hook-bfc89e42: refused with 422 Validatio
  "D-REF-HOOKS-PATCH-SECRET": "off", // WEBHOOK-SIGNATURE-004: the ping after an edit leaving the secret out is signed: the edit kept the secret (D-REF-HOOKS-PATCH-SECRET)
  "D-REF-HOOKS-SERVICE-CATALOG": "off", // HOOKS-SERVICE-001: the first install answers 201 Created (and 3 more)
  "D-REF-HOOKS-URLS": "off", // HOOKS-URL-001: POST /repos/alice/hello/hooks with config.url http://conformance:secret@127.0.0.1:42813/jwfQke2bj9C3oVEFdU3l1g/HOOKS-URL-001/hook-9893f
  "D-REF-NARROW-ENDS-CODES": "off", // OAUTH-NARROWCODES-001: a token from a code issued before the narrowing has the narrowed scopes, never the old ones (repo,gist) (and 1 more)
  "D-REF-NONWEB-BASIC-ELSEWHERE": "off", // CONTRACT-AUTH-002: GET /repos/alice/secret/events (a private repository) with users[0]'s right password as Basic: read as anonymous
  "D-REF-NONWEB-LENGTHS": "off", // OAUTH-NONWEB-004: a note of 1025 characters: 422 Validation Failed (and 1 more)
  "D-REF-NONWEB-LONE-SURROGATES": "off", // OAUTH-NONWEB-005: a lone surrogate in note: 422, never a 5xx
  "D-REF-NONWEB-NO-APP-TOKENS": "off", // OAUTH-NONWEB-001: its app name is "<note> (API)"
  "D-REF-NONWEB-NO-STORE": "off", // OAUTH-NOSTORE-001: an answer carrying a new token is not to be stored by caches (RFC 6749 §5.1)
  "D-REF-NONWEB-NUL": "off", // OAUTH-NONWEB-005: a NUL in note: 422, never a 5xx
  "D-REF-NONWEB-PATH-PARAMETERS": "off", // CONTRACT-REQ-005: GET /users/<2049 characters>/events
  "D-REF-NONWEB-REMOVE-SCOPES": "off", // OAUTH-NONWEB-001: removing public_repo from repo leaves what repo grants besides it
  "D-REF-OAUTH-NUL-STATE": "off", // OAUTH-STATE-004: the state comes back unchanged, NUL and all
  "D-REF-OAUTH-PAGE-ECHO": "off", // OAUTH-ECHO-001: the review page does not write the access_token of its URL into the page or a redirect (it would end up in logs, history and Referer)
  "D-REF-REVOKE-ENDS-CODES": "off", // OAUTH-REVOKECODES-001: a code issued before the revocation no longer buys a token
  "D-REQ-BODY-NOT-TAKEN": "off", // CONTRACT-REQ-008: POST /repos/alice/hello/hooks/2147483646/pings with a 2 MiB body
  "D-REQ-MALFORMED-ESCAPE": "off", // CONTRACT-ESCAPE-001: GET /repos/alice/hello%zz/events
  "D-REQ-REPEATED-FORM-KEY": "off", // CONTRACT-REQ-007: client_id sent twice counts as no client_id
  "D-REQ-TOO-LARGE-BODY": "off", // CONTRACT-REQ-006: POST /repos/alice/hello/hooks with a 2 MiB body
  "D-REQ-WRONG-CONTENT-TYPE": "off", // CONTRACT-REQ-004: POST /repos/alice/hello/hooks with Content-Type: text/plain
  "D-SCHEMA-AUTHORIZATION-UPDATE": "off", // OAUTH-NONWEB-001: a PATCH without exactly one of scopes / add_scopes / remove_scopes is refused
  "D-SCHEMA-DELIVERY-LOG": "off", // CONTRACT-SCOPE-001: listRepoHookDeliveries with users[0]'s token (and 11 more)
  "D-SCHEMA-HOOK-RESPONSE": "off", // HOOKS-ORG-001: POST /orgs/acme/hooks: deliveries_url, the hook's delivery log (and 2 more)
  "D-SCHEMA-LAST-RESPONSE": "off", // HOOKS-CREATE-001: createRepoHook 200: the response breaks the contract (D-SCHEMA-LAST-RESPONSE): /body/last_response is required (and 1 more)
  "D-SCHEMA-SECRET": "off", // HOOKS-CREATE-001: createRepoHook 200: the response breaks the contract (D-SCHEMA-SECRET): /body/config/secret must NOT be valid (and 6 more)
  "D-SCHEMA-VALIDATION-ERROR": "off", // OAUTH-NONWEB-004: createAuthorization 422: the response breaks the contract (D-SCHEMA-VALIDATION-ERROR): /body/errors is required (and 9 more)
  "D-SCHEMA-WEBHOOK-MIRROR": "off", // WEBHOOK-PAYLOAD-002: 4 problem(s) with the payloads of 21 triggered events: deployment_status at the repository hook: the deployment_status payload br
  "D-SCOPE-HEADERS": "off", // OAUTH-SCOPE-004: listRepoEvents: X-Accepted-OAuth-Scopes is the contract's x-accepted-scopes (D-SCOPE-HEADERS)
  "D-SERVICE-CATALOG-SHAPE": "off", // HOOKS-CATALOG-001: the first entry is web, the plain webhook (and 2 more)
  "D-SIGNATURE": "sha256", // HOOKS-ORG-001: the creation ping: X-Hub-Signature is sha1=HMAC-SHA1(secret, the exact 1779 body bytes received) (D-SIGNATURE: sha1+sha256) (and 13 mor
};
