/**
 * The seed's Repository object (as in fork `forkee`, pull request `head.repo`, team_add and
 * repository payloads) and the short `repo` of activity events, built from a repository row
 * joined with its owner. Every URL template the contract describes is sent (the era's API sent
 * them all, and receivers typed from the counterpart's schemas expect them: D-WEBHOOK-NODE-ID),
 * including those of resource families outside the seed's scope, which this server does not serve.
 */
import type { Urls } from "../context.ts";
import { userJson } from "./user.ts";
import { nodeId } from "./node-id.ts";
import { iso, isoRequired } from "./time.ts";

export interface RepoRow {
  id: number;
  name: string;
  description: string | null;
  private: boolean;
  fork_of: number | null;
  default_branch: string;
  created_at: string | Date;
  updated_at: string | Date;
  pushed_at: string | Date | null;
  owner_id: number;
  owner_login: string;
  owner_type: "User" | "Organization";
  owner_site_admin: boolean;
}

/** The select list (over `repositories r join accounts o on o.id = r.owner_id`) a RepoRow needs. */
export const REPO_COLUMNS =
  "r.id, r.name, r.description, r.private, r.fork_of, r.default_branch, r.created_at, r.updated_at, r.pushed_at, o.id as owner_id, o.login as owner_login, o.type as owner_type, o.site_admin as owner_site_admin";

export function fullName(repo: Pick<RepoRow, "owner_login" | "name">): string {
  return `${repo.owner_login}/${repo.name}`;
}

export function repoApiUrl(repo: Pick<RepoRow, "owner_login" | "name">, urls: Urls): string {
  return `${urls.api}/repos/${fullName(repo)}`;
}

export function repoHtmlUrl(repo: Pick<RepoRow, "owner_login" | "name">, urls: Urls): string {
  return `${urls.auth}/${fullName(repo)}`;
}

export function eventRepoJson(repo: RepoRow, urls: Urls): { id: number; name: string; url: string } {
  return { id: repo.id, name: fullName(repo), url: repoApiUrl(repo, urls) };
}

export function repositoryJson(repo: RepoRow, urls: Urls, counts: { forks?: number; watchers?: number; open_issues?: number } = {}) {
  const url = repoApiUrl(repo, urls);
  const html = repoHtmlUrl(repo, urls);
  const host = new URL(urls.auth).host;
  const owner = userJson({ id: repo.owner_id, login: repo.owner_login, type: repo.owner_type, site_admin: repo.owner_site_admin }, urls);
  return {
    id: repo.id,
    // Beyond the seed (D-WEBHOOK-NODE-ID).
    node_id: nodeId("Repository", repo.id),
    name: repo.name,
    full_name: fullName(repo),
    owner,
    private: repo.private,
    html_url: html,
    description: repo.description,
    fork: repo.fork_of !== null,
    url,
    forks_url: `${url}/forks`,
    keys_url: `${url}/keys{/key_id}`,
    collaborators_url: `${url}/collaborators{/collaborator}`,
    teams_url: `${url}/teams`,
    hooks_url: `${url}/hooks`,
    issue_events_url: `${url}/issues/events{/number}`,
    events_url: `${url}/events`,
    assignees_url: `${url}/assignees{/user}`,
    branches_url: `${url}/branches{/branch}`,
    tags_url: `${url}/tags`,
    blobs_url: `${url}/git/blobs{/sha}`,
    git_tags_url: `${url}/git/tags{/sha}`,
    git_refs_url: `${url}/git/refs{/sha}`,
    trees_url: `${url}/git/trees{/sha}`,
    statuses_url: `${url}/statuses/{sha}`,
    languages_url: `${url}/languages`,
    stargazers_url: `${url}/stargazers`,
    contributors_url: `${url}/contributors`,
    subscribers_url: `${url}/subscribers`,
    subscription_url: `${url}/subscription`,
    commits_url: `${url}/commits{/sha}`,
    git_commits_url: `${url}/git/commits{/sha}`,
    comments_url: `${url}/comments{/number}`,
    issue_comment_url: `${url}/issues/comments{/number}`,
    contents_url: `${url}/contents/{+path}`,
    compare_url: `${url}/compare/{base}...{head}`,
    merges_url: `${url}/merges`,
    archive_url: `${url}/{archive_format}{/ref}`,
    downloads_url: `${url}/downloads`,
    issues_url: `${url}/issues{/number}`,
    pulls_url: `${url}/pulls{/number}`,
    milestones_url: `${url}/milestones{/number}`,
    notifications_url: `${url}/notifications{?since,all,participating}`,
    labels_url: `${url}/labels{/name}`,
    releases_url: `${url}/releases{/id}`,
    deployments_url: `${url}/deployments`,
    created_at: isoRequired(repo.created_at),
    updated_at: isoRequired(repo.updated_at),
    pushed_at: iso(repo.pushed_at),
    git_url: `git://${host}/${fullName(repo)}.git`,
    ssh_url: `git@${host.replace(/:\d+$/, "")}:${fullName(repo)}.git`,
    clone_url: `${html}.git`,
    svn_url: html,
    homepage: null,
    size: 0,
    stargazers_count: counts.watchers ?? 0,
    watchers_count: counts.watchers ?? 0,
    language: null,
    has_issues: true,
    has_downloads: true,
    has_wiki: true,
    has_pages: false,
    // Later fields, sent with what holds for every repository of this server, which has none of
    // those features (D-WEBHOOK-NODE-ID): receivers typed from the counterpart's schemas need them.
    has_projects: false,
    archived: false,
    is_template: false,
    license: null,
    topics: [] as string[],
    visibility: repo.private ? "private" : "public",
    web_commit_signoff_required: false,
    custom_properties: {},
    forks_count: counts.forks ?? 0,
    mirror_url: null,
    open_issues_count: counts.open_issues ?? 0,
    forks: counts.forks ?? 0,
    open_issues: counts.open_issues ?? 0,
    watchers: counts.watchers ?? 0,
    default_branch: repo.default_branch,
  };
}
