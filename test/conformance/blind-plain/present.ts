// present.ts — JSON representations: users, orgs, repositories, issues, pulls, milestones, issue events, activity events, hooks.
import type { World } from "./ctx.ts";
import { fullName, type ActivityEvent, type Hook, type Issue, type IssueEvent, type Repo } from "./store.ts";
import { iso } from "./util.ts";

export type Obj = Record<string, unknown>;

const avatar = (w: World, id: number): string => `${w.web}/avatars/u/${id}?v=3`;

function who(w: World, login: string): { name: string; id: number; org: boolean } {
  const u = w.store.user(login);
  const o = u ? undefined : w.store.org(login);
  return { name: u?.login ?? o?.login ?? login, id: u?.id ?? o?.id ?? 0, org: o !== undefined };
}

export function userObj(w: World, login: string): Obj {
  const { name, id, org } = who(w, login);
  const base = `${w.api}/users/${name}`;
  return {
    login: name, id, avatar_url: avatar(w, id), gravatar_id: "", url: base, html_url: `${w.web}/${name}`,
    followers_url: `${base}/followers`, following_url: `${base}/following{/other_user}`, gists_url: `${base}/gists{/gist_id}`,
    starred_url: `${base}/starred{/owner}{/repo}`, subscriptions_url: `${base}/subscriptions`, organizations_url: `${base}/orgs`,
    repos_url: `${base}/repos`, events_url: `${base}/events{/privacy}`, received_events_url: `${base}/received_events`,
    type: org ? "Organization" : "User", site_admin: false,
  };
}

export function actorObj(w: World, login: string): Obj {
  const { name, id } = who(w, login);
  return { id, login: name, gravatar_id: "", url: `${w.api}/users/${name}`, avatar_url: avatar(w, id) };
}

export function orgShort(w: World, login: string): Obj {
  const { name, id } = who(w, login);
  return { id, login: name, gravatar_id: "", url: `${w.api}/orgs/${name}`, avatar_url: avatar(w, id) };
}

export function orgObj(w: World, login: string): Obj {
  const { name, id } = who(w, login);
  const base = `${w.api}/orgs/${name}`;
  return {
    login: name, id, url: base, repos_url: `${base}/repos`, events_url: `${base}/events`, hooks_url: `${base}/hooks`,
    issues_url: `${base}/issues`, members_url: `${base}/members{/member}`, public_members_url: `${base}/public_members{/member}`,
    avatar_url: avatar(w, id), description: "",
  };
}

export const repoShort = (w: World, r: Repo): Obj => ({ id: r.id, name: fullName(r), url: `${w.api}/repos/${fullName(r)}` });

export function repoFull(w: World, r: Repo): Obj {
  const full = fullName(r);
  const base = `${w.api}/repos/${full}`;
  const host = new URL(w.web).host;
  const forks = [...w.store.repos.values()].filter((x) => x.forkOf === full).length;
  const open = w.store.issuesOf(full).filter((i) => i.state === "open").length;
  return {
    id: r.id, name: r.name, full_name: full, owner: userObj(w, r.owner), private: r.private, html_url: `${w.web}/${full}`,
    description: r.description, fork: r.forkOf !== undefined, url: base, forks_url: `${base}/forks`, hooks_url: `${base}/hooks`,
    events_url: `${base}/events`, issue_events_url: `${base}/issues/events{/number}`, issues_url: `${base}/issues{/number}`,
    pulls_url: `${base}/pulls{/number}`, git_url: `git://${host}/${full}.git`, ssh_url: `git@${host}:${full}.git`,
    clone_url: `${w.web}/${full}.git`, homepage: null, size: 0, stargazers_count: 0, watchers_count: 0, language: null,
    has_issues: true, has_wiki: true, forks_count: forks, open_issues_count: open, default_branch: "master",
    created_at: iso(r.createdAt), updated_at: iso(r.createdAt), pushed_at: iso(r.createdAt),
  };
}

export function labelObj(w: World, repo: string, name: string): Obj {
  return { url: `${w.api}/repos/${repo}/labels/${encodeURIComponent(name)}`, name, color: w.store.labelColors.get(name) ?? "ededed" };
}

export function milestoneObj(w: World, repo: string, n: number): Obj | null {
  const m = w.store.milestone(repo, n);
  if (!m) return null;
  const issues = w.store.issuesOf(repo).filter((i) => i.milestone === n);
  return {
    url: `${w.api}/repos/${repo}/milestones/${n}`, number: n, state: m.state, title: m.title, description: m.description,
    creator: userObj(w, m.creator), open_issues: issues.filter((i) => i.state === "open").length,
    closed_issues: issues.filter((i) => i.state === "closed").length, created_at: iso(m.createdAt), updated_at: iso(m.createdAt),
    closed_at: null, due_on: m.dueOn ? iso(m.dueOn) : null,
  };
}

