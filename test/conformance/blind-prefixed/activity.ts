// activity.ts — what happens on the service: activity events, issue events (with their state changes),
// and the webhook fan-out to matching repository and organization hooks.
import { fakeSha, iso } from "./util.ts";
import {
  type Activity, type Ctx, type Hook, type Issue, type IssueEvent, type Org, type PushRecord, type Repo, type User,
  fullName, nextId, orgOfRepo, userByLogin,
} from "./model.ts";
import { issueView, orgView, pullView, repoView, userView } from "./present.ts";

export const ISSUE_EVENT_KINDS = [
  "closed", "reopened", "subscribed", "merged", "referenced", "mentioned", "assigned", "unassigned", "labeled",
  "unlabeled", "milestoned", "demilestoned", "renamed", "locked", "unlocked", "head_ref_deleted", "head_ref_restored",
];
export const WEBHOOK_EVENTS = [
  "*", "commit_comment", "create", "delete", "deployment", "deployment_status", "fork", "gollum", "issue_comment",
  "issues", "member", "membership", "page_build", "public", "pull_request_review_comment", "pull_request", "push",
  "repository", "release", "status", "team_add", "watch",
];
const ORG_ONLY = new Set(["repository", "membership"]);

export function record(ctx: Ctx, type: string, actor: User, repo: Repo | null, payload: Record<string, unknown>,
  opts: { org?: Org | null; at?: number } = {}): Activity {
  const org = opts.org !== undefined ? opts.org : repo ? orgOfRepo(ctx.store, repo) : null;
  const a: Activity = {
    id: nextId(ctx.store, "activity", 1_000_000), type, public: repo ? !repo.private : true, actorId: actor.id,
    repoId: repo?.id ?? null, orgId: org?.id ?? null, payload, createdAt: opts.at ?? Date.now(),
  };
  ctx.store.activities.push(a);
  return a;
}

const subscribed = (h: Hook, event: string): boolean => h.active && (h.events.includes(event) || h.events.includes("*"));

/** Sends `event` to the active hooks of the repository and of its organization; returns the number of hooks hit. */
export function dispatch(ctx: Ctx, event: string, actor: User, repo: Repo | null, org: Org | null, payload: Record<string, unknown>): number {
  const theOrg = org ?? (repo ? orgOfRepo(ctx.store, repo) : null);
  const full: Record<string, unknown> = { ...payload };
  if (repo) full.repository = repoView(ctx, repo);
  if (theOrg) full.organization = orgView(ctx, theOrg);
  full.sender = userView(ctx, actor);
  const targets = ctx.store.hooks.filter((h) => subscribed(h, event) && (
    (h.kind === "repo" && repo !== null && h.targetId === repo.id && !ORG_ONLY.has(event)) ||
    (h.kind === "org" && theOrg !== null && h.targetId === theOrg.id)));
  for (const h of targets) ctx.deliver(h, event, full);
  return targets.length;
}

/** Records an activity event (when given a type) and dispatches the webhook event. */
export function emit(ctx: Ctx, actor: User, repo: Repo | null, type: string | null, event: string | null,
  payload: Record<string, unknown>, org: Org | null = null): { activity?: string; deliveries: number } {
  const a = type ? record(ctx, type, actor, repo, payload, org ? { org } : {}) : undefined;
  const deliveries = event ? dispatch(ctx, event, actor, repo, org, payload) : 0;
  return { ...(a ? { activity: String(a.id) } : {}), deliveries };
}

export function createIssue(ctx: Ctx, repo: Repo, actor: User, title: string, isPull: boolean, at = Date.now()): Issue {
  const number = Math.max(0, ...ctx.store.issues.filter((i) => i.repoId === repo.id).map((i) => i.number)) + 1;
  const issue: Issue = {
    id: nextId(ctx.store, "issue", 5000), repoId: repo.id, number, title, body: "", state: "open", userId: actor.id,
    assigneeId: null, labels: [], milestoneId: null, locked: false, comments: 0, isPull, merged: false, closedAt: null,
    createdAt: at, updatedAt: at,
  };
  ctx.store.issues.push(issue);
  return issue;
}

export interface KindOptions { label?: string; assignee?: string; milestone?: string; title?: string; commit?: string; at?: number }

