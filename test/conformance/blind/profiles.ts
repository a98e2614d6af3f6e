/**
 * The conformance profiles of the servers written blind (issue 40): test/conformance/blind-prefixed/
 * (fastify, the API under /api/v3, problem+json, HTTP Basic everywhere…) and
 * test/conformance/blind-plain/ (node:http, its own error body, weak ETags, opaque ids…), each
 * written from the seed alone by someone who read neither the suite nor the contract. What a team
 * would write from its server's fixture: users, the application, the repositories, the sign-in
 * form's field and button names, and a trigger for every event its test endpoint can make
 * happen. Their `decisions` are each server's own file (`decisions.ts` beside this one), pasted
 * from one `--suggest-decisions` run, as the README says a team does. Kept apart from the servers
 * so that they import nothing of the suite.
 */
import type { Profile, TriggerStep } from "../../../conformance/core/profile.ts";
import type { DecisionSetting } from "../../../conformance/core/decisions.ts";

/** What both blind servers hand their tests (the interface they were asked for, nothing else). */
export interface BlindFixture {
  users: { login: string; password: string; token: string }[];
  twoFactor: { login: string; password: string; totpSecret: string };
  app: { clientId: string; clientSecret: string; callbackUrl: string };
  otherApp: { clientId: string; clientSecret: string };
  org: string;
  repos: { public: string; private: string };
  issue: number;
  serviceHook: { repo: string; name: string; config: Record<string, string> };
  pages: { usernameField: string; passwordField: string; approve: string; deny: string };
}

export interface BlindTarget {
  api: string;
  auth: string;
  adminKey: string;
  fixture: BlindFixture;
}

/** The seed's webhook events (Events › Webhook subscription) and issue event kinds, which both test endpoints take. */
export const WEBHOOK_EVENTS = ["commit_comment", "create", "delete", "deployment", "deployment_status", "fork", "gollum", "issue_comment", "issues", "member", "membership", "page_build", "public", "pull_request_review_comment", "pull_request", "push", "repository", "release", "status", "team_add", "watch"];
export const ISSUE_KINDS = ["closed", "reopened", "subscribed", "merged", "referenced", "mentioned", "assigned", "unassigned", "labeled", "unlabeled", "milestoned", "demilestoned", "renamed", "locked", "unlocked", "head_ref_deleted", "head_ref_restored"];

/** Events that act on an existing issue: the profile's issue unless the case names another. */
const ON_AN_ISSUE = new Set(["issue_comment", ...ISSUE_KINDS]);

/** Events of the organization (the seed: "Organization hooks only"): where each server wants them made. */
const ORG_EVENTS = new Set(["repository", "membership"]);

function profileOf(target: BlindTarget, step: (event: string) => TriggerStep, decisions: Record<string, DecisionSetting>, orgParams: Record<string, string>): Profile {
  const f = target.fixture;
  const events = [...WEBHOOK_EVENTS, ...ISSUE_KINDS];
  return {
    users: f.users.slice(0, 2).map((u) => ({ login: u.login, password: u.password, token: u.token })),
    app: { ...f.app },
    otherApp: { ...f.otherApp },
    twoFactor: { ...f.twoFactor },
    org: f.org,
    repos: { ...f.repos },
    serviceHook: { repo: f.serviceHook.repo, name: f.serviceHook.name, config: { ...f.serviceHook.config } },
    issue: f.issue,
    authorize: {
      driver: "form",
      login: { username: f.pages.usernameField, password: f.pages.passwordField },
      consent: { approve: f.pages.approve, deny: f.pages.deny },
    },
    triggers: Object.fromEntries(events.map((e) => [e, [step(e)]])),
    triggerParams: Object.fromEntries(events.map((e) => [e, ORG_EVENTS.has(e) ? { actor: "{login}", ...orgParams } : { repo: "{repo}", actor: "{login}", ...(ON_AN_ISSUE.has(e) ? { number: "{issue}" } : {}) }])),
    deliveryTimeoutMs: 5000,
    decisions,
  };
}

/** blind-prefixed: `POST {api}/_test/trigger/:event`, `X-Test-Admin`, the parameters as one JSON object; organization events in its organization by default. */
export function prefixedProfile(target: BlindTarget, decisions: Record<string, DecisionSetting>): Profile {
  return profileOf(target, (event) => ({ http: { method: "POST", url: `/_test/trigger/${event}`, headers: { "X-Test-Admin": target.adminKey }, body: "{*}" } }), decisions, {});
}

/** blind-plain: `POST {api}/__test__/happen/:event`, a bearer admin key; it names what it made under `made`. */
export function plainProfile(target: BlindTarget, decisions: Record<string, DecisionSetting>): Profile {
  return profileOf(
    target,
    (event) => ({ http: { method: "POST", url: `/__test__/happen/${event}`, headers: { Authorization: `Bearer ${target.adminKey}` }, body: "{*}", made: { repository: "/made/repository", issue: "/made/issue", hook: "/made/hook" } } }),
    decisions,
    // Its organization events happen under the owner `repo` names.
    { repo: "{org}" },
  );
}
