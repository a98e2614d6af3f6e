/**
 * `conformance --reference`: the reference server on a temporary in-memory database with the demo
 * seed (and a short history), and the profile that matches it — octocat (a token with every scope the cases use) and
 * defunkt as the second user, the demo application and the suspended one beside it, monalisa
 * (two-factor) with her TOTP secret, a travis service hook on octocat/hello-world, octo-org, octocat/hello-world and
 * octocat/secret-plans, issue #1, the `form` authorize driver, and a trigger for every event the
 * reference can make happen (POST /_admin/simulate/<event> with a random admin token). This is
 * the suite's own proof that it passes against a correct implementation, and what the tests run
 * in process through `runReference`.
 *
 * Triggers are written so that calling one again works where the reference allows it (new
 * branch, repository and fork names from `{nonce}`, a deployment before each deployment status);
 * `watch` and `member` can happen once per run, as on any real service.
 */
import { randomBytes } from "node:crypto";
import type { Profile, TriggerStep } from "./core/profile.ts";
import type { RunSummary } from "./core/types.ts";
import { runSuite, type SuiteOptions } from "./run/runner.ts";
import type { RunningServer, ServerOptions } from "../reference/server.ts";
import type { Database } from "../reference/db/database.ts";
import type { Scope } from "../reference/auth/scopes.ts";

export const REFERENCE_USERS: Record<"main" | "second", { login: string; password: string; scopes: readonly Scope[] }> = {
  main: { login: "octocat", password: "octocat-demo-password", scopes: ["repo", "admin:repo_hook", "admin:org_hook", "user"] },
  // Not hubot: hubot collaborates on octocat/secret-plans, and users[1] must not see it.
  second: { login: "defunkt", password: "defunkt-demo-password", scopes: ["repo", "user"] },
};

export const REFERENCE_APP = { clientId: "demo-client-id-0001", clientSecret: "demo-client-secret-0001-keep-it-private", callbackUrl: "http://127.0.0.1:8080/callback" };

/** The demo's second application (suspended: it may still check, reset and revoke its tokens). */
export const REFERENCE_OTHER_APP = { clientId: "demo-client-id-0002", clientSecret: "demo-client-secret-0002-keep-it-private" };

