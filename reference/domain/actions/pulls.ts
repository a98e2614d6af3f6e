/**
 * Pull requests: an issue row with pull_request = true plus its branch state (pull_requests).
 * Opening, closing, reopening, merging and synchronizing (a new push to the head branch);
 * merging records the `merged` issue event (commit_id = the head SHA) and `closed`, and a
 * PullRequestEvent "closed" with merged true. Assigning and labeling go through the issue side
 * (actions/issues.ts), which records them as a PullRequestEvent for a pull request.
 */
import type { Account } from "../../store/accounts.ts";
import type { IssueRow } from "../../serialize/issue.ts";
import { repositoryJson, type RepoRow } from "../../serialize/repository.ts";
import { userJson } from "../../serialize/user.ts";
import { nodeId } from "../../serialize/node-id.ts";
import { iso } from "../../serialize/time.ts";
import { DomainError, type Json } from "../context.ts";
import { accountById, issueByNumber, issueJsonOf, repoById, repoCounts } from "../load.ts";
import { fakeSha, newCommitSha, recordActivity, recordIssueEvent, type Act } from "../record.ts";
import { changeIssue, openIssue, recordMentions, type IssueAction } from "./issues.ts";
import { head as branchHead } from "./git.ts";

interface PullRow {
  issue_id: number;
  head_repo_id: number | null;
  head_ref: string;
  head_sha: string;
  base_ref: string;
  base_sha: string;
  merged_at: string | Date | null;
  merged_by_id: number | null;
  merge_commit_sha: string | null;
}

async function pullOf(a: Act, issue: IssueRow): Promise<PullRow> {
  const [row] = await a.tx.query<PullRow>("select * from pull_requests where issue_id = $1", [issue.id]);
  if (!row) throw new DomainError("invalid", `#${issue.number} is not a pull request`);
  return row;
}

async function branch(a: Act, repoId: number | null, ref: string, sha: string) {
  const repo = repoId === null ? null : await repoById(a.tx, repoId);
  const owner = repo ? await accountById(a.tx, repo.owner_id) : undefined;
  return {
    label: `${repo?.owner_login ?? "unknown"}:${ref}`,
    ref,
    sha,
    user: owner ? userJson(owner, a.ctx.urls) : null,
    repo: repo ? repositoryJson(repo, a.ctx.urls, await repoCounts(a.tx, repo.id)) : null,
  };
}

