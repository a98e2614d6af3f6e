/**
 * The conformance profile of the independent server (test/conformance/independent-server/): who
 * and what the suite may use on it, how to make events happen there, and — in DECISIONS — every
 * choice the seed leaves open that it made otherwise than the contract, declared as its team
 * would declare them. Kept apart from the server so the server imports nothing of the suite.
 */
import type { Profile } from "../../conformance/core/profile.ts";
import type { DecisionSetting } from "../../conformance/core/decisions.ts";
import { APP, SERVICES } from "./independent-server/state.ts";
import type { IndependentServer } from "./independent-server/server.ts";
import { LIMITS } from "./independent-server/http.ts";

/** The independent server's departures from the contract, one line each (the choice in the comment). */
export const DECISIONS: Record<string, DecisionSetting> = {
  "D-ACTIVITY-ID": "opaque", // activity event ids are "evt-<uuid>", no order in them
  "D-OAUTH-TOKEN-ERROR-STATUS": 400, // token errors answered 400 (RFC 6749 §5.2)
  "D-SIGNATURE": "sha256", // X-Hub-Signature: sha256=… only
  "D-RATE-RESET": "off", // limits 4000 / 600 an hour, and no X-RateLimit-Reset
  "D-ERRORS": "off", // its own error body { problem, detail }
  "D-ETAG": "off", // weak ETags W/"…"
  "D-HOOK-STATUSES": "off", // hook creation 200, deletion 200 with a body (paths and hook bodies the contract's)
  "D-PING-ENDPOINT": "off", // ping answers 202
  "D-LINK-FIRST-PREV": "off", // Link has next and last only
  "D-SERVICE-CATALOG-SHAPE": "off", // GET /hooks is { services: [{ key, accepts, settings }] }
  "D-OAUTH-REVIEW-PAGE": "off", // the review page redirects a signed-out visitor to its sign-in page
  "D-OAUTH-TOKEN-FORMATS": "off", // XML children in the order access_token, scope, token_type
  "D-NONWEB-APP-TOKENS": "off", // no /applications API
  "D-SCHEMA-VALIDATION-ERROR": "off", // a 422 is { problem, detail }, no errors[]
  "D-SCHEMA-LAST-RESPONSE": "off", // hooks carry no last_response
  "D-SCHEMA-DELIVERY-LOG": "off", // no delivery log API
  "D-SCHEMA-WEBHOOK-PUSH": "off", // its own, shorter push payload
  "D-SCHEMA-WEBHOOK-MIRROR": "off", // payloads of its own (repository without description, fork, …)
  "D-SCHEMA-WEBHOOK-PING": "off", // an organization hook's ping carries no organization
  "D-SCHEMA-ACTIVITY-FEED-OBJECTS": "off", // feed payloads carry short objects (a comment without its URLs)
  "D-SCOPE-HEADERS": "off", // X-OAuth-Scopes joined with "," (no space)
  "D-SCHEMA-AUTHORIZATION-TOKEN": "off", // no token_last_eight / hashed_token
  "D-NONWEB-AUTHORIZATIONS": "off", // POST /authorizations answers 201 without Location, no note_url / fingerprint
  "D-REF-NONWEB-GET-CREATE": "off", // no PUT /authorizations/clients/…
  "D-REF-NONWEB-DUPLICATE-NOTE": "off", // the same note twice is taken
  "D-REQ-WRONG-CONTENT-TYPE": "off", // a body it cannot read is 400, whatever its Content-Type
  "D-REF-NONWEB-PATH-PARAMETERS": "off", // no length limit on path parameters: an unknown user is 404
  "D-REQ-MALFORMED-ESCAPE": "off", // a malformed %-escape in the path is 404
  "D-REF-HOOKS-EGRESS": "off", // a hook may post to any http(s) host
  "D-REF-HOOKS-CAP": "off", // no cap on hooks per place
  "D-REF-HOOKS-EVENTS": "off", // two webhooks may share a URL
  "D-SCHEMA-HOOK-RESPONSE": "off", // a hook has no deliveries_url, config without defaults
  "D-REF-HOOKS-SERVICE-CATALOG": "off", // a service hook is created with 200, a second one refused
  "D-DELIVERY-CONTENT-TYPE": "off", // JSON deliveries only
  "D-REF-HOOKS-POST-TESTS": "off", // no test endpoint
  "D-ANONYMOUS-ACCESS": "off", // any token of the user reads its organization dashboard (no repo needed)
  "D-REF-NONWEB-NO-APP-TOKENS": "off", // a personal token's app is { client_id: "none", name: <note> }
  "D-SCHEMA-TEST-URL": "off", // hooks have no test_url
  "D-ACTIVITY-PAYLOADS": "off", // payloads name users short: { login, id }
  "D-REF-OAUTH-NUL-STATE": "off", // any state comes back unchanged, control characters too
  "D-REF-OAUTH-UNKNOWN-SCOPES": "off", // an unknown scope is dropped, not refused
  "D-REF-NONWEB-BODY-CLIENT": "off", // client_id / client_secret in a non-web body are ignored
  "D-REF-NONWEB-LENGTHS": "off", // a note up to 1000 characters, no fingerprint
  "D-REF-NONWEB-LONE-SURROGATES": "off", // notes taken as JSON gives them
  "D-REF-NONWEB-NO-STORE": "off", // no Cache-Control on the non-web flow's answers
  "D-REF-NONWEB-REMOVE-SCOPES": "off", // remove_scopes removes only the names given
  "D-SCHEMA-AUTHORIZATION-UPDATE": "off", // a PATCH may combine scopes, add_scopes, remove_scopes and note
  "D-OAUTH-CLIENT-BASIC": "off", // the token endpoint reads client_id and client_secret from the body only
};

