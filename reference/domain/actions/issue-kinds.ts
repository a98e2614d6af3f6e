/**
 * Issue event kinds with no activity event of their own: lock, rename, milestone, subscribe,
 * mention, reference. Each records its issue event and updates the issue row it describes.
 */
import type { Account } from "../../store/accounts.ts";
import type { RepoRow } from "../../serialize/repository.ts";
import { DomainError } from "../context.ts";
import { accountByLogin, issueByNumber } from "../load.ts";
import { newCommitSha, recordIssueEvent, type Act } from "../record.ts";

export const ISSUE_ONLY_KINDS = ["subscribed", "mentioned", "referenced", "milestoned", "demilestoned", "renamed", "locked", "unlocked"] as const;
export type IssueOnlyKind = (typeof ISSUE_ONLY_KINDS)[number];

export async function issueKind(a: Act, repo: RepoRow, actor: Account, kind: IssueOnlyKind, number: number, params: Record<string, string>): Promise<void> {
  const issue = await issueByNumber(a.tx, repo.id, number);
  const now = a.at.toISOString();
  switch (kind) {
    case "subscribed":
      return void (await recordIssueEvent(a, { repo, issue, actor, event: kind }));
    case "mentioned": {
      const who = params.user ? await accountByLogin(a.tx, params.user) : actor;
      return void (await recordIssueEvent(a, { repo, issue, actor: who, event: kind }));
    }
    case "referenced": {
      const sha = params.commit ?? (await newCommitSha(a, repo.id, issue.number, now));
      if (!/^[0-9a-f]{40}$/.test(sha)) throw new DomainError("invalid", "commit must be a 40-hex SHA");
      return void (await recordIssueEvent(a, { repo, issue, actor, event: kind, commitId: sha }));
    }
    case "locked":
    case "unlocked": {
      if (issue.locked === (kind === "locked")) throw new DomainError("invalid", `#${issue.number} is already ${kind}`);
      await a.tx.query("update issues set locked = $2, updated_at = $3 where id = $1", [issue.id, kind === "locked", now]);
      return void (await recordIssueEvent(a, { repo, issue, actor, event: kind }));
    }
    case "renamed": {
      const to = params.title;
      if (!to) throw new DomainError("invalid", "renamed needs title=NEW");
      await a.tx.query("update issues set title = $2, updated_at = $3 where id = $1", [issue.id, to, now]);
      return void (await recordIssueEvent(a, { repo, issue, actor, event: kind, extra: { rename: { from: issue.title, to } } }));
    }
    case "milestoned": {
      const title = params.milestone ?? "v1.0";
      let [m] = await a.tx.query<{ id: number; title: string }>("select id, title from milestones where repo_id = $1 and title = $2", [repo.id, title]);
      if (!m) {
        [m] = await a.tx.query<{ id: number; title: string }>(
          "insert into milestones (repo_id, number, title, creator_id, created_at, updated_at) values ($1, (select coalesce(max(number), 0) + 1 from milestones where repo_id = $1), $2, $3, $4, $4) returning id, title",
          [repo.id, title, actor.id, now],
        );
      }
      await a.tx.query("update issues set milestone_id = $2, updated_at = $3 where id = $1", [issue.id, m!.id, now]);
      return void (await recordIssueEvent(a, { repo, issue, actor, event: kind, extra: { milestone: { title: m!.title } } }));
    }
    case "demilestoned": {
      if (!issue.milestone_id) throw new DomainError("invalid", `#${issue.number} is in no milestone`);
      const [m] = await a.tx.query<{ title: string }>("select title from milestones where id = $1", [issue.milestone_id]);
      await a.tx.query("update issues set milestone_id = null, updated_at = $2 where id = $1", [issue.id, now]);
      return void (await recordIssueEvent(a, { repo, issue, actor, event: kind, extra: { milestone: { title: m!.title } } }));
    }
  }
}
