/**
 * Issues and pull requests change the same way (a pull request is an issue with a branch): one
 * function per change, recording the issue event it implies and the activity event —
 * IssuesEvent for issues, PullRequestEvent for pull requests (payload built in pulls.ts).
 */
import type { Account } from "../../store/accounts.ts";
import type { IssueRow } from "../../serialize/issue.ts";
import type { RepoRow } from "../../serialize/repository.ts";
import { userJson } from "../../serialize/user.ts";
import { labelJson } from "../../serialize/issue.ts";
import { repoApiUrl } from "../../serialize/repository.ts";
import { DomainError, type Json } from "../context.ts";
import { accountById, accountByLogin, ensureLabel, issueByNumber, issueJsonOf } from "../load.ts";
import { recordActivity, recordIssueEvent, type Act } from "../record.ts";
import { pullRequestPayload } from "./pulls.ts";

export type IssueAction = "opened" | "closed" | "reopened" | "assigned" | "unassigned" | "labeled" | "unlabeled";
export const ISSUE_ACTIONS: readonly IssueAction[] = ["opened", "closed", "reopened", "assigned", "unassigned", "labeled", "unlabeled"];

/** The IssuesEvent or PullRequestEvent for a change, with the issue as it is after it. */
export async function emitIssueChange(a: Act, repo: RepoRow, actor: Account, issue: IssueRow, action: string, extra: Json = {}): Promise<void> {
  if (issue.pull_request) {
    const payload = await pullRequestPayload(a, repo, issue, action === "merged" ? "closed" : action);
    await recordActivity(a, { type: "PullRequestEvent", actor, repo, payload: { ...payload, ...extra } });
  } else {
    const json = await issueJsonOf(a.tx, issue, repo, a.ctx.urls);
    await recordActivity(a, { type: "IssuesEvent", actor, repo, payload: { action, issue: json, ...extra } });
  }
}

/** @login mentions of existing users: one `mentioned` event each, the mentioned user as actor. */
export async function recordMentions(a: Act, repo: RepoRow, issue: IssueRow, text: string | null | undefined): Promise<void> {
  const logins = new Set([...(text ?? "").matchAll(/(?:^|\s)@([A-Za-z0-9-]{1,39})/g)].map((m) => m[1]!.toLowerCase()));
  for (const login of logins) {
    const user = await accountByLogin(a.tx, login).catch(() => undefined);
    if (user && user.type === "User") await recordIssueEvent(a, { repo, issue, actor: user, event: "mentioned" });
  }
}

export async function openIssue(a: Act, repo: RepoRow, actor: Account, fields: { title?: string; body?: string | null; pullRequest?: boolean }): Promise<IssueRow> {
  const [{ n }] = (await a.tx.query<{ n: number }>("select coalesce(max(number), 0)::int + 1 as n from issues where repo_id = $1", [repo.id])) as [{ n: number }];
  const at = a.at.toISOString();
  const [issue] = await a.tx.query<IssueRow>(
    "insert into issues (repo_id, number, title, body, user_id, pull_request, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $7) returning *",
    [repo.id, n, fields.title ?? `${fields.pullRequest ? "Pull request" : "Issue"} ${n}`, fields.body ?? null, actor.id, fields.pullRequest ?? false, at],
  );
  return issue!;
}

async function setState(a: Act, issue: IssueRow, state: "open" | "closed"): Promise<void> {
  await a.tx.query("update issues set state = $2, closed_at = $3, updated_at = $4 where id = $1", [issue.id, state, state === "closed" ? a.at.toISOString() : null, a.at.toISOString()]);
}

/** One IssuesEvent action (or the same change on a pull request) with its issue event. */
export async function changeIssue(a: Act, repo: RepoRow, actor: Account, action: IssueAction, params: Record<string, string>, number?: number): Promise<IssueRow> {
  if (action === "opened") {
    const issue = await openIssue(a, repo, actor, { title: params.title, body: params.body ?? null });
    await emitIssueChange(a, repo, actor, issue, "opened");
    await recordMentions(a, repo, issue, issue.body);
    return issue;
  }
  const issue = await issueByNumber(a.tx, repo.id, number!);
  const now = a.at.toISOString();
  switch (action) {
    case "closed": {
      if (issue.state === "closed") throw new DomainError("invalid", `#${issue.number} is already closed`);
      const commit = params.commit ?? null;
      if (commit !== null && !/^[0-9a-f]{40}$/.test(commit)) throw new DomainError("invalid", "commit must be a 40-hex SHA");
      await setState(a, issue, "closed");
      await recordIssueEvent(a, { repo, issue, actor, event: "closed", commitId: commit });
      await emitIssueChange(a, repo, actor, issue, "closed");
      break;
    }
    case "reopened": {
      if (issue.state === "open") throw new DomainError("invalid", `#${issue.number} is already open`);
      await setState(a, issue, "open");
      await recordIssueEvent(a, { repo, issue, actor, event: "reopened" });
      await emitIssueChange(a, repo, actor, issue, "reopened");
      break;
    }
    case "assigned":
    case "unassigned": {
      const assignee = action === "assigned" ? await accountByLogin(a.tx, params.assignee ?? actor.login) : issue.assignee_id ? await accountById(a.tx, issue.assignee_id) : undefined;
      if (!assignee) throw new DomainError("invalid", `#${issue.number} has no assignee`);
      await a.tx.query("update issues set assignee_id = $2, updated_at = $3 where id = $1", [issue.id, action === "assigned" ? assignee.id : null, now]);
      const user = userJson(assignee, a.ctx.urls);
      await recordIssueEvent(a, { repo, issue, actor, event: action, extra: { assignee: user } });
      await emitIssueChange(a, repo, actor, issue, action, { assignee: user });
      break;
    }
    case "labeled":
    case "unlabeled": {
      const name = params.label ?? "bug";
      const label = await ensureLabel(a.tx, repo.id, name);
      if (action === "labeled") {
        await a.tx.query("insert into issue_labels (issue_id, label_id) values ($1, $2) on conflict do nothing", [issue.id, label.id]);
      } else {
        const gone = await a.tx.query("delete from issue_labels where issue_id = $1 and label_id = $2 returning label_id", [issue.id, label.id]);
        if (gone.length === 0) throw new DomainError("invalid", `#${issue.number} has no label "${name}"`);
      }
      await a.tx.query("update issues set updated_at = $2 where id = $1", [issue.id, now]);
      await recordIssueEvent(a, { repo, issue, actor, event: action, extra: { label: { name: label.name, color: label.color } } });
      await emitIssueChange(a, repo, actor, issue, action, { label: labelJson(label, repoApiUrl(repo, a.ctx.urls)) });
      break;
    }
  }
  return issue;
}
