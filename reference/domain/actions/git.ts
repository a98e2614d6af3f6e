/**
 * Git-side events: push (commits, with `#N` references in messages becoming `referenced` issue
 * events and "fixes #N" closing the issue with the commit's SHA), create and delete of branches
 * and tags. Ref heads live in git_refs so a push knows its `before`.
 */
import type { Account } from "../../store/accounts.ts";
import type { RepoRow } from "../../serialize/repository.ts";
import { repoApiUrl } from "../../serialize/repository.ts";
import { DomainError } from "../context.ts";
import { issueJsonOf } from "../load.ts";
import type { IssueRow } from "../../serialize/issue.ts";
import { fakeSha, recordActivity, recordIssueEvent, sequenceNumber, type Act } from "../record.ts";
import { intParam, oneOf } from "../params.ts";

const ZERO = "0".repeat(40);

export async function head(a: Act, repoId: number, ref: string): Promise<string | undefined> {
  return (await a.tx.query<{ sha: string }>("select sha from git_refs where repo_id = $1 and ref = $2", [repoId, ref]))[0]?.sha;
}

async function setHead(a: Act, repoId: number, ref: string, sha: string): Promise<void> {
  await a.tx.query("insert into git_refs (repo_id, ref, sha) values ($1, $2, $3) on conflict (repo_id, ref) do update set sha = excluded.sha", [repoId, ref, sha]);
}

/** The events API shows at most this many commits of a push (`size` gives the count). */
const FEED_COMMITS = 20;

export async function push(a: Act, repo: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  const branch = params.ref ?? params.branch ?? repo.default_branch;
  const ref = branch.startsWith("refs/") ? branch : `refs/heads/${branch}`;
  const size = intParam(params, "commits", 1);
  if (size > 1000) throw new DomainError("invalid", "commits must be at most 1000");
  const before = (await head(a, repo.id, ref)) ?? ZERO;
  // push_id is a sequence number: in every SHA of the push, it makes them unique (newCommitSha).
  const pushId = await sequenceNumber(a);
  const commits = [];
  let parent = before;
  for (let i = 0; i < size; i++) {
    const message = params.message ?? `Update ${branch} (${i + 1}/${size})`;
    const sha = fakeSha(repo.id, ref, parent, message, a.at.toISOString(), i, pushId);
    commits.push({ sha, message, author: { name: actor.name ?? actor.login, email: actor.email ?? `${actor.login}@users.noreply.local` }, url: `${repoApiUrl(repo, a.ctx.urls)}/commits/${sha}`, distinct: true });
    parent = sha;
  }
  await setHead(a, repo.id, ref, parent);
  await a.tx.query("update repositories set pushed_at = $2, updated_at = $2 where id = $1", [repo.id, a.at.toISOString()]);
  await recordActivity(a, {
    type: "PushEvent",
    actor,
    repo,
    payload: { push_id: pushId, size, distinct_size: size, ref, head: parent, before, commits: commits.slice(-FEED_COMMITS) },
    // The feed's list is capped; the push webhook carries every commit (reference/webhooks/push.ts).
    ...(commits.length > FEED_COMMITS ? { detail: { commits } } : {}),
  });
  for (const c of commits) await references(a, repo, actor, c.sha, c.message);
}

/** `#N` in a commit message: `referenced`; "fixes/closes/resolves #N": also closed by that commit. */
async function references(a: Act, repo: RepoRow, actor: Account, sha: string, message: string): Promise<void> {
  for (const m of message.matchAll(/(?:\b(fix(?:e[sd])?|close[sd]?|resolve[sd]?)\s+)?#(\d+)\b/gi)) {
    const [issue] = await a.tx.query<IssueRow>("select * from issues where repo_id = $1 and number = $2", [repo.id, Number(m[2])]);
    if (!issue) continue;
    await recordIssueEvent(a, { repo, issue, actor, event: "referenced", commitId: sha });
    if (m[1] && issue.state === "open" && !issue.pull_request) {
      await a.tx.query("update issues set state = 'closed', closed_at = $2, updated_at = $2 where id = $1", [issue.id, a.at.toISOString()]);
      await recordIssueEvent(a, { repo, issue, actor, event: "closed", commitId: sha });
      await recordActivity(a, { type: "IssuesEvent", actor, repo, payload: { action: "closed", issue: await issueJsonOf(a.tx, issue, repo, a.ctx.urls) } });
    }
  }
}

/** Who pushed a ref: a user, or a deploy key (the seed's `pusher_type` values). */
const PUSHER_TYPES = ["user", "deploy_key"] as const;

export async function createRef(a: Act, repo: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  const refType = oneOf(params, "ref_type", ["branch", "tag"] as const, "branch");
  const pusherType = oneOf(params, "pusher_type", PUSHER_TYPES, "user");
  const [{ n }] = (await a.tx.query<{ n: number }>("select count(*)::int as n from git_refs where repo_id = $1", [repo.id])) as [{ n: number }];
  const name = params.ref ?? (refType === "tag" ? `v1.${n}.0` : `topic-${n + 1}`);
  const full = `refs/${refType === "tag" ? "tags" : "heads"}/${name}`;
  if (await head(a, repo.id, full)) throw new DomainError("invalid", `${refType} "${name}" already exists`);
  const base = (await head(a, repo.id, `refs/heads/${repo.default_branch}`)) ?? fakeSha(repo.id, "initial");
  await setHead(a, repo.id, full, base);
  await recordActivity(a, { type: "CreateEvent", actor, repo, payload: { ref: name, ref_type: refType, master_branch: repo.default_branch, description: repo.description, pusher_type: pusherType } });
}

export async function deleteRef(a: Act, repo: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  const refType = oneOf(params, "ref_type", ["branch", "tag"] as const, "branch");
  const pusherType = oneOf(params, "pusher_type", PUSHER_TYPES, "user");
  const prefix = `refs/${refType === "tag" ? "tags" : "heads"}/`;
  let name = params.ref;
  if (name === undefined) {
    // Without ref=, the newest other branch (or tag): simulate works without knowing names.
    const rows = await a.tx.query<{ ref: string }>("select ref from git_refs where repo_id = $1 and ref like $2 and ref <> $3 order by ref desc limit 1", [repo.id, `${prefix}%`, `refs/heads/${repo.default_branch}`]);
    if (!rows[0]) throw new DomainError("invalid", `no ${refType} to delete; give ref=NAME`);
    name = rows[0].ref.slice(prefix.length);
  }
  if (refType === "branch" && name === repo.default_branch) throw new DomainError("invalid", "cannot delete the default branch");
  const gone = await a.tx.query("delete from git_refs where repo_id = $1 and ref = $2 returning ref", [repo.id, prefix + name]);
  if (gone.length === 0) throw new DomainError("invalid", `no ${refType} "${name}"`);
  await recordActivity(a, { type: "DeleteEvent", actor, repo, payload: { ref: name, ref_type: refType, pusher_type: pusherType } });
}