export function issueObj(w: World, i: Issue): Obj {
  const base = `${w.api}/repos/${i.repo}`;
  const out: Obj = {
    id: i.id, url: `${base}/issues/${i.number}`, html_url: `${w.web}/${i.repo}/${i.isPull ? "pull" : "issues"}/${i.number}`,
    number: i.number, state: i.state, title: i.title, body: i.body, user: userObj(w, i.user),
    labels: i.labels.map((l) => labelObj(w, i.repo, l)), assignee: i.assignee ? userObj(w, i.assignee) : null,
    milestone: i.milestone === null ? null : milestoneObj(w, i.repo, i.milestone), locked: i.locked, comments: i.comments,
    closed_at: i.closedAt ? iso(i.closedAt) : null, created_at: iso(i.createdAt), updated_at: iso(i.updatedAt),
  };
  if (i.isPull) {
    const html = `${w.web}/${i.repo}/pull/${i.number}`;
    out.pull_request = { url: `${base}/pulls/${i.number}`, html_url: html, diff_url: `${html}.diff`, patch_url: `${html}.patch` };
  }
  return out;
}

export function pullObj(w: World, i: Issue): Obj {
  const r = w.store.repo(i.repo);
  const repo = r ? repoFull(w, r) : null;
  const html = `${w.web}/${i.repo}/pull/${i.number}`;
  const owner = r?.owner ?? "";
  return {
    url: `${w.api}/repos/${i.repo}/pulls/${i.number}`, id: i.id, html_url: html, diff_url: `${html}.diff`, patch_url: `${html}.patch`,
    issue_url: `${w.api}/repos/${i.repo}/issues/${i.number}`, number: i.number, state: i.state, locked: i.locked, title: i.title,
    user: userObj(w, i.user), body: i.body, created_at: iso(i.createdAt), updated_at: iso(i.updatedAt),
    closed_at: i.closedAt ? iso(i.closedAt) : null, merged_at: i.merged && i.closedAt ? iso(i.closedAt) : null,
    merge_commit_sha: i.mergeSha, assignee: i.assignee ? userObj(w, i.assignee) : null,
    milestone: i.milestone === null ? null : milestoneObj(w, i.repo, i.milestone),
    head: { label: `${owner}:${i.headRef}`, ref: i.headRef, sha: r?.heads.get(`refs/heads/${i.headRef}`) ?? "0".repeat(40), user: userObj(w, i.user), repo },
    base: { label: `${owner}:master`, ref: "master", sha: r?.heads.get("refs/heads/master") ?? "0".repeat(40), user: userObj(w, owner), repo },
    merged: i.merged, mergeable: null, comments: i.comments, commits: 1, additions: 1, deletions: 0, changed_files: 1,
  };
}

export function issueEventObj(w: World, e: IssueEvent, withIssue: boolean): Obj {
  const out: Obj = { id: e.id, url: `${w.api}/repos/${e.repo}/issues/events/${e.id}`, actor: userObj(w, e.actor), event: e.event };
  if (e.commitId !== undefined) out.commit_id = e.commitId;
  out.created_at = iso(e.createdAt);
  if (e.label) out.label = { name: e.label.name, color: e.label.color };
  if (e.assignee !== undefined) out.assignee = userObj(w, e.assignee);
  if (e.milestone !== undefined) out.milestone = { title: e.milestone };
  if (e.rename) out.rename = { from: e.rename.from, to: e.rename.to };
  if (withIssue) {
    const i = w.store.issue(e.repo, e.issue);
    if (i) out.issue = issueObj(w, i);
  }
  return out;
}

export function activityObj(w: World, e: ActivityEvent): Obj {
  const r = w.store.repo(e.repo);
  const out: Obj = {
    id: e.id, type: e.type, actor: actorObj(w, e.actor),
    repo: r ? repoShort(w, r) : { id: 0, name: e.repo, url: `${w.api}/repos/${e.repo}` },
    payload: e.payload, public: e.public, created_at: iso(e.createdAt),
  };
  if (e.org) out.org = orgShort(w, e.org);
  return out;
}

export function hookObj(w: World, h: Hook): Obj {
  const base = h.scope === "repo" ? `${w.api}/repos/${h.target}/hooks/${h.id}` : `${w.api}/orgs/${h.target}/hooks/${h.id}`;
  const config: Record<string, string> = { ...h.config };
  if (config.secret !== undefined) config.secret = "********";
  const out: Obj = { id: h.id, url: base };
  if (h.scope === "repo") out.test_url = `${base}/tests`;
  Object.assign(out, {
    ping_url: `${base}/pings`, name: h.name, events: [...h.events], active: h.active, config,
    updated_at: iso(h.updatedAt), created_at: iso(h.createdAt),
  });
  return out;
}
