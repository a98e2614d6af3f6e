// present.ts — JSON representations of stored records (all API URLs carry the /api/v3 prefix via ctx.api).
import { iso } from "./util.ts";
import {
  type Activity, type App, type Authz, type Ctx, type Grant, type Hook, type Issue, type IssueEvent, type Milestone,
  type Org, type Repo, type User, fullName, orgById, repoById, userById,
} from "./model.ts";

const ts = (ms: number | null | undefined): string | null => (ms == null ? null : iso(ms));
const avatar = (ctx: Ctx, id: number): string => `${ctx.web}/avatars/u/${id}?v=3`;

export function userView(ctx: Ctx, u: User | Org): Record<string, unknown> {
  const a = `${ctx.api}/users/${u.login}`;
  const isOrg = !("password" in u);
  return {
    login: u.login, id: u.id, avatar_url: avatar(ctx, u.id), gravatar_id: "", url: a, html_url: `${ctx.web}/${u.login}`,
    followers_url: `${a}/followers`, following_url: `${a}/following{/other_user}`, gists_url: `${a}/gists{/gist_id}`,
    starred_url: `${a}/starred{/owner}{/repo}`, subscriptions_url: `${a}/subscriptions`, organizations_url: `${a}/orgs`,
    repos_url: `${a}/repos`, events_url: `${a}/events{/privacy}`, received_events_url: `${a}/received_events`,
    type: isOrg ? "Organization" : "User", site_admin: false,
  };
}
export function userRef(ctx: Ctx, id: number | null | undefined): Record<string, unknown> | null {
  if (id == null) return null;
  const u = userById(ctx.store, id);
  return u ? userView(ctx, u) : null;
}

export function orgView(ctx: Ctx, o: Org): Record<string, unknown> {
  const a = `${ctx.api}/orgs/${o.login}`;
  return {
    login: o.login, id: o.id, url: a, repos_url: `${a}/repos`, events_url: `${a}/events`, hooks_url: `${a}/hooks`,
    issues_url: `${a}/issues`, members_url: `${a}/members{/member}`, public_members_url: `${a}/public_members{/member}`,
    avatar_url: avatar(ctx, o.id), description: o.description,
  };
}

export function repoView(ctx: Ctx, r: Repo): Record<string, unknown> {
  const a = `${ctx.api}/repos/${fullName(r)}`;
  const owner = r.isOrg ? orgById(ctx.store, r.ownerId) : userById(ctx.store, r.ownerId);
  const parent = r.forkOf == null ? null : repoById(ctx.store, r.forkOf);
  return {
    id: r.id, name: r.name, full_name: fullName(r), owner: owner ? userView(ctx, owner) : null, private: r.private,
    html_url: `${ctx.web}/${fullName(r)}`, description: r.description, fork: r.forkOf != null, url: a,
    forks_url: `${a}/forks`, hooks_url: `${a}/hooks`, events_url: `${a}/events`, issues_url: `${a}/issues{/number}`,
    issue_events_url: `${a}/issues/events{/number}`, pulls_url: `${a}/pulls{/number}`,
    created_at: ts(r.createdAt), updated_at: ts(r.pushedAt), pushed_at: ts(r.pushedAt), homepage: null, size: 0,
    stargazers_count: r.watchers.size, watchers_count: r.watchers.size, language: null,
    forks_count: ctx.store.repos.filter((x) => x.forkOf === r.id).length,
    open_issues_count: ctx.store.issues.filter((i) => i.repoId === r.id && i.state === "open").length,
    default_branch: r.defaultBranch, ...(parent ? { parent: { id: parent.id, full_name: fullName(parent), url: `${ctx.api}/repos/${fullName(parent)}` } } : {}),
  };
}