/** The pull_request event payload: action, number, pull_request as it is now. */
export async function pullRequestPayload(a: Act, repo: RepoRow, issue: IssueRow, action: string): Promise<Json> {
  const pr = await pullOf(a, issue);
  const i = await issueJsonOf(a.tx, issue, repo, a.ctx.urls);
  const url = `${a.ctx.urls.api}/repos/${repo.owner_login}/${repo.name}/pulls/${issue.number}`;
  const merged = pr.merged_at !== null;
  const pull_request = {
    id: i.id,
    node_id: nodeId("PullRequest", i.id),
    url,
    html_url: i.html_url,
    diff_url: `${i.html_url}.diff`,
    patch_url: `${i.html_url}.patch`,
    issue_url: i.url,
    number: i.number,
    state: i.state,
    locked: i.locked,
    title: i.title,
    user: i.user,
    body: i.body,
    created_at: i.created_at,
    updated_at: i.updated_at,
    closed_at: i.closed_at,
    merged_at: iso(pr.merged_at),
    merge_commit_sha: pr.merge_commit_sha,
    assignee: i.assignee,
    milestone: i.milestone,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${a.ctx.urls.api}/repos/${repo.owner_login}/${repo.name}/pulls/comments{/number}`,
    comments_url: i.comments_url,
    statuses_url: `${a.ctx.urls.api}/repos/${repo.owner_login}/${repo.name}/statuses/${pr.head_sha}`,
    head: await branch(a, pr.head_repo_id, pr.head_ref, pr.head_sha),
    base: await branch(a, repo.id, pr.base_ref, pr.base_sha),
    merged,
    mergeable: merged ? null : true,
    merged_by: pr.merged_by_id ? userJson(await accountById(a.tx, pr.merged_by_id), a.ctx.urls) : null,
    comments: i.comments,
    review_comments: 0,
    commits: 1,
    additions: 1,
    deletions: 0,
    changed_files: 1,
  };
  return { action, number: issue.number, pull_request };
}

export const PULL_ACTIONS = ["opened", "closed", "reopened", "merged", "synchronize", "assigned", "unassigned", "labeled", "unlabeled"] as const;

/** Actions a pull request shares with issues: the issue side records them (as a PullRequestEvent). */
const ISSUE_SIDE = new Set<string>(["assigned", "unassigned", "labeled", "unlabeled"]);

export async function changePull(a: Act, repo: RepoRow, actor: Account, action: (typeof PULL_ACTIONS)[number], params: Record<string, string>, number?: number): Promise<void> {
  if (action === "opened") {
    const issue = await openIssue(a, repo, actor, { title: params.title, body: params.body ?? null, pullRequest: true });
    const head = params.head ?? `feature-${issue.number}`;
    const base = params.base ?? repo.default_branch;
    // The base is where the branch is now (its last push or merge), as a receiver comparing the
    // pull request with the push events expects; a branch never pushed gets a stand-in commit.
    const baseSha = (await branchHead(a, repo.id, `refs/heads/${base}`)) ?? fakeSha(repo.id, base, a.at.toISOString());
    await a.tx.query(
      "insert into pull_requests (issue_id, head_repo_id, head_ref, head_sha, base_ref, base_sha) values ($1, $2, $3, $4, $5, $6)",
      [issue.id, repo.id, head, await newCommitSha(a, repo.id, head, issue.number), base, baseSha],
    );
    await recordActivity(a, { type: "PullRequestEvent", actor, repo, payload: await pullRequestPayload(a, repo, issue, "opened") });
    await recordMentions(a, repo, issue, issue.body);
    return;
  }
  const issue = await issueByNumber(a.tx, repo.id, number!);
  const pr = await pullOf(a, issue);
  const now = a.at.toISOString();
  if (ISSUE_SIDE.has(action)) {
    await changeIssue(a, repo, actor, action as IssueAction, params, issue.number);
    return;
  }
  if (action === "synchronize") {
    // A new push to the head branch: a new head SHA, on the pull request and on the branch.
    if (issue.state === "closed") throw new DomainError("invalid", `#${issue.number} is closed`);
    const head = await newCommitSha(a, "synchronize", pr.head_sha, now);
    await a.tx.query("update pull_requests set head_sha = $2 where issue_id = $1", [issue.id, head]);
    await a.tx.query("update issues set updated_at = $2 where id = $1", [issue.id, now]);
    if (pr.head_repo_id !== null) {
      await a.tx.query("insert into git_refs (repo_id, ref, sha) values ($1, $2, $3) on conflict (repo_id, ref) do update set sha = excluded.sha", [pr.head_repo_id, `refs/heads/${pr.head_ref}`, head]);
    }
    await recordActivity(a, { type: "PullRequestEvent", actor, repo, payload: await pullRequestPayload(a, repo, { ...issue, updated_at: now } as IssueRow, "synchronize") });
    return;
  }
  if (action === "reopened") {
    if (issue.state === "open" || pr.merged_at) throw new DomainError("invalid", `#${issue.number} cannot be reopened`);
    await a.tx.query("update issues set state = 'open', closed_at = null, updated_at = $2 where id = $1", [issue.id, now]);
    await recordIssueEvent(a, { repo, issue, actor, event: "reopened" });
  } else {
    if (issue.state === "closed") throw new DomainError("invalid", `#${issue.number} is already closed`);
    await a.tx.query("update issues set state = 'closed', closed_at = $2, updated_at = $2 where id = $1", [issue.id, now]);
    if (action === "merged") {
      const mergeSha = await newCommitSha(a, "merge", repo.id, issue.number, pr.head_sha);
      await a.tx.query("update pull_requests set merged_at = $2, merged_by_id = $3, merge_commit_sha = $4 where issue_id = $1", [issue.id, now, actor.id, mergeSha]);
      await a.tx.query("insert into git_refs (repo_id, ref, sha) values ($1, $2, $3) on conflict (repo_id, ref) do update set sha = excluded.sha", [repo.id, `refs/heads/${pr.base_ref}`, mergeSha]);
      await recordIssueEvent(a, { repo, issue, actor, event: "merged", commitId: pr.head_sha });
    }
    await recordIssueEvent(a, { repo, issue, actor, event: "closed" });
  }
  await recordActivity(a, { type: "PullRequestEvent", actor, repo, payload: await pullRequestPayload(a, repo, issue, action === "merged" ? "closed" : action) });
}

/** head_ref_deleted / head_ref_restored: the pull request's branch went away or came back. */
export async function headRef(a: Act, repo: RepoRow, actor: Account, number: number, kind: "head_ref_deleted" | "head_ref_restored"): Promise<void> {
  const issue = await issueByNumber(a.tx, repo.id, number);
  const pr = await pullOf(a, issue);
  const ref = `refs/heads/${pr.head_ref}`;
  if (kind === "head_ref_deleted") await a.tx.query("delete from git_refs where repo_id = $1 and ref = $2", [pr.head_repo_id, ref]);
  else await a.tx.query("insert into git_refs (repo_id, ref, sha) values ($1, $2, $3) on conflict do nothing", [pr.head_repo_id, ref, pr.head_sha]);
  await recordIssueEvent(a, { repo, issue, actor, event: kind });
}