/** The events its trigger endpoint can make happen. */
const EVENTS = ["push", "create", "delete", "watch", "release", "issues", "issue_comment", "subscribed", "mentioned", "milestoned", "demilestoned", "renamed", "locked", "unlocked", "referenced"];

export function independentProfile(server: IndependentServer, decisions: Record<string, DecisionSetting> = DECISIONS): Profile {
  const s = server.state;
  const token = (login: string, scopes: string[]) => s.newToken(s.user(login)!.id, scopes, { fixture: true }).value;
  const ada = s.user("ada")!;
  const bob = s.user("bob")!;
  const cyd = s.user("cyd")!;
  return {
    users: [
      { login: ada.login, password: ada.password, token: token("ada", ["repo", "admin:repo_hook", "admin:org_hook", "user"]) },
      { login: bob.login, password: bob.password, token: token("bob", ["repo", "user"]) },
    ],
    app: { clientId: APP.clientId, clientSecret: APP.clientSecret, callbackUrl: APP.callbackUrl },
    twoFactor: { login: cyd.login, password: cyd.password, totpSecret: cyd.totp! },
    org: "guild",
    repos: { public: "ada/playground", private: "ada/strongbox" },
    serviceHook: { repo: "ada/playground", name: "buildbot", config: { address: "http://127.0.0.1:9/buildbot", secret_word: "conformance" } },
    issue: 1,
    authorize: { driver: "form", login: { username: "username", password: "passphrase" }, consent: { approve: "verdict=grant", deny: "verdict=refuse" } },
    triggers: Object.fromEntries(
      EVENTS.map((event) => [event, [{ http: { method: "POST", url: `/_indie/happen/${event}`, headers: { "X-Indie-Admin": server.adminKey }, body: { repo: "{repo}", actor: "{login}", params: "{*}" } } }]]),
    ),
    triggerParams: Object.fromEntries(["issue_comment", "subscribed", "mentioned", "milestoned", "demilestoned", "renamed", "locked", "unlocked", "referenced"].map((e) => [e, { number: "{issue}" }])),
    deliveryTimeoutMs: 3000,
    pkce: false,
    decisions,
  };
}

export { LIMITS, SERVICES };