export function milestoneView(ctx: Ctx, m: Milestone): Record<string, unknown> {
  const r = repoById(ctx.store, m.repoId);
  const a = `${ctx.api}/repos/${r ? fullName(r) : "-"}/milestones/${m.number}`;
  const issues = ctx.store.issues.filter((i) => i.milestoneId === m.id);
  return {
    url: a, html_url: `${ctx.web}/${r ? fullName(r) : "-"}/milestones/${encodeURIComponent(m.title)}`, labels_url: `${a}/labels`,
    id: m.id, number: m.number, state: m.state, title: m.title, description: m.description, creator: userRef(ctx, m.creatorId),
    open_issues: issues.filter((i) => i.state === "open").length, closed_issues: issues.filter((i) => i.state === "closed").length,
    created_at: ts(m.createdAt), updated_at: ts(m.createdAt), closed_at: ts(m.closedAt), due_on: ts(m.dueOn),
  };
}

export function issueView(ctx: Ctx, i: Issue): Record<string, unknown> {
  const r = repoById(ctx.store, i.repoId);
  const full = r ? fullName(r) : "-";
  const a = `${ctx.api}/repos/${full}/issues/${i.number}`;
  const m = i.milestoneId == null ? undefined : ctx.store.milestones.find((x) => x.id === i.milestoneId);
  return {
    id: i.id, url: a, labels_url: `${a}/labels{/name}`, comments_url: `${a}/comments`, events_url: `${a}/events`,
    html_url: `${ctx.web}/${full}/${i.isPull ? "pull" : "issues"}/${i.number}`, number: i.number, state: i.state,
    title: i.title, body: i.body, user: userRef(ctx, i.userId),
    labels: i.labels.map((n) => ({ url: `${ctx.api}/repos/${full}/labels/${encodeURIComponent(n)}`, name: n, color: r?.labels.get(n) ?? "ededed" })),
    assignee: userRef(ctx, i.assigneeId), milestone: m ? milestoneView(ctx, m) : null, locked: i.locked, comments: i.comments,
    ...(i.isPull ? { pull_request: {
      url: `${ctx.api}/repos/${full}/pulls/${i.number}`, html_url: `${ctx.web}/${full}/pull/${i.number}`,
      diff_url: `${ctx.web}/${full}/pull/${i.number}.diff`, patch_url: `${ctx.web}/${full}/pull/${i.number}.patch`,
    } } : {}),
    closed_at: ts(i.closedAt), created_at: ts(i.createdAt), updated_at: ts(i.updatedAt),
  };
}

export function pullView(ctx: Ctx, i: Issue): Record<string, unknown> {
  const base = issueView(ctx, i);
  const r = repoById(ctx.store, i.repoId);
  const full = r ? fullName(r) : "-";
  return {
    url: `${ctx.api}/repos/${full}/pulls/${i.number}`, id: i.id, html_url: `${ctx.web}/${full}/pull/${i.number}`,
    diff_url: `${ctx.web}/${full}/pull/${i.number}.diff`, patch_url: `${ctx.web}/${full}/pull/${i.number}.patch`,
    issue_url: base.url, number: i.number, state: i.state, locked: i.locked, title: i.title, user: base.user, body: i.body,
    created_at: base.created_at, updated_at: base.updated_at, closed_at: base.closed_at, merged_at: i.merged ? base.closed_at : null,
    assignee: base.assignee, milestone: base.milestone, merged: i.merged,
    head: { label: `${r?.owner ?? "-"}:feature-${i.number}`, ref: `feature-${i.number}`, sha: r?.lastPush?.after ?? null },
    base: { label: `${r?.owner ?? "-"}:${r?.defaultBranch ?? "master"}`, ref: r?.defaultBranch ?? "master", sha: null },
  };
}

