// seed.ts — the fixture data: users (one with two-factor), an organization, repositories, OAuth apps, personal
// tokens, milestones, an issue and a pull request with issue events, and activity history (some older than 90 days).
import { randomUUID, randomBytes } from "node:crypto";
import type { ActivityEvent, Issue, Repo, Store, User } from "./store.ts";
import { base32Encode } from "./totp.ts";
import { DAY, randomHex } from "./util.ts";

export const FIXTURE_SCOPES = ["repo", "admin:repo_hook", "admin:org_hook", "user"];

export interface Seeded {
  users: { login: string; password: string; token: string }[];
  twoFactor: { login: string; password: string; totpSecret: string };
  app: { clientId: string; clientSecret: string; callbackUrl: string };
  otherApp: { clientId: string; clientSecret: string };
  org: string; repos: { public: string; private: string }; issue: number;
}

function user(store: Store, id: number, login: string, totp = false): User {
  const u: User = { id, login, password: `${login}-${randomHex(6)}`, email: `${login}@example.com`, following: new Set(), watching: new Set() };
  if (totp) u.totpSecret = base32Encode(randomBytes(20));
  store.users.set(login, u);
  return u;
}

function repo(store: Store, id: number, owner: string, name: string, priv: boolean, daysAgo: number, forkOf?: string): Repo {
  const r: Repo = {
    id, owner, name, private: priv, description: `${name} repository`, collaborators: new Set(), createdAt: new Date(Date.now() - daysAgo * DAY),
    heads: new Map([["refs/heads/master", randomHex(20)]]),
  };
  if (forkOf) r.forkOf = forkOf;
  return store.addRepo(r);
}

function app(store: Store, id: number, name: string, callbackUrl: string, suspended = false): { clientId: string; clientSecret: string; callbackUrl: string } {
  const a = { id, name, clientId: randomHex(10), clientSecret: randomHex(20), callbackUrl, url: `${new URL(callbackUrl).origin}/`, suspended };
  store.apps.set(a.clientId, a);
  return { clientId: a.clientId, clientSecret: a.clientSecret, callbackUrl };
}

function push(actor: User, repoName: string, daysAgo: number, n: number): Omit<ActivityEvent, "public" | "org"> {
  const sha = randomHex(20);
  return {
    id: randomUUID(), type: "PushEvent", actor: actor.login, repo: repoName, createdAt: new Date(Date.now() - daysAgo * DAY),
    payload: {
      push_id: 100000 + n, size: 1, distinct_size: 1, ref: "refs/heads/master", head: sha, before: randomHex(20),
      commits: [{ sha, author: { email: actor.email, name: actor.login }, message: `Commit number ${n}`, distinct: true, url: `/repos/${repoName}/commits/${sha}` }],
    },
  };
}

