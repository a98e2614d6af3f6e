/** issue_comment: a comment on an issue or pull request (IssueCommentEvent), @mentions recorded. */
import type { Account } from "../../store/accounts.ts";
import { issueCommentJson } from "../../serialize/issue.ts";
import { repoApiUrl, type RepoRow } from "../../serialize/repository.ts";
import { userJson } from "../../serialize/user.ts";
import { issueByNumber, issueJsonOf } from "../load.ts";
import { recordActivity, type Act } from "../record.ts";
import { recordMentions } from "./issues.ts";

export async function commentOnIssue(a: Act, repo: RepoRow, actor: Account, number: number, body: string): Promise<void> {
  const issue = await issueByNumber(a.tx, repo.id, number);
  const at = a.at.toISOString();
  const [c] = await a.tx.query<{ id: number; body: string; created_at: string; updated_at: string }>(
    "insert into issue_comments (repo_id, issue_id, user_id, body, created_at, updated_at) values ($1, $2, $3, $4, $5, $5) returning id, body, created_at, updated_at",
    [repo.id, issue.id, actor.id, body, at],
  );
  await a.tx.query("update issues set updated_at = $2 where id = $1", [issue.id, at]);
  const json = await issueJsonOf(a.tx, issue, repo, a.ctx.urls);
  const comment = issueCommentJson(c!, userJson(actor, a.ctx.urls), json.url, json.html_url, repoApiUrl(repo, a.ctx.urls));
  await recordActivity(a, { type: "IssueCommentEvent", actor, repo, payload: { action: "created", issue: json, comment } });
  await recordMentions(a, repo, issue, body);
}
