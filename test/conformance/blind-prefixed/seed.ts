// seed.ts — the fixture: users (one with two-factor), an organization, repositories, an issue with history,
// an activity history that includes events older than 90 days, and registered OAuth applications.
import { randomBytes } from "node:crypto";
import { base32Encode, DAY, randomHex } from "./util.ts";
import { issueToken } from "./tokens.ts";
import { type Ctx, type Org, type Repo, type User, nextId } from "./model.ts";
import { createIssue, issueActivity, issueEvent, pushActivityPayload, pushRecord, record } from "./activity.ts";

export interface Fixture {
  users: { login: string; password: string; token: string }[];
  twoFactor: { login: string; password: string; totpSecret: string };
  app: { clientId: string; clientSecret: string; callbackUrl: string };
  otherApp: { clientId: string; clientSecret: string };
  org: string; repos: { public: string; private: string }; issue: number;
  serviceHook: { repo: string; name: string; config: Record<string, string> };
  pages: { usernameField: string; passwordField: string; approve: string; deny: string };
  limits: { authenticated: number; anonymous: number };
}

export const PERSONAL_SCOPES = ["repo", "admin:repo_hook", "admin:org_hook", "user"];

function addUser(ctx: Ctx, login: string, name: string, totp: string | null = null): User {
  const u: User = { id: nextId(ctx.store, "account"), login, password: `${login}-${randomHex(6)}`, name, email: `${login}@example.com`, totpSecret: totp, following: new Set(), createdAt: Date.now() - 400 * DAY };
  ctx.store.users.push(u);
  return u;
}

export function addRepo(ctx: Ctx, owner: User | Org, name: string, priv: boolean, at = Date.now(), forkOf: number | null = null): Repo {
  const r: Repo = {
    id: nextId(ctx.store, "repo", 1296269), owner: owner.login, ownerId: owner.id, isOrg: !("password" in owner), name, private: priv,
    description: `${name} repository`, collaborators: new Set(), watchers: new Set(), forkOf, createdAt: at, pushedAt: at,
    defaultBranch: "master", lastPush: null, labels: new Map([["bug", "fc2929"], ["enhancement", "84b6eb"]]),
  };
  ctx.store.repos.push(r);
  return r;
}

