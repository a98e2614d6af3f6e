/**
 * The objects every webhook payload wraps its event in — `repository`, `organization` and
 * `sender` — read inside the caller's transaction, so a payload built while an action runs shows
 * the repository as that action left it (a push's `pushed_at`, a new issue in the open-issue
 * count, a repository just made public). The ping payload uses the same three builders. The
 * push webhook's legacy repository form (Git-identity owner, epoch timestamps) lives here too,
 * beside the form it is derived from.
 */
import type { components } from "../../generated/types.ts";
import type { Queryable } from "../db/database.ts";
import type { Urls } from "../context.ts";
import { accountById, repoById, repoCounts } from "../domain/load.ts";
import { repositoryJson, type RepoRow } from "../serialize/repository.ts";
import { userJson, type UserJson } from "../serialize/user.ts";
import { nodeId } from "../serialize/node-id.ts";

export type RepositoryJson = ReturnType<typeof repositoryJson>;
export type OrganizationJson = components["schemas"]["Organization"];
export type PushRepositoryJson = components["schemas"]["PushWebhookPayload_pushRepository"];

/** The full Repository object, counts included, for a repository row already loaded. */
export async function repositoryOf(tx: Queryable, urls: Urls, repo: RepoRow): Promise<RepositoryJson> {
  return repositoryJson(repo, urls, await repoCounts(tx, repo.id));
}

export async function webhookRepository(tx: Queryable, urls: Urls, repoId: number): Promise<RepositoryJson> {
  const repo = await repoById(tx, repoId);
  if (!repo) throw new Error(`webhookRepository: no repository ${repoId}`);
  return repositoryOf(tx, urls, repo);
}

/** The short organization form webhook payloads carry; the accounts table has no description, hence null. */
export function organizationJson(org: { id: number; login: string }, urls: Urls): OrganizationJson {
  const base = `${urls.api}/orgs/${org.login}`;
  return {
    login: org.login,
    id: org.id,
    // Beyond the seed (D-WEBHOOK-NODE-ID).
    node_id: nodeId("Organization", org.id),
    url: base,
    repos_url: `${base}/repos`,
    events_url: `${base}/events`,
    hooks_url: `${base}/hooks`,
    issues_url: `${base}/issues`,
    members_url: `${base}/members{/member}`,
    public_members_url: `${base}/public_members{/member}`,
    avatar_url: `${urls.api}/avatars/${org.id}`,
    description: null,
  };
}

export async function webhookOrganization(tx: Queryable, urls: Urls, orgId: number): Promise<OrganizationJson> {
  const org = await accountById(tx, orgId);
  if (!org) throw new Error(`webhookOrganization: no account ${orgId}`);
  return organizationJson(org, urls);
}

export async function webhookSender(tx: Queryable, urls: Urls, accountId: number): Promise<UserJson> {
  const account = await accountById(tx, accountId);
  if (!account) throw new Error(`webhookSender: no account ${accountId}`);
  return userJson(account, urls);
}

function epochSeconds(value: Date | string): number {
  return Math.floor(new Date(value).getTime() / 1000);
}

/**
 * The repository as the push webhook sends it (spec/DECISIONS.md "Schemas"): the owner as a Git
 * identity, `url` the web address, `created_at` / `pushed_at` in epoch seconds, plus
 * `stargazers`, `master_branch` and, for an organization's repository, `organization` (its login).
 */
export async function pushRepository(tx: Queryable, urls: Urls, repo: RepoRow, known?: { id: number; email: string | null }): Promise<PushRepositoryJson> {
  const full = await repositoryOf(tx, urls, repo);
  // The pusher is often the owner, read already (pushPayload): not read twice.
  const owner = known?.id === repo.owner_id ? known : await accountById(tx, repo.owner_id);
  return {
    ...full,
    owner: { name: repo.owner_login, email: owner?.email ?? null },
    url: full.html_url,
    created_at: epochSeconds(repo.created_at),
    // A push sets pushed_at in the same transaction; the fallback only guards a row without one.
    pushed_at: epochSeconds(repo.pushed_at ?? repo.updated_at),
    stargazers: full.stargazers_count,
    master_branch: repo.default_branch,
    ...(repo.owner_type === "Organization" ? { organization: repo.owner_login } : {}),
  };
}
