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
  "D-HOOK-ENDPOINTS": "off", // hook creation 200, deletion 200 with a body
  "D-PING-ENDPOINT": "off", // ping answers 202
  "D-LINK-FIRST-PREV": "off", // Link has next and last only
  "D-SERVICE-CATALOG-SHAPE": "off", // GET /hooks is { services: [{ key, accepts, settings }] }
  "D-OAUTH-REVIEW-PAGE": "off", // the review page redirects a signed-out visitor to its sign-in page
  "D-OAUTH-TOKEN-FORMATS": "off", // XML children in the order access_token, scope, token_type
  "D-NONWEB-APP-TOKENS": "off", // no /applications API
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
