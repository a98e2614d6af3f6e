/**
 * The decisions of the server in test/conformance/blind-prefixed/: the block one run with an empty
 * `decisions:` suggested (`--suggest-decisions`), pasted as the README says a team does, each with
 * the evidence of that run. test/conformance/blind-servers.test.ts checks that one such run still
 * suggests exactly these, and that with them the suite passes.
 */
import type { DecisionSetting } from "../../../conformance/core/decisions.ts";

export const PREFIXED_DECISIONS: Record<string, DecisionSetting> = {
  "D-ACTIVITY-PAYLOADS": "off", // FEEDS-WINDOW-001: listPublicEvents 200: the response breaks the contract (D-ACTIVITY-PAYLOADS): /body/19/payload/pull_request/head/repo is required; /
  "D-ANONYMOUS-ACCESS": "off", // CONTRACT-SCOPE-005: /users/octocat/events/orgs/acme with a token of scope gist: refused, the dashboard wants repo
  "D-CONF-REDIRECT-URI-BOUNDARIES": "off", // OAUTH-REDIRECT-018: the redirect reports error=redirect_uri_mismatch
  "D-ERRORS": "off", // CONTRACT-SCOPE-001: listRepoHookDeliveries 404: the response breaks the contract (D-ERRORS): /body listRepoHookDeliveries 404: content type "applicati
  "D-INVALID-QUERY": "off", // CONTRACT-REQ-002: GET /events?page=0x2 (and 16 more)
  "D-LIST-PAGINATION": "off", // ISSUE-EVENTS-PAGE-001: page 1 of a list longer than one page holds 30 events
  "D-NONWEB-TWO-FACTOR": "off", // OAUTH-NONWEB-002: a code is accepted once: the same code again gives no second token (and 2 more)
  "D-OAUTH-CLIENT-BASIC": "off", // OAUTH-CLIENTAUTH-001: Basic and client_secret in the body at once (two methods, RFC 6749 §2.3): incorrect_client_credentials (and 1 more)
  "D-OAUTH-PKCE": "off", // OAUTH-PKCE-002: no code_verifier: the exchange is refused with bad_verification_code (and 2 more)
  "D-OAUTH-REDIRECT-SPELLINGS": "off", // OAUTH-REDIRECT-021: the redirect reports error=redirect_uri_mismatch
  "D-OAUTH-REDIRECT-TRICKS": "off", // OAUTH-REDIRECT-020: the redirect reports error=redirect_uri_mismatch
  "D-OAUTH-REVIEW-PAGE": "off", // OAUTH-REVIEW-001: getApplicationReview 302: the response breaks the contract (D-OAUTH-REVIEW-PAGE): /status getApplicationReview: status 302 is not in
  "D-OAUTH-TOKEN-ERROR-STATUS": "off", // CONTRACT-REQ-007: POST /login/oauth/access_token with client_id twice: a token error, answered with 200 (D-OAUTH-TOKEN-ERROR-STATUS) (and 26 more)
  "D-REF-HOOKS-CAP": "off", // HOOKS-CAP-001: the repository took 21 more hooks beside its 0 without refusing one
  "D-REF-HOOKS-EGRESS": "off", // HOOKS-CREATE-006: a webhook posting to http://169.254.169.254/latest/meta-data/: refused with 422 Validation Failed
  "D-REF-HOOKS-EVENTS": "off", // HOOKS-CREATE-003: a second webhook posting to http://127.0.0.1:37977/qgr0JpR797bKMAXkB_etXw/HOOKS-CREATE-003/hook-2e2f26b1: refused with 422 Validatio
  "D-REF-HOOKS-PATCH-SECRET": "off", // WEBHOOK-SIGNATURE-004: the ping after an edit leaving the secret out is signed: the edit kept the secret (D-REF-HOOKS-PATCH-SECRET)
  "D-REF-HOOKS-SERVICE-CATALOG": "off", // HOOKS-SERVICE-001: creating the service again answers 200 with the existing hook, updated (and 3 more)
  "D-REF-HOOKS-URLS": "off", // HOOKS-URL-001: POST /repos/octocat/hello-world/hooks with config.url http://conformance:secret@127.0.0.1:37977/44NRlVLkoPnvSBvOYmXc9Q/HOOKS-URL-001/ho
  "D-REF-NARROW-ENDS-CODES": "off", // OAUTH-NARROWCODES-001: a token from a code issued before the narrowing has the narrowed scopes, never the old ones (repo,gist) (and 1 more)
  "D-REF-NONWEB-BASIC-ELSEWHERE": "off", // CONTRACT-AUTH-002: GET /repos/octocat/secret-plans/events (a private repository) with users[0]'s right password as Basic: read as anonymous
  "D-REF-NONWEB-LENGTHS": "off", // OAUTH-NONWEB-004: a note of 1025 characters: 422 Validation Failed (and 1 more)
  "D-REF-NONWEB-LONE-SURROGATES": "off", // OAUTH-NONWEB-005: a lone surrogate in note: 422, never a 5xx
  "D-REF-NONWEB-NO-APP-TOKENS": "off", // OAUTH-NONWEB-001: its app name is "<note> (API)"
  "D-REF-NONWEB-NO-STORE": "off", // OAUTH-NOSTORE-001: an answer carrying a new token is not to be stored by caches (RFC 6749 §5.1)
  "D-REF-NONWEB-NUL": "off", // OAUTH-NONWEB-005: a NUL in note: 422, never a 5xx
  "D-REF-NONWEB-PATH-PARAMETERS": "off", // CONTRACT-REQ-005: GET /users/<2049 characters>/events
  "D-REF-NONWEB-REMOVE-SCOPES": "off", // OAUTH-NONWEB-001: removing public_repo from repo leaves what repo grants besides it
  "D-REF-NONWEB-TOKEN-FOR-BASIC": "off", // CONTRACT-AUTH-001: GET /authorizations with a token
  "D-REF-OAUTH-NUL-STATE": "off", // OAUTH-STATE-004: the state comes back unchanged, NUL and all
  "D-REF-OAUTH-PAGE-ECHO": "off", // OAUTH-ECHO-001: the review page does not write the access_token of its URL into the page or a redirect (it would end up in logs, history and Referer)
  "D-REF-REVOKE-ENDS-CODES": "off", // OAUTH-REVOKECODES-001: a code issued before the revocation no longer buys a token
  "D-REQ-BODY-NOT-TAKEN": "off", // CONTRACT-REQ-008: POST /repos/octocat/hello-world/hooks/2147483646/pings with a body as Content-Type: text (ignored: the same answer as without it)
  "D-REQ-MALFORMED-ESCAPE": "off", // CONTRACT-ESCAPE-001: GET /repos/octocat/hello-world%zz/events: x-ratelimit-limit (the request counts against its address)
  "D-REQ-REPEATED-FORM-KEY": "off", // CONTRACT-REQ-007: client_id sent twice counts as no client_id
  "D-REQ-WRONG-CONTENT-TYPE": "off", // CONTRACT-REQ-004: POST /repos/octocat/hello-world/hooks with Content-Type: text/plain
  "D-SCHEMA-ACTIVITY-FEED-OBJECTS": "off", // FEEDS-PAYLOAD-003: a PullRequestEvent's pull_request is a full PullRequest (and 2 more)
  "D-SCHEMA-AUTHORIZATION-UPDATE": "off", // OAUTH-NONWEB-001: a PATCH without exactly one of scopes / add_scopes / remove_scopes is refused
  "D-SCHEMA-DELIVERY-LOG": "off", // CONTRACT-SCOPE-001: listRepoHookDeliveries with users[0]'s token (and 11 more)
  "D-SCHEMA-HOOK-RESPONSE": "off", // HOOKS-ORG-001: POST /orgs/acme/hooks: deliveries_url, the hook's delivery log
  "D-SCHEMA-SECRET": "off", // HOOKS-CREATE-001: createRepoHook 201: the response breaks the contract (D-SCHEMA-SECRET): /body/config/secret must NOT be valid (and 6 more)
  "D-SCHEMA-VALIDATION-ERROR": "off", // OAUTH-NONWEB-004: a note of 1025 characters: the error names note (invalid) (and 4 more)
  "D-SCHEMA-WEBHOOK-MIRROR": "off", // WEBHOOK-PAYLOAD-002: 6 problem(s) with the payloads of 21 triggered events: pull_request at the repository hook: the pull_request payload breaks its w
  "D-SERVICE-CATALOG-SHAPE": "off", // HOOKS-CATALOG-001: the first entry is web, the plain webhook (and 3 more)
  "D-SIGNATURE": "off", // HOOKS-ORG-001: the creation ping: X-Hub-Signature is sha1=HMAC-SHA1(secret, the exact 2067 body bytes received) (D-SIGNATURE: sha1+sha256); it is the 
};