export function seed(store: Store, callbackPort = 47999): Seeded {
  const alice = user(store, 1, "alice");
  const bob = user(store, 2, "bob");
  const carol = user(store, 3, "carol", true);
  user(store, 4, "dave");
  store.orgs.set("acme", { id: 100, login: "acme", admins: new Set(["alice"]), members: new Set(["alice", "bob"]) });

  repo(store, 1001, "alice", "hello", false, 400);
  repo(store, 1002, "alice", "secret", true, 300);
  repo(store, 1003, "acme", "widgets", false, 350);
  repo(store, 1004, "acme", "internal", true, 250);
  repo(store, 1005, "bob", "hello", false, 4, "alice/hello");
  for (const r of ["alice/hello", "alice/secret", "acme/widgets", "acme/internal"]) alice.watching.add(r);
  bob.watching.add("alice/hello").add("bob/hello").add("acme/widgets");
  bob.following.add("alice");
  alice.following.add("bob");
  carol.watching.add("alice/hello");

  const mainApp = app(store, 1, "Demo App", `http://127.0.0.1:${callbackPort}/cb`);
  const other = app(store, 2, "Other App", `http://127.0.0.1:${callbackPort - 1}/other/cb`);
  app(store, 3, "Suspended App", `http://127.0.0.1:${callbackPort - 2}/cb`, true);

  const tokens = [alice, bob].map((u) => store.createAuth({ login: u.login, scopes: FIXTURE_SCOPES, note: "fixture token", seed: true }).token);

  // Milestones, an issue (#1) and a pull request (#2) on the public repository, an issue on the private one.
  const ago = (d: number): Date => new Date(Date.now() - d * DAY);
  store.milestoneByTitle("alice/hello", "v1.0", "alice").createdAt = ago(60);
  store.milestoneByTitle("alice/hello", "v2.0", "alice").createdAt = ago(60);
  const issue = (o: Omit<Issue, "locked" | "closedAt" | "merged" | "mergeSha" | "comments" | "body" | "updatedAt">): Issue =>
    store.addIssue({ ...o, locked: false, closedAt: null, merged: false, mergeSha: null, comments: 0, body: "Details inside.", updatedAt: o.createdAt });
  issue({ id: 5001, repo: "alice/hello", number: 1, title: "Found a bug", state: "open", user: "bob", assignee: "alice", labels: ["bug"], milestone: 1, isPull: false, createdAt: ago(30), headRef: "" });
  issue({ id: 5002, repo: "alice/hello", number: 2, title: "Fix the bug", state: "open", user: "bob", assignee: null, labels: [], milestone: null, isPull: true, createdAt: ago(20), headRef: "fix-bug" });
  issue({ id: 5003, repo: "alice/secret", number: 1, title: "Secret plan", state: "open", user: "alice", assignee: null, labels: ["question"], milestone: null, isPull: false, createdAt: ago(10), headRef: "" });
  store.repo("alice/hello")?.heads.set("refs/heads/fix-bug", randomHex(20));
  const ie = (repoName: string, n: number, actor: string, event: string, d: number, more: object = {}): void => {
    store.addIssueEvent({ repo: repoName, issue: n, actor, event, createdAt: ago(d), ...more });
  };
  ie("alice/hello", 1, "alice", "labeled", 29, { label: { name: "bug", color: "fc2929" } });
  ie("alice/hello", 1, "alice", "assigned", 29, { assignee: "alice" });
  ie("alice/hello", 1, "alice", "milestoned", 28, { milestone: "v1.0" });
  ie("alice/hello", 1, "bob", "subscribed", 28);
  ie("alice/hello", 1, "alice", "mentioned", 27);
  ie("alice/hello", 1, "bob", "renamed", 26, { rename: { from: "Bug", to: "Found a bug" } });
  ie("alice/hello", 1, "alice", "referenced", 25, { commitId: randomHex(20) });
  ie("alice/hello", 2, "bob", "referenced", 19, { commitId: randomHex(20) });
  ie("alice/hello", 2, "bob", "head_ref_deleted", 18);
  ie("alice/hello", 2, "bob", "head_ref_restored", 17);
  ie("alice/secret", 1, "alice", "labeled", 9, { label: { name: "question", color: "cc317c" } });

  // Activity history: 320 public pushes (more than 10 pages), private events, org events, and events older than 90 days.
  const history: Omit<ActivityEvent, "public" | "org">[] = [];
  for (let n = 1; n <= 320; n++) history.push(push(alice, "alice/hello", n * 0.25, n));
  for (let n = 1; n <= 6; n++) history.push(push(alice, "alice/secret", n * 1.5, 1000 + n));
  for (let n = 1; n <= 3; n++) history.push(push(alice, "acme/widgets", n * 7, 2000 + n));
  for (let n = 1; n <= 2; n++) history.push(push(alice, "acme/internal", n * 3, 3000 + n));
  history.push(push(bob, "bob/hello", 3, 4000));
  for (const d of [100, 120, 150, 200]) history.push(push(alice, "alice/hello", d, 5000 + d));
  history.push(push(alice, "acme/widgets", 95, 6000));
  const event = (type: string, actor: string, repoName: string, d: number, payload: Record<string, unknown>): void => {
    history.push({ id: randomUUID(), type, actor, repo: repoName, createdAt: ago(d), payload });
  };
  event("WatchEvent", "bob", "alice/hello", 5, { action: "started" });
  event("ForkEvent", "bob", "alice/hello", 4, { forkee: { full_name: "bob/hello" } });
  event("WatchEvent", "bob", "acme/widgets", 12, { action: "started" });
  event("WatchEvent", "bob", "acme/widgets", 120, { action: "started" });
  event("CreateEvent", "bob", "bob/hello", 130, { ref: null, ref_type: "repository", master_branch: "master", description: "", pusher_type: "user" });
  event("IssuesEvent", "bob", "alice/hello", 30, { action: "opened", issue: { number: 1, title: "Found a bug" } });
  event("IssueCommentEvent", "alice", "alice/hello", 29, { action: "created", issue: { number: 1 }, comment: { body: "Thanks!" } });
  history.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  for (const h of history) {
    const r = store.repo(h.repo);
    const e: ActivityEvent = { ...h, public: !(r?.private ?? false) };
    if (r && store.org(r.owner)) e.org = r.owner;
    store.events.push(e);
  }

  return {
    users: [alice, bob].map((u, i) => ({ login: u.login, password: u.password, token: tokens[i] ?? "" })),
    twoFactor: { login: carol.login, password: carol.password, totpSecret: carol.totpSecret ?? "" },
    app: mainApp, otherApp: { clientId: other.clientId, clientSecret: other.clientSecret },
    org: "acme", repos: { public: "alice/hello", private: "alice/secret" }, issue: 1,
  };
}
