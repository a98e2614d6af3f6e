/**
 * A stand-in for the conformance runner, so the case tests need not wait for it: runs one case
 * against a target (the reference server from `useServer`, or a small fake) and returns
 * passed / failed / skipped with the failure detail. It builds the CaseContext the runner builds
 * — an HttpClient from conformance/core/http.ts, `trigger` through the runner's own
 * conformance/run/trigger.ts (so cases meet the real placeholder rules), `authorize` through the
 * plain-HTTP form driver, skip and note — and checks the case's needs first (run/needs.ts).
 * `useConformanceTarget` starts the reference (response validation on, optionally with its demo
 * history) with the admin simulate endpoint, and a profile like the one `conformance --reference`
 * uses: the same users, scopes, application and one trigger per simulate action.
 */
import { beforeAll } from "vitest";
import type { Case, CaseContext, FailureDetail, Status } from "../../conformance/core/types.ts";
import type { Profile, TriggerStep } from "../../conformance/core/profile.ts";
import { CaseFailure, SkipCase, checksFor, uncheckedFor } from "../../conformance/core/failure.ts";
import { Decisions } from "../../conformance/core/decisions.ts";
import { runTrigger } from "../../conformance/run/trigger.ts";
import { unmetNeed } from "../../conformance/run/needs.ts";
import { ACTION_NAMES } from "../../reference/domain/index.ts";
import { curlOf, HttpClient } from "../../conformance/core/http.ts";
import { authorizeWithForm } from "../../conformance/authorize/form.ts";
import { REFERENCE_APP, REFERENCE_OTHER_APP, REFERENCE_SERVICE_HOOK, REFERENCE_TWO_FACTOR, REFERENCE_USERS } from "../../conformance/reference-profile.ts";
import { basic, useServer, type TestServer } from "../reference/harness.ts";

export interface Target {
  baseUrl: string;
  authUrl: string;
  profile: Profile;
}

export interface HarnessResult {
  status: Status;
  reason?: string;
  failure?: FailureDetail;
  notes: string[];
  /** How many requests the case made (its HttpClient's exchanges). */
  requests: number;
}

export function contextFor(target: Target, notes: string[]): CaseContext {
  const http = new HttpClient(target.baseUrl, target.authUrl);
  const decisions = new Decisions(target.profile.decisions);
  return {
    profile: target.profile,
    decisions,
    rule: (id) => (decisions.on(id) ? checksFor(id) : uncheckedFor(id)),
    baseUrl: target.baseUrl,
    authUrl: target.authUrl,
    http,
    trigger: (event, params) => runTrigger(event, params, { profile: target.profile, baseUrl: target.baseUrl }),
    authorize: (query, options) => {
      if (!target.profile.authorize) throw new SkipCase("the profile has no authorize driver");
      return authorizeWithForm(target.profile, target.authUrl, query, { ...options, http });
    },
    skip(reason: string): never {
      throw new SkipCase(reason);
    },
    note: (text) => void notes.push(text),
  };
}

export async function runCase(c: Case, target: Target): Promise<HarnessResult> {
  const notes: string[] = [];
  const reason = unmetNeed(c.needs, target.profile, { noReceiver: "this harness has no webhook receiver" });
  if (reason) return { status: "skipped", reason, notes, requests: 0 };
  const ctx = contextFor(target, notes);
  try {
    await c.run(ctx);
    return { status: "passed", notes, requests: ctx.http.exchanges.length };
  } catch (error) {
    if (error instanceof SkipCase) return { status: "skipped", reason: error.message, notes, requests: ctx.http.exchanges.length };
    const last = ctx.http.last;
    const detail = error instanceof CaseFailure ? error.detail : {};
    return {
      status: "failed",
      failure: { message: error instanceof Error ? error.message : String(error), ...detail, ...(last ? { curl: curlOf(last) } : {}) },
      notes,
      requests: ctx.http.exchanges.length,
    };
  }
}

/** A readable line for assertion messages. */
export function explain(result: HarnessResult): string {
  return JSON.stringify({ status: result.status, reason: result.reason, failure: result.failure, notes: result.notes }, null, 2);
}

export const ADMIN_TOKEN = "conformance-admin-token-0123456789";

async function personalToken(api: string, login: string, password: string, scopes: readonly string[]): Promise<string> {
  const res = await fetch(`${api}/authorizations`, {
    method: "POST",
    headers: { authorization: basic(login, password), "content-type": "application/json" },
    body: JSON.stringify({ scopes, note: `conformance ${login} ${Math.random().toString(36).slice(2)}` }),
  });
  const body = (await res.json()) as { token?: string };
  if (res.status !== 201 || !body.token) throw new Error(`could not create a token for ${login}: ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}

/**
 * A trigger for every action of the reference's simulate endpoint, as the suite's reference
 * profile writes them (conformance/reference-profile.ts): the case's params go into `params`,
 * `{repo}` and `{login}` are the run's built-ins (a case may pass its own `repo`).
 */
export function referenceTriggers(): Record<string, TriggerStep[]> {
  return Object.fromEntries(
    ACTION_NAMES.map((action) => [action, [{ http: { method: "POST", url: `/_admin/simulate/${action}`, headers: { "X-Admin-Token": ADMIN_TOKEN }, body: { repo: "{repo}", actor: "{login}", params: "{*}" } } }]]),
  );
}

export async function demoProfile(t: TestServer): Promise<Profile> {
  const { main, second } = REFERENCE_USERS;
  const [mainToken, secondToken] = await Promise.all([personalToken(t.api, main.login, main.password, main.scopes), personalToken(t.api, second.login, second.password, second.scopes)]);
  return {
    users: [
      { login: main.login, password: main.password, token: mainToken },
      // defunkt: no access to octocat/secret-plans (hubot collaborates there).
      { login: second.login, password: second.password, token: secondToken },
    ],
    app: { ...REFERENCE_APP },
    otherApp: { ...REFERENCE_OTHER_APP },
    twoFactor: { ...REFERENCE_TWO_FACTOR },
    org: "octo-org",
    repos: { public: "octocat/hello-world", private: "octocat/secret-plans" },
    serviceHook: { ...REFERENCE_SERVICE_HOOK, config: { ...REFERENCE_SERVICE_HOOK.config } },
    issue: 1,
    authorize: { driver: "form", login: { username: "login", password: "password" }, consent: { approve: "decision=authorize", deny: "decision=deny" } },
    triggers: referenceTriggers(),
  };
}

export interface ConformanceTarget {
  t: TestServer;
  target: Target;
  run(c: Case): Promise<HarnessResult>;
}

/** The reference server with the admin endpoint, and the demo profile once it is up. */
export function useConformanceTarget(options: { history?: boolean | { count: number } } = {}): ConformanceTarget {
  const t = useServer({ adminToken: ADMIN_TOKEN, history: options.history ?? false });
  const out = { t } as ConformanceTarget;
  beforeAll(async () => {
    out.target = { baseUrl: t.api, authUrl: t.auth, profile: await demoProfile(t) };
  });
  out.run = (c) => runCase(c, out.target);
  return out;
}