export function issueEventView(ctx: Ctx, e: IssueEvent, withIssue: boolean): Record<string, unknown> {
  const r = repoById(ctx.store, e.repoId);
  const issue = ctx.store.issues.find((i) => i.id === e.issueId);
  const out: Record<string, unknown> = {
    id: e.id, url: `${ctx.api}/repos/${r ? fullName(r) : "-"}/issues/events/${e.id}`, actor: userRef(ctx, e.actorId),
    event: e.event, commit_id: e.commitId, created_at: iso(e.createdAt),
  };
  if (e.label) out.label = { name: e.label.name, color: e.label.color };
  if (e.assigneeId != null) out.assignee = userRef(ctx, e.assigneeId);
  if (e.milestoneTitle != null) out.milestone = { title: e.milestoneTitle };
  if (e.rename) out.rename = { from: e.rename.from, to: e.rename.to };
  if (withIssue && issue) out.issue = issueView(ctx, issue);
  return out;
}

export function activityView(ctx: Ctx, a: Activity): Record<string, unknown> {
  const actor = userById(ctx.store, a.actorId);
  const repo = a.repoId == null ? undefined : repoById(ctx.store, a.repoId);
  const org = a.orgId == null ? undefined : orgById(ctx.store, a.orgId);
  return {
    id: String(a.id), type: a.type,
    actor: actor ? { id: actor.id, login: actor.login, gravatar_id: "", avatar_url: avatar(ctx, actor.id), url: `${ctx.api}/users/${actor.login}` } : null,
    repo: repo ? { id: repo.id, name: fullName(repo), url: `${ctx.api}/repos/${fullName(repo)}` } : null,
    payload: a.payload, public: a.public, created_at: iso(a.createdAt),
    ...(org ? { org: { id: org.id, login: org.login, gravatar_id: "", url: `${ctx.api}/orgs/${org.login}`, avatar_url: avatar(ctx, org.id) } } : {}),
  };
}

export function hookView(ctx: Ctx, h: Hook): Record<string, unknown> {
  const base = h.kind === "repo"
    ? `${ctx.api}/repos/${(() => { const r = repoById(ctx.store, h.targetId); return r ? fullName(r) : "-"; })()}/hooks/${h.id}`
    : `${ctx.api}/orgs/${orgById(ctx.store, h.targetId)?.login ?? "-"}/hooks/${h.id}`;
  const config = { ...h.config };
  if (h.name === "web" && config.secret !== undefined && config.secret !== "") config.secret = "********";
  return {
    type: h.kind === "repo" ? "Repository" : "Organization", id: h.id, name: h.name, active: h.active, events: [...h.events],
    config, updated_at: iso(h.updatedAt), created_at: iso(h.createdAt), url: base,
    ...(h.kind === "repo" ? { test_url: `${base}/tests` } : {}), ping_url: `${base}/pings`,
    last_response: { ...h.lastResponse },
  };
}

const appInfo = (ctx: Ctx, app: App | undefined, note: string | null): Record<string, unknown> => app
  ? { name: app.name, url: app.url, client_id: app.clientId }
  : { name: note ?? "", url: `${ctx.api}/authorizations`, client_id: "00000000000000000000" };

export function authzView(ctx: Ctx, a: Authz, token = "", withUser = false): Record<string, unknown> {
  const app = a.appId == null ? undefined : ctx.store.apps.find((x) => x.id === a.appId);
  return {
    id: a.id, url: `${ctx.api}/authorizations/${a.id}`, app: appInfo(ctx, app, a.note), token, hashed_token: a.tokenHash,
    token_last_eight: a.lastEight, note: a.note, note_url: a.noteUrl, created_at: iso(a.createdAt), updated_at: iso(a.updatedAt),
    scopes: [...a.scopes], fingerprint: a.fingerprint, ...(withUser ? { user: userRef(ctx, a.userId) } : {}),
  };
}

export function grantView(ctx: Ctx, g: Grant): Record<string, unknown> {
  const app = ctx.store.apps.find((x) => x.id === g.appId);
  return {
    id: g.id, url: `${ctx.api}/applications/grants/${g.id}`, app: appInfo(ctx, app, null),
    created_at: iso(g.createdAt), updated_at: iso(g.updatedAt), scopes: [...g.scopes],
  };
}
