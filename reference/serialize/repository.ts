/**
 * The seed's Repository object (as in fork `forkee`, pull request `head.repo`, team_add and
 * repository payloads) and the short `repo` of activity events, built from a repository row
 * joined with its owner. Only the URLs a client follows are included; the rest are optional.
 */
import type { Urls } from "../context.ts";
import { userJson } from "./user.ts";
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
    name: repo.name,
    full_name: fullName(repo),
    owner,
    private: repo.private,
    html_url: html,
    description: repo.description,
    fork: repo.fork_of !== null,
    url,
    forks_url: `${url}/forks`,
    events_url: `${url}/events`,
    issue_events_url: `${url}/issues/events{/number}`,
    issues_url: `${url}/issues{/number}`,
    pulls_url: `${url}/pulls{/number}`,
    labels_url: `${url}/labels{/name}`,
    milestones_url: `${url}/milestones{/number}`,
    commits_url: `${url}/commits{/sha}`,
    statuses_url: `${url}/statuses/{sha}`,
    hooks_url: `${url}/hooks`,
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
    forks_count: counts.forks ?? 0,
    mirror_url: null,
    open_issues_count: counts.open_issues ?? 0,
    forks: counts.forks ?? 0,
    open_issues: counts.open_issues ?? 0,
    watchers: counts.watchers ?? 0,
    default_branch: repo.default_branch,
  };
}