/** Records one issue event of `kind` and applies the state change it stands for. */
export function issueEvent(ctx: Ctx, issue: Issue, actor: User, kind: string, o: KindOptions = {}): IssueEvent {
  const repo = ctx.store.repos.find((r) => r.id === issue.repoId);
  const at = o.at ?? Date.now();
  const e: IssueEvent = { id: nextId(ctx.store, "issue_event", 100), repoId: issue.repoId, issueId: issue.id, actorId: actor.id, event: kind, commitId: null, createdAt: at };
  switch (kind) {
    case "closed": issue.state = "closed"; issue.closedAt = at; e.commitId = o.commit ?? null; break;
    case "reopened": issue.state = "open"; issue.closedAt = null; break;
    case "merged": issue.merged = true; e.commitId = o.commit ?? repo?.lastPush?.after ?? fakeSha(); break;
    case "referenced": e.commitId = o.commit ?? fakeSha(); break;
    case "assigned": case "unassigned": {
      const who = (o.assignee ? userByLogin(ctx.store, o.assignee) : undefined) ?? actor;
      e.assigneeId = who.id; issue.assigneeId = kind === "assigned" ? who.id : null; break;
    }
    case "labeled": case "unlabeled": {
      const name = o.label ?? issue.labels[0] ?? "bug";
      const color = repo?.labels.get(name) ?? "fc2929";
      repo?.labels.set(name, color);
      e.label = { name, color };
      issue.labels = kind === "labeled" ? [...new Set([...issue.labels, name])] : issue.labels.filter((l) => l !== name);
      break;
    }
    case "milestoned": case "demilestoned": {
      const current = ctx.store.milestones.find((m) => m.id === issue.milestoneId);
      const title = o.milestone ?? current?.title ?? "v1.0";
      let m = ctx.store.milestones.find((x) => x.repoId === issue.repoId && x.title === title);
      if (!m) {
        const number = ctx.store.milestones.filter((x) => x.repoId === issue.repoId).length + 1;
        m = { id: nextId(ctx.store, "milestone", 300), repoId: issue.repoId, number, title, description: "", state: "open", creatorId: actor.id, createdAt: at, closedAt: null, dueOn: null };
        ctx.store.milestones.push(m);
      }
      e.milestoneTitle = title; issue.milestoneId = kind === "milestoned" ? m.id : null; break;
    }
    case "renamed": { const to = o.title ?? `${issue.title} (renamed)`; e.rename = { from: issue.title, to }; issue.title = to; break; }
    case "locked": issue.locked = true; break;
    case "unlocked": issue.locked = false; break;
    default: break;
  }
  issue.updatedAt = at;
  ctx.store.issueEvents.push(e);
  return e;
}

const HOOK_ACTION: Record<string, string> = {
  closed: "closed", reopened: "reopened", assigned: "assigned", unassigned: "unassigned", labeled: "labeled",
  unlabeled: "unlabeled", renamed: "edited", merged: "closed", opened: "opened", synchronize: "synchronize",
};

/** The issues / pull_request activity + webhook that accompanies an issue action (if it has one). */
export function issueActivity(ctx: Ctx, issue: Issue, actor: User, kind: string, e?: IssueEvent, at?: number): { activity?: string; deliveries: number } {
  const action = HOOK_ACTION[kind];
  const repo = ctx.store.repos.find((r) => r.id === issue.repoId);
  if (!action || !repo) return { deliveries: 0 };
  const extra: Record<string, unknown> = {};
  if (e?.label) extra.label = { name: e.label.name, color: e.label.color, url: `${ctx.api}/repos/${fullName(repo)}/labels/${encodeURIComponent(e.label.name)}` };
  if (e?.assigneeId != null) { const u = ctx.store.users.find((x) => x.id === e.assigneeId); if (u) extra.assignee = userView(ctx, u); }
  if (e?.rename) extra.changes = { title: { from: e.rename.from } };
  const payload = issue.isPull
    ? { action, number: issue.number, pull_request: pullView(ctx, issue), ...extra }
    : { action, issue: issueView(ctx, issue), ...extra };
  const type = issue.isPull ? "PullRequestEvent" : "IssuesEvent";
  const a = at === undefined ? undefined : record(ctx, type, actor, repo, payload, { at });
  if (a) return { activity: String(a.id), deliveries: 0 };
  return emit(ctx, actor, repo, type, issue.isPull ? "pull_request" : "issues", payload);
}

export function pushRecord(repo: Repo, actor: User, ref: string, message: string, at = Date.now()): PushRecord {
  const after = fakeSha();
  const p: PushRecord = { ref, before: repo.lastPush?.after ?? "0".repeat(40), after, commits: [{ sha: after, message, timestamp: at }], actorId: actor.id };
  repo.lastPush = p; repo.pushedAt = at;
  return p;
}

export function pushActivityPayload(ctx: Ctx, repo: Repo, p: PushRecord, actor: User): Record<string, unknown> {
  return {
    push_id: Number.parseInt(p.after.slice(0, 8), 16), size: p.commits.length, distinct_size: p.commits.length, ref: p.ref,
    head: p.after, before: p.before,
    commits: p.commits.map((c) => ({ sha: c.sha, author: { email: actor.email, name: actor.name }, message: c.message, distinct: true, url: `${ctx.api}/repos/${fullName(repo)}/commits/${c.sha}` })),
  };
}

/** The detailed push webhook payload (repository and sender are added by dispatch). */
export function pushHookPayload(ctx: Ctx, repo: Repo, p: PushRecord, actor: User): Record<string, unknown> {
  const person = { name: actor.name, email: actor.email, username: actor.login };
  const commits = p.commits.map((c) => ({
    id: c.sha, distinct: true, message: c.message, timestamp: iso(c.timestamp), url: `${ctx.web}/${fullName(repo)}/commit/${c.sha}`,
    author: person, committer: person, added: [], removed: [], modified: ["README.md"],
  }));
  return {
    ref: p.ref, before: p.before, after: p.after, created: false, deleted: false, forced: false, base_ref: null,
    compare: `${ctx.web}/${fullName(repo)}/compare/${p.before.slice(0, 12)}...${p.after.slice(0, 12)}`,
    commits, head_commit: commits[commits.length - 1] ?? null, pusher: { name: actor.login, email: actor.email },
  };
}
