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
export const DECISIONS: Record<string, DecisionSetting> = {};

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
