/**
 * Repository administration: member (collaborator added to a user's repository — the seed's
 * member event is for non-organization repositories only), public (private → public),
 * repository (a new repository beside --repo, with its CreateEvent), and the organization's
 * teams: team_add (repository added to a team) and membership (user added/removed).
 */
import type { Account } from "../../store/accounts.ts";
import { REPO_COLUMNS, repositoryJson, type RepoRow } from "../../serialize/repository.ts";
import { userJson } from "../../serialize/user.ts";
import { nodeId } from "../../serialize/node-id.ts";
import { DomainError } from "../context.ts";
import { accountByLogin, repoCounts } from "../load.ts";
import { oneOf } from "../params.ts";
import { recordActivity, type Act } from "../record.ts";

export async function member(a: Act, repo: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  if (!params.user) throw new DomainError("invalid", "member needs user=LOGIN");
  if (repo.owner_type === "Organization") throw new DomainError("invalid", `member is for repositories of a user: ${repo.owner_login}/${repo.name} belongs to an organization`);
  const user = await accountByLogin(a.tx, params.user);
  if (user.type !== "User" || user.id === repo.owner_id) throw new DomainError("invalid", `${user.login} cannot be added as a collaborator`);
  const added = await a.tx.query("insert into collaborators (repo_id, user_id, permission) values ($1, $2, 'push') on conflict do nothing returning user_id", [repo.id, user.id]);
  if (added.length === 0) throw new DomainError("invalid", `${user.login} is already a collaborator`);
  await recordActivity(a, { type: "MemberEvent", actor, repo, payload: { member: userJson(user, a.ctx.urls), action: "added" } });
}

export async function makePublic(a: Act, repo: RepoRow, actor: Account): Promise<void> {
  if (!repo.private) throw new DomainError("invalid", "the repository is already public");
  await a.tx.query("update repositories set private = false, updated_at = $2 where id = $1", [repo.id, a.at.toISOString()]);
  await recordActivity(a, { type: "PublicEvent", actor, repo: { ...repo, private: false }, payload: {} });
}

export async function createRepository(a: Act, beside: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  const name = params.name;
  if (!name || !/^[A-Za-z0-9._-]{1,100}$/.test(name)) throw new DomainError("invalid", "repository needs name=NAME (letters, digits, . _ -)");
  const taken = await a.tx.query("select 1 from repositories where owner_id = $1 and lower(name) = lower($2)", [beside.owner_id, name]);
  if (taken.length > 0) throw new DomainError("invalid", `${beside.owner_login}/${name} already exists`);
  const at = a.at.toISOString();
  const [{ id }] = (await a.tx.query<{ id: number }>(
    "insert into repositories (owner_id, name, description, private, created_at, updated_at) values ($1, $2, $3, $4, $5, $5) returning id",
    [beside.owner_id, name, params.description ?? null, params.private === "true", at],
  )) as [{ id: number }];
  const [repo] = await a.tx.query<RepoRow>(`select ${REPO_COLUMNS} from repositories r join accounts o on o.id = r.owner_id where r.id = $1`, [id]);
  await recordActivity(a, { type: "CreateEvent", actor, repo: repo!, payload: { ref: null, ref_type: "repository", master_branch: repo!.default_branch, description: repo!.description, pusher_type: "user" } });
  // The service records RepositoryEvent for repositories created in an organization.
  if (repo!.owner_type === "Organization") {
    await recordActivity(a, { type: "RepositoryEvent", actor, repo: repo!, payload: { action: "created", repository: repositoryJson(repo!, a.ctx.urls, await repoCounts(a.tx, id)) } });
  }
}

async function team(a: Act, repo: RepoRow, name: string) {
  if (repo.owner_type !== "Organization") throw new DomainError("invalid", "teams exist only in organizations: use an organization's repository");
  const slug = name.toLowerCase().replace(/[^a-z0-9._-]+/g, "-");
  await a.tx.query("insert into teams (org_id, name, slug) values ($1, $2, $3) on conflict (org_id, slug) do nothing", [repo.owner_id, name, slug]);
  const [t] = await a.tx.query<{ id: number; name: string; slug: string; permission: "pull" | "push" | "admin" }>("select id, name, slug, permission from teams where org_id = $1 and slug = $2", [repo.owner_id, slug]);
  const url = `${a.ctx.urls.api}/teams/${t!.id}`;
  return { row: t!, json: { name: t!.name, id: t!.id, node_id: nodeId("Team", t!.id), slug: t!.slug, description: null, permission: t!.permission, url, members_url: `${url}/members{/member}`, repositories_url: `${url}/repos` } };
}

export async function teamAdd(a: Act, repo: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  const t = await team(a, repo, params.team ?? "Developers");
  const added = await a.tx.query("insert into team_repos (team_id, repo_id) values ($1, $2) on conflict do nothing returning repo_id", [t.row.id, repo.id]);
  if (added.length === 0) throw new DomainError("invalid", `the repository is already in team ${t.row.name}`);
  await recordActivity(a, { type: "TeamAddEvent", actor, repo, payload: { team: t.json, repository: repositoryJson(repo, a.ctx.urls, await repoCounts(a.tx, repo.id)) } });
}

export async function membership(a: Act, repo: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  const action = oneOf(params, "action", ["added", "removed"] as const, "added");
  if (!params.user) throw new DomainError("invalid", "membership needs user=LOGIN");
  const user = await accountByLogin(a.tx, params.user);
  const t = await team(a, repo, params.team ?? "Developers");
  const changed =
    action === "added"
      ? await a.tx.query("insert into team_members (team_id, user_id) values ($1, $2) on conflict do nothing returning user_id", [t.row.id, user.id])
      : await a.tx.query("delete from team_members where team_id = $1 and user_id = $2 returning user_id", [t.row.id, user.id]);
  if (changed.length === 0) throw new DomainError("invalid", `${user.login} is ${action === "added" ? "already" : "not"} in team ${t.row.name}`);
  await recordActivity(a, { type: "MembershipEvent", actor, repo, payload: { action, scope: "team", member: userJson(user, a.ctx.urls), team: t.json } });
}
