/**
 * How the independent server writes its resources as JSON, from the seed's field tables: the
 * activity event (id a string — here opaque), the user object with its URL templates, the issue
 * and issue event (fields only where the seed says they apply), the webhook payload's repository
 * and sender, and this server's own hook shape.
 */
import type { ActivityEvent, Hook, Issue, IssueEvent, Repo, State, User } from "./state.ts";

export function userObject(base: string, u: User): Record<string, unknown> {
  const url = `${base}/users/${u.login}`;
  return {
    login: u.login,
    id: u.id,
    avatar_url: `https://avatars.indie.test/${u.id}`,
    gravatar_id: "",
    url,
    html_url: `https://indie.test/${u.login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: u.type,
    site_admin: false,
  };
}

export function repoObject(base: string, s: State, r: Repo): Record<string, unknown> {
  const owner = s.user(r.owner)!;
  return { id: r.id, name: r.name, full_name: `${r.owner}/${r.name}`, owner: userObject(base, owner), private: r.private, html_url: `https://indie.test/${r.owner}/${r.name}`, url: `${base}/repos/${r.owner}/${r.name}` };
}

export function activityObject(base: string, s: State, e: ActivityEvent): Record<string, unknown> {
  const repo = s.repoById(e.repoId);
  const actor = s.userById(e.actorId);
  const org = s.orgs.get(repo.owner.toLowerCase());
  return {
    id: e.id,
    type: e.type,
    actor: { id: actor.id, login: actor.login, gravatar_id: "", url: `${base}/users/${actor.login}`, avatar_url: `https://avatars.indie.test/${actor.id}` },
    repo: { id: repo.id, name: `${repo.owner}/${repo.name}`, url: `${base}/repos/${repo.owner}/${repo.name}` },
    payload: e.payload,
    public: e.public,
    created_at: iso(e.createdAt),
    ...(org ? { org: { id: org.id, login: org.login, gravatar_id: "", url: `${base}/orgs/${org.login}`, avatar_url: `https://avatars.indie.test/${org.id}` } } : {}),
  };
}

export function iso(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function issueObject(base: string, s: State, i: Issue): Record<string, unknown> {
  const repo = s.repoById(i.repoId);
  const url = `${base}/repos/${repo.owner}/${repo.name}/issues/${i.number}`;
  const creator = userObject(base, s.userById(i.userId));
  return {
    id: i.id,
    url,
    html_url: `https://indie.test/${repo.owner}/${repo.name}/issues/${i.number}`,
    number: i.number,
    state: i.state,
    title: i.title,
    body: "",
    user: creator,
    assignee: i.assigneeId ? userObject(base, s.userById(i.assigneeId)) : null,
    labels: i.labels.map((l) => ({ url: `${base}/repos/${repo.owner}/${repo.name}/labels/${encodeURIComponent(l.name)}`, name: l.name, color: l.color })),
    milestone: i.milestone ? milestoneObject(base, s, repo, i.milestone) : null,
    comments: 0,
    ...(i.pull ? { pull_request: { url: `${base}/repos/${repo.owner}/${repo.name}/pulls/${i.number}`, html_url: `https://indie.test/${repo.owner}/${repo.name}/pull/${i.number}`, diff_url: `https://indie.test/${repo.owner}/${repo.name}/pull/${i.number}.diff`, patch_url: `https://indie.test/${repo.owner}/${repo.name}/pull/${i.number}.patch` } } : {}),
    closed_at: i.closedAt ? iso(i.closedAt) : null,
    created_at: iso(i.createdAt),
    updated_at: iso(i.updatedAt),
  };
}

function milestoneObject(base: string, s: State, repo: Repo, m: { number: number; title: string }): Record<string, unknown> {
  const at = iso(new Date(Date.now() - 86_400_000));
  return { url: `${base}/repos/${repo.owner}/${repo.name}/milestones/${m.number}`, number: m.number, state: "open", title: m.title, description: "", creator: userObject(base, s.user(repo.owner)!), open_issues: 1, closed_issues: 0, created_at: at, updated_at: at, closed_at: null, due_on: null };
}

export function issueEventObject(base: string, s: State, e: IssueEvent, withIssue: boolean): Record<string, unknown> {
  const repo = s.repoById(e.repoId);
  const out: Record<string, unknown> = {
    id: e.id,
    url: `${base}/repos/${repo.owner}/${repo.name}/issues/events/${e.id}`,
    actor: userObject(base, s.userById(e.actorId)),
    event: e.event,
    created_at: iso(e.createdAt),
  };
  // commit_id only where it applies (this server leaves it out elsewhere rather than sending null).
  if (typeof e.extra.commit_id === "string") out.commit_id = e.extra.commit_id;
  if (e.extra.label) out.label = e.extra.label;
  if (typeof e.extra.assigneeId === "number") out.assignee = userObject(base, s.userById(e.extra.assigneeId));
  if (e.extra.milestone) out.milestone = e.extra.milestone;
  if (e.extra.rename) out.rename = e.extra.rename;
  if (withIssue) {
    const issue = s.issues.find((i) => i.repoId === e.repoId && i.number === e.issueNumber)!;
    out.issue = issueObject(base, s, issue);
  }
  return out;
}

/** This server's hook: the config without its secret and without content_type unless one was set. */
export function hookObject(base: string, s: State, h: Hook): Record<string, unknown> {
  const { secret: _secret, ...config } = h.config;
  const where = "repoId" in h.place ? (() => { const r = s.repoById((h.place as { repoId: number }).repoId); return `${base}/repos/${r.owner}/${r.name}/hooks/${h.id}`; })() : `${base}/orgs/${(h.place as { org: string }).org}/hooks/${h.id}`;
  return { id: h.id, url: where, ping_url: `${where}/pings`, name: h.name, events: h.events, active: h.active, config, created_at: iso(h.createdAt), updated_at: iso(h.updatedAt) };
}