/** The demo's two-factor user (reference/seed/README.md): codes from its TOTP secret. */
export const REFERENCE_TWO_FACTOR = { login: "monalisa", password: "monalisa-demo-password", totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP" };

/**
 * A service hook the reference offers (travis, the contract's own example) on octocat/hello-world;
 * its domain never resolves, so nothing it would send leaves the machine.
 */
export const REFERENCE_SERVICE_HOOK = { repo: "octocat/hello-world", name: "travis", config: { user: "conformance", token: "conformance-travis-token", domain: "ci.conformance.invalid" } };

/** The events the reference's simulate endpoint knows, with any steps or defaults they need. */
function referenceTriggers(actions: readonly string[], adminToken: string, second: string): Pick<Profile, "triggers" | "triggerParams"> {
  const step = (action: string, body: Record<string, unknown> = {}): TriggerStep => ({
    http: { method: "POST", url: `/_admin/simulate/${action}`, headers: { "X-Admin-Token": adminToken }, body: { repo: "{repo}", actor: "{login}", params: "{*}", ...body } },
  });
  const triggers: Record<string, TriggerStep[]> = Object.fromEntries(actions.map((a) => [a, [step(a)]]));
  const special: Record<string, TriggerStep[]> = {
    delete: [step("create"), step("delete")],
    fork: [step("fork", { actor: "hubot" })],
    deployment_status: [step("deployment", { params: {} }), step("deployment_status")],
    public: [step("repository", { params: { name: "conformance-{nonce}", private: "true" } }), step("public", { repo: "{owner}/conformance-{nonce}", params: {} })],
    team_add: [step("repository", { repo: "{org}/hello-world", params: { name: "conformance-{nonce}" } }), step("team_add", { repo: "{org}/conformance-{nonce}" })],
    // Added then removed, so it can happen again; a case waits for the first delivery.
    membership: [step("membership", { repo: "{org}/hello-world", params: { user: second, action: "added" } }), step("membership", { repo: "{org}/hello-world", params: { user: second, action: "removed" } })],
  };
  for (const [event, steps] of Object.entries(special)) if (event in triggers) triggers[event] = steps;
  const byIssue = ["issue_comment", "subscribed", "mentioned", "referenced", "milestoned", "demilestoned", "renamed", "locked", "unlocked"];
  const triggerParams: Record<string, Record<string, string>> = {
    create: { ref: "conformance-{nonce}" },
    delete: { ref: "conformance-{nonce}" },
    fork: { name: "{name}-{nonce}" },
    repository: { name: "conformance-{nonce}" },
    member: { user: second },
    ...Object.fromEntries(byIssue.map((e) => [e, { number: "{issue}" }])),
    renamed: { number: "{issue}", title: "Renamed {nonce}" },
  };
  return { triggers, triggerParams };
}

export interface ReferenceTarget {
  server: RunningServer;
  profile: Profile;
  /** For POST /_admin/simulate/:event (the triggers carry it too). */
  adminToken: string;
  close(): Promise<void>;
}

/**
 * The profile of a reference server on the demo seed whose admin endpoint takes `adminToken`:
 * fresh tokens for the two users, written into its database `db`. Also for reference servers
 * started otherwise (several instances on one database, behind a proxy).
 */
export async function referenceProfile(db: Database, adminToken: string): Promise<Profile> {
  const [{ findAccountByLogin }, { createAuthorization }] = await Promise.all([import("../reference/store/accounts.ts"), import("../reference/store/authorizations.ts")]);
  const token = async (user: { login: string; scopes: readonly Scope[] }): Promise<string> => {
    const account = await findAccountByLogin(db, user.login);
    if (!account) throw new Error(`the demo seed has no ${user.login}`);
    const created = await createAuthorization(db, { userId: account.id, appId: null, scopes: user.scopes, via: "api", note: "conformance --reference" });
    return created.token;
  };
  const { main, second } = REFERENCE_USERS;
  return demoProfileShape(await token(main), await token(second), adminToken);
}

/**
 * The profile of the demo data, given the two users' tokens: shared by `--reference` and by
 * `--profile demo` against a server of the demo data (run/demo-profile.ts). Triggers only with
 * the admin token of the server's simulate endpoint.
 */
export async function demoProfileShape(mainToken: string, secondToken: string, adminToken?: string): Promise<Profile> {
  const { main, second } = REFERENCE_USERS;
  const { ACTION_NAMES } = await import("../reference/domain/index.ts");
  return {
    users: [
      { login: main.login, password: main.password, token: mainToken },
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
    ...(adminToken ? referenceTriggers(ACTION_NAMES, adminToken, second.login) : {}),
    deliveryTimeoutMs: 5000,
    // The reference implements PKCE (S256): the OAUTH-PKCE cases run.
    pkce: true,
  };
}

/** What `--reference` starts the server with besides its own choices: the conformance cases need them. */
export const REFERENCE_SERVER_OPTIONS = {
  seed: "demo",
  // Deliveries go out as soon as they are queued, and a retry when it falls due (the worker is
  // woken for both): the poll only matters if a wake-up is missed, so it keeps its default of a
  // second. Each poll is a pg-boss fetch; every 100 ms they were over a quarter of the database's
  // work in a whole conformance run. The first retry after half a second (the default is 30 s),
  // so WEBHOOK-RETRY-001 sees it.
  deliveries: { schedule: { baseDelayMs: 500 } },
  // A short history spread over six months (about a second to record): activity older than the
  // 90-day window, which the window cases need as evidence and no trigger can make.
  history: { count: 40 },
} as const satisfies ServerOptions;

/** Starts the reference server (in-memory PGlite, demo seed, admin endpoint) and builds its profile. */
export async function startReferenceTarget(serverOptions: ServerOptions = {}): Promise<ReferenceTarget> {
  const { startServer } = await import("../reference/server.ts");
  const adminToken = randomBytes(20).toString("hex");
  const server = await startServer({ port: 0, authPort: 0, adminToken, ...REFERENCE_SERVER_OPTIONS, ...serverOptions });
  try {
    return { server, profile: await referenceProfile(server.db, adminToken), adminToken, close: () => server.close() };
  } catch (error) {
    await server.close();
    throw error;
  }
}

export type ReferenceOptions = Omit<SuiteOptions, "baseUrl" | "authUrl" | "profile"> & {
  /** Passed to startServer (e.g. a broken variant's options in tests). */
  server?: ServerOptions;
  /** Changes to the reference profile (e.g. the browser driver instead of the form driver). */
  adjustProfile?: (profile: Profile) => Profile;
  /** Called once the server is up, before the first case. */
  onStarted?: (target: ReferenceTarget) => void;
  /**
   * A start already under way (startReferenceTarget, begun by the caller while it did other
   * work); runReference closes it like its own. `server` does not apply then.
   */
  starting?: Promise<ReferenceTarget>;
};

/**
 * Starts the reference, runs the suite against it, stops it: the in-process `conformance --reference`.
 * The cases' modules load while the server starts: a good part of the start waits (WebAssembly
 * compiled off the main thread, files read), and the modules need nothing from the server.
 */
export async function runReference(options: ReferenceOptions = {}): Promise<RunSummary> {
  const { server: serverOptions, onStarted, adjustProfile, starting, ...suite } = options;
  const loading = suite.cases ? Promise.resolve(suite.cases) : import("./cases/index.ts").then((m) => m.ALL_CASES);
  const [started, loaded] = await Promise.allSettled([starting ?? startReferenceTarget(serverOptions), loading]);
  if (started.status === "rejected") throw started.reason;
  const target = started.value;
  try {
    if (loaded.status === "rejected") throw loaded.reason;
    onStarted?.(target);
    const profile = adjustProfile ? adjustProfile(target.profile) : target.profile;
    return await runSuite({ ...suite, cases: loaded.value, baseUrl: target.server.urls.api, authUrl: target.server.urls.auth, profile });
  } finally {
    await target.close();
  }
}
