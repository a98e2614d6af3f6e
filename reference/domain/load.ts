/** Reads the domain actions need, inside their transaction: accounts, repositories, issues as JSON. */
import type { Queryable } from "../db/database.ts";
import type { Urls } from "../context.ts";
import type { Account } from "../store/accounts.ts";
import { userJson, type UserJson } from "../serialize/user.ts";
import { REPO_COLUMNS, repoApiUrl, repoHtmlUrl, type RepoRow } from "../serialize/repository.ts";
import { issueJson, labelJson, milestoneJson, type IssueJson, type IssueRow, type LabelRow, type MilestoneRow } from "../serialize/issue.ts";
import { DomainError } from "./context.ts";

export async function accountByLogin(tx: Queryable, login: string): Promise<Account> {
  const rows = await tx.query<Account>("select id, login, type, name, email, site_admin, two_factor, totp_secret, created_at from accounts where lower(login) = lower($1)", [login]);
  if (!rows[0]) throw new DomainError("not_found", `unknown account "${login}"`);
  return rows[0];
}

export async function accountById(tx: Queryable, id: number): Promise<Account> {
  const rows = await tx.query<Account>("select id, login, type, name, email, site_admin, two_factor, totp_secret, created_at from accounts where id = $1", [id]);
  return rows[0]!;
}

export async function userById(tx: Queryable, id: number, urls: Urls): Promise<UserJson> {
  return userJson(await accountById(tx, id), urls);
}

/** `lock`: also take the repository's row lock (record.ts lockRepository), in the same statement. */
export async function repoByName(tx: Queryable, full: string, { lock = false } = {}): Promise<RepoRow> {
  const [owner, name, extra] = full.split("/");
  if (!owner || !name || extra !== undefined) throw new DomainError("not_found", `repository must be owner/name, got "${full}"`);
  const rows = await tx.query<RepoRow>(
    `select ${REPO_COLUMNS} from repositories r join accounts o on o.id = r.owner_id where lower(o.login) = lower($1) and lower(r.name) = lower($2)${lock ? " for update of r" : ""}`,
    [owner, name],
  );
  if (!rows[0]) throw new DomainError("not_found", `unknown repository "${full}"`);
  return rows[0];
}

export async function repoById(tx: Queryable, id: number): Promise<RepoRow> {
  return (await tx.query<RepoRow>(`select ${REPO_COLUMNS} from repositories r join accounts o on o.id = r.owner_id where r.id = $1`, [id]))[0]!;
}

export async function repoCounts(tx: Queryable, repoId: number) {
  const [row] = await tx.query<{ forks: number; watchers: number; open_issues: number }>(
    `select (select count(*)::int from repositories where fork_of = $1) as forks,
            (select count(*)::int from watches where repo_id = $1) as watchers,
            (select count(*)::int from issues where repo_id = $1 and state = 'open') as open_issues`,
    [repoId],
  );
  return row!;
}

export async function issueByNumber(tx: Queryable, repoId: number, number: number): Promise<IssueRow> {
  const rows = await tx.query<IssueRow>("select * from issues where repo_id = $1 and number = $2", [repoId, number]);
  if (!rows[0]) throw new DomainError("not_found", `no issue #${number} in this repository`);
  return rows[0];
}

export async function milestoneJsonById(tx: Queryable, id: number, repo: RepoRow, urls: Urls) {
  const [m] = await tx.query<MilestoneRow>(
    `select m.*, (select count(*)::int from issues i where i.milestone_id = m.id and i.state = 'open') as open_issues,
            (select count(*)::int from issues i where i.milestone_id = m.id and i.state = 'closed') as closed_issues
     from milestones m where m.id = $1`,
    [id],
  );
  return milestoneJson(m!, await userById(tx, m!.creator_id, urls), repoApiUrl(repo, urls), repoHtmlUrl(repo, urls));
}

/** The issue as the API shows it now (the snapshot events carry). */
export async function issueJsonOf(tx: Queryable, issue: IssueRow, repo: RepoRow, urls: Urls): Promise<IssueJson> {
  const fresh = (await tx.query<IssueRow>("select * from issues where id = $1", [issue.id]))[0]!;
  const labels = await tx.query<LabelRow>("select l.id, l.name, l.color from labels l join issue_labels il on il.label_id = l.id where il.issue_id = $1 order by l.name", [issue.id]);
  const [{ n }] = (await tx.query<{ n: number }>("select count(*)::int as n from issue_comments where issue_id = $1", [issue.id])) as [{ n: number }];
  const repoUrl = repoApiUrl(repo, urls);
  return issueJson(
    fresh,
    {
      user: await userById(tx, fresh.user_id, urls),
      assignee: fresh.assignee_id ? await userById(tx, fresh.assignee_id, urls) : null,
      labels: labels.map((l) => labelJson(l, repoUrl)),
      milestone: fresh.milestone_id ? await milestoneJsonById(tx, fresh.milestone_id, repo, urls) : null,
      comments: n,
    },
    repoUrl,
    repoHtmlUrl(repo, urls),
  );
}

/** A label of the repository by name, created (with a colour derived from the name) when missing. */
export async function ensureLabel(tx: Queryable, repoId: number, name: string): Promise<LabelRow> {
  const existing = await tx.query<LabelRow>("select id, name, color from labels where repo_id = $1 and name = $2", [repoId, name]);
  if (existing[0]) return existing[0];
  const palette = ["fc2929", "84b6eb", "159818", "cccccc", "e11d21", "fbca04", "5319e7", "207de5"];
  const color = palette[[...name].reduce((a, c) => a + c.charCodeAt(0), 0) % palette.length]!;
  return (await tx.query<LabelRow>("insert into labels (repo_id, name, color) values ($1, $2, $3) returning id, name, color", [repoId, name, color]))[0]!;
}