export function seed(ctx: Ctx, callbackPort: number): Fixture {
  const s = ctx.store;
  const main = addUser(ctx, "octocat", "The Octocat");
  const other = addUser(ctx, "hubot", "Hubot");
  const twofa = addUser(ctx, "twofactor", "Two Factor", base32Encode(randomBytes(20)));
  const org: Org = { id: nextId(s, "account"), login: "acme", description: "The Acme organization", admins: new Set([main.id]), members: new Set([main.id]), createdAt: Date.now() - 300 * DAY };
  s.orgs.push(org);
  other.following.add(main.id);

  const t0 = Date.now();
  const pub = addRepo(ctx, main, "hello-world", false, t0 - 200 * DAY);
  const priv = addRepo(ctx, main, "secret-plans", true, t0 - 200 * DAY);
  const orgRepo = addRepo(ctx, org, "widgets", false, t0 - 150 * DAY);
  const fork = addRepo(ctx, other, "hello-world", false, t0 - 100 * DAY, pub.id);
  for (const r of [pub, priv, orgRepo]) r.watchers.add(main.id);
  pub.watchers.add(other.id);

  // Activity history: a few events older than 90 days, then more than 300 recent public events.
  for (let i = 0; i < 6; i++) {
    const p = pushRecord(pub, main, "refs/heads/master", `Ancient commit ${i}`, t0 - (95 + i * 5) * DAY);
    record(ctx, "PushEvent", main, pub, pushActivityPayload(ctx, pub, p, main), { at: t0 - (95 + i * 5) * DAY });
  }
  for (let i = 0; i < 320; i++) {
    const at = t0 - 85 * DAY + i * Math.floor((84 * DAY) / 320);
    const [actor, repo] = i % 5 === 0 ? [other, fork] : i % 7 === 0 ? [main, orgRepo] : [main, pub];
    const p = pushRecord(repo, actor, "refs/heads/master", `Commit number ${i}`, at);
    record(ctx, "PushEvent", actor, repo, pushActivityPayload(ctx, repo, p, actor), { at });
  }
  for (let i = 0; i < 5; i++) {
    const at = t0 - (60 - i * 10) * DAY;
    const p = pushRecord(priv, main, "refs/heads/master", `Secret commit ${i}`, at);
    record(ctx, "PushEvent", main, priv, pushActivityPayload(ctx, priv, p, main), { at });
  }
  record(ctx, "WatchEvent", other, pub, { action: "started" }, { at: t0 - 30 * DAY });
  record(ctx, "CreateEvent", main, orgRepo, { ref: "release-1", ref_type: "branch", master_branch: "master", description: orgRepo.description, pusher_type: "user" }, { at: t0 - 20 * DAY });

  // Issue #1 (public repository) with a history of issue events; pull request #2 merged.
  const issue = createIssue(ctx, pub, main, "Found a bug", false, t0 - 50 * DAY);
  issueActivity(ctx, issue, main, "opened", undefined, t0 - 50 * DAY);
  const steps: [string, User, number][] = [
    ["labeled", main, 49], ["assigned", main, 48], ["milestoned", main, 47], ["subscribed", other, 46], ["mentioned", other, 45],
    ["referenced", main, 44], ["renamed", main, 43], ["closed", main, 42], ["reopened", other, 41], ["locked", main, 40],
    ["unlocked", main, 39], ["unlabeled", main, 38], ["labeled", main, 37], ["unassigned", main, 36], ["assigned", main, 35],
    ["demilestoned", main, 34], ["milestoned", main, 33],
  ];
  for (const [kind, actor, days] of steps) {
    const e = issueEvent(ctx, issue, actor, kind, { at: t0 - days * DAY, title: "Found a bug in the greeting" });
    issueActivity(ctx, issue, actor, kind, e, t0 - days * DAY);
  }
  const pr = createIssue(ctx, pub, other, "Improve the greeting", true, t0 - 32 * DAY);
  for (const [kind, days] of [["head_ref_deleted", 31], ["head_ref_restored", 30], ["merged", 29], ["closed", 29]] as const) {
    const e = issueEvent(ctx, pr, main, kind, { at: t0 - days * DAY });
    if (kind === "closed") issueActivity(ctx, pr, main, kind, e, t0 - days * DAY);
  }
  const secret = createIssue(ctx, priv, main, "Secret plan", false, t0 - 10 * DAY);
  issueEvent(ctx, secret, main, "labeled", { at: t0 - 10 * DAY, label: "enhancement" });

  // OAuth applications.
  const callbackUrl = `http://127.0.0.1:${callbackPort}/callback`;
  const mkApp = (name: string, cb: string, suspended = false) => {
    const a = { id: nextId(s, "app"), clientId: randomHex(10), clientSecret: randomHex(20), name, url: `http://127.0.0.1:${callbackPort}/`, callbackUrl: cb, suspended };
    s.apps.push(a);
    return a;
  };
  const app = mkApp("Fixture App", callbackUrl);
  const otherApp = mkApp("Other App", `http://127.0.0.1:${callbackPort}/other/callback`);
  mkApp("Suspended App", `http://127.0.0.1:${callbackPort}/suspended`, true);

  const tokens = [main, other].map((u) => issueToken(ctx, u.id, null, PERSONAL_SCOPES, "fixture token", true).token);
  return {
    users: [
      { login: main.login, password: main.password, token: tokens[0] ?? "" },
      { login: other.login, password: other.password, token: tokens[1] ?? "" },
    ],
    twoFactor: { login: twofa.login, password: twofa.password, totpSecret: twofa.totpSecret ?? "" },
    app: { clientId: app.clientId, clientSecret: app.clientSecret, callbackUrl },
    otherApp: { clientId: otherApp.clientId, clientSecret: otherApp.clientSecret },
    org: org.login, repos: { public: "octocat/hello-world", private: "octocat/secret-plans" }, issue: issue.number,
    serviceHook: { repo: "octocat/hello-world", name: "travis", config: { user: "octocat", token: "travis-token-123", domain: "notify.travis-ci.org" } },
    pages: { usernameField: "login", passwordField: "password", approve: "authorize=1", deny: "authorize=0" },
    limits: { authenticated: 5000, anonymous: 60 },
  };
}
