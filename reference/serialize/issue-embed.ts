/**
 * The `issue` embedded in issue events of the repository-wide list and the single-event response
 * (seed *Resources › Issue event*). Issue events are stored without it (004_events.sql), since the
 * issue changes after the event; it is serialized from the current issue, labels, milestone and
 * comment count, for a whole page in five queries whatever its size (no query per event).
 */
import type { Queryable } from "../db/database.ts";
import type { Urls } from "../context.ts";
import { issueJson, labelJson, milestoneJson, type IssueJson, type IssueRow, type LabelRow, type MilestoneRow } from "./issue.ts";
import { userJson, type UserJson } from "./user.ts";

type IssueWithRepo = IssueRow & { repo_name: string; owner_login: string };

export async function loadIssueEmbeds(db: Queryable, urls: Urls, issueIds: readonly number[]): Promise<Map<number, IssueJson>> {
  const out = new Map<number, IssueJson>();
  const ids = [...new Set(issueIds)];
  if (ids.length === 0) return out;
  const issues = await db.query<IssueWithRepo>(
    `select i.id::int as id, i.repo_id::int as repo_id, i.number, i.title, i.body, i.state, i.user_id::int as user_id,
            i.assignee_id::int as assignee_id, i.milestone_id::int as milestone_id, i.locked, i.pull_request,
            i.created_at, i.updated_at, i.closed_at, r.name as repo_name, o.login as owner_login
       from issues i join repositories r on r.id = i.repo_id join accounts o on o.id = r.owner_id
      where i.id = any($1::bigint[])`,
    [ids],
  );
  const milestoneIds = [...new Set(issues.flatMap((i) => (i.milestone_id === null ? [] : [i.milestone_id])))];
  const [labels, milestones, comments] = await Promise.all([
    db.query<LabelRow & { issue_id: number }>(
      `select il.issue_id::int as issue_id, l.id::int as id, l.name, l.color
         from issue_labels il join labels l on l.id = il.label_id where il.issue_id = any($1::bigint[]) order by l.name`,
      [ids],
    ),
    milestoneIds.length === 0
      ? Promise.resolve([] as MilestoneRow[])
      : db.query<MilestoneRow>(
          `select m.id::int as id, m.number, m.title, m.description, m.state, m.creator_id::int as creator_id, m.due_on,
                  m.created_at, m.updated_at, m.closed_at,
                  (select count(*) from issues x where x.milestone_id = m.id and x.state = 'open')::int as open_issues,
                  (select count(*) from issues x where x.milestone_id = m.id and x.state = 'closed')::int as closed_issues
             from milestones m where m.id = any($1::bigint[])`,
          [milestoneIds],
        ),
    db.query<{ issue_id: number; n: number }>(
      "select issue_id::int as issue_id, count(*)::int as n from issue_comments where issue_id = any($1::bigint[]) group by issue_id",
      [ids],
    ),
  ]);
  const accountIds = [...new Set([...issues.flatMap((i) => [i.user_id, ...(i.assignee_id === null ? [] : [i.assignee_id])]), ...milestones.map((m) => m.creator_id)])];
  const accounts = await db.query<{ id: number; login: string; type: "User" | "Organization"; site_admin: boolean }>(
    "select id::int as id, login, type, site_admin from accounts where id = any($1::bigint[])",
    [accountIds],
  );
  const users = new Map<number, UserJson>(accounts.map((a) => [a.id, userJson(a, urls)]));
  const milestoneById = new Map(milestones.map((m) => [m.id, m]));
  const commentCount = new Map(comments.map((c) => [c.issue_id, c.n]));
  for (const issue of issues) {
    const full = `${issue.owner_login}/${issue.repo_name}`;
    const repoUrl = `${urls.api}/repos/${full}`;
    const repoHtml = `${urls.auth}/${full}`;
    const m = issue.milestone_id === null ? undefined : milestoneById.get(issue.milestone_id);
    out.set(
      issue.id,
      issueJson(
        issue,
        {
          user: users.get(issue.user_id)!,
          assignee: issue.assignee_id === null ? null : users.get(issue.assignee_id) ?? null,
          labels: labels.filter((l) => l.issue_id === issue.id).map((l) => labelJson(l, repoUrl)),
          milestone: m ? milestoneJson(m, users.get(m.creator_id)!, repoUrl, repoHtml) : null,
          comments: commentCount.get(issue.id) ?? 0,
        },
        repoUrl,
        repoHtml,
      ),
    );
  }
  return out;
}
