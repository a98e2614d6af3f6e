/** Watch (star) and fork: events on the source repository, by the acting user. */
import type { Account } from "../../store/accounts.ts";
import { REPO_COLUMNS, repositoryJson, type RepoRow } from "../../serialize/repository.ts";
import { DomainError } from "../context.ts";
import { repoCounts } from "../load.ts";
import { recordActivity, type Act } from "../record.ts";

export async function watch(a: Act, repo: RepoRow, actor: Account): Promise<void> {
  const added = await a.tx.query("insert into watches (user_id, repo_id) values ($1, $2) on conflict do nothing returning repo_id", [actor.id, repo.id]);
  if (added.length === 0) throw new DomainError("invalid", `${actor.login} already watches this repository`);
  await recordActivity(a, { type: "WatchEvent", actor, repo, payload: { action: "started" } });
}

export async function fork(a: Act, repo: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  if (actor.id === repo.owner_id) throw new DomainError("invalid", "an account cannot fork its own repository");
  const name = params.name ?? repo.name;
  const taken = await a.tx.query("select 1 from repositories where owner_id = $1 and lower(name) = lower($2)", [actor.id, name]);
  if (taken.length > 0) throw new DomainError("invalid", `${actor.login}/${name} already exists`);
  const at = a.at.toISOString();
  const [{ id }] = (await a.tx.query<{ id: number }>(
    "insert into repositories (owner_id, name, description, private, default_branch, fork_of, created_at, updated_at, pushed_at) values ($1, $2, $3, $4, $5, $6, $7, $7, $7) returning id",
    [actor.id, name, repo.description, repo.private, repo.default_branch, repo.id, at],
  )) as [{ id: number }];
  await a.tx.query("insert into git_refs (repo_id, ref, sha) select $1, ref, sha from git_refs where repo_id = $2", [id, repo.id]);
  const [forkRow] = await a.tx.query<RepoRow>(`select ${REPO_COLUMNS} from repositories r join accounts o on o.id = r.owner_id where r.id = $1`, [id]);
  const forkee = { ...repositoryJson(forkRow!, a.ctx.urls, await repoCounts(a.tx, id)), public: !forkRow!.private };
  await recordActivity(a, { type: "ForkEvent", actor, repo, payload: { forkee } });
}
