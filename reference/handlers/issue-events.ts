/**
 * The issue events API (seed *Endpoints › B*): one issue's events oldest first without `issue`;
 * a repository's events newest first and one event, each with its `issue` (serialize/
 * issue-embed.ts). 30 per page with `Link` (DECISIONS: pagination outside the feeds). Unknown
 * repositories, issues and events — and private repositories the caller cannot see — are 404.
 */
import type { HostHandlers } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import { canSeeRepo, findRepo, type FeedRepo } from "../feeds/access.ts";
import { errorBody } from "../http/errors.ts";
import { linkHeader, pageWindow } from "../http/pagination.ts";
import { ANONYMOUS } from "../http/viewer.ts";
import { loadIssueEmbeds } from "../serialize/issue-embed.ts";
import type { RawRequest } from "../../generated/server/index.ts";
import type { IssueEvent, IssueEventWithIssue } from "../../generated/types.ts";
import type { IssueJson } from "../serialize/issue.ts";
import type { Supplied } from "./supplied.ts";

const notFound = { status: 404, headers: {}, body: errorBody("Not Found") } as const;

/** Ids beyond what the columns hold name nothing: 404, not a database error. */
const MAX_INT4 = 2_147_483_647;
const MAX_OFFSET = 1_000_000_000;

/** `body` is the event as serialize/ stored it, in the contract's shape (without `issue`). */
type Row = { id: number; issue_id: number; body: IssueEvent; total: number };

/** The stored event with its current issue embedded. */
function withIssue(row: Row, issues: ReadonlyMap<number, IssueJson>): IssueEventWithIssue {
  const issue = issues.get(row.issue_id);
  // The foreign key keeps every event's issue: a missing one is a broken database, not an answer.
  if (!issue) throw new Error(`issue ${row.issue_id} of issue event ${row.id} not found`);
  return { ...row.body, issue };
}

export function issueEventHandlers(ctx: Context): Partial<HostHandlers<"api", Supplied>> {
  const { db } = ctx;

  async function visibleRepo(owner: string, name: string, raw: RawRequest): Promise<FeedRepo | undefined> {
    const repo = await findRepo(db, owner, name);
    return repo && (await canSeeRepo(db, raw.request.viewer ?? ANONYMOUS, repo)) ? repo : undefined;
  }

  /** One page of the rows whose `column` is `value`, with the total for `Link`. */
  async function page(column: "issue_id" | "repo_id", value: number, order: "asc" | "desc", n: number): Promise<{ rows: Row[]; total: number }> {
    const { limit, offset } = pageWindow(n);
    const [rows, count] = await Promise.all([
      // A page far past any list reads nothing (and keeps the offset inside the database's integers).
      limit === 0 || offset > MAX_OFFSET
        ? Promise.resolve([] as Row[])
        : db.query<Row>(
            `select id::int as id, issue_id::int as issue_id, body from issue_events where ${column} = $1
              order by created_at ${order}, id ${order} limit $2 offset $3`,
            [value, limit, offset],
          ),
      db.query<{ n: number }>(`select count(*)::int as n from issue_events where ${column} = $1`, [value]),
    ]);
    return { rows, total: count[0]?.n ?? 0 };
  }

  function withLink<H extends object>(headers: H, base: string, n: number, total: number): H & { Link?: string } {
    const link = linkHeader(base, n, total);
    return link ? { ...headers, Link: link } : headers;
  }

  return {
    listIssueEventsForIssue: async ({ params, query, raw }) => {
      const repo = await visibleRepo(params.owner, params.repo, raw);
      if (!repo) return notFound;
      if (params.issue_number > MAX_INT4) return notFound;
      const issue = (await db.query<{ id: number }>("select id::int as id from issues where repo_id = $1 and number = $2", [repo.id, params.issue_number]))[0];
      if (!issue) return notFound;
      const n = query.page ?? 1;
      const { rows, total } = await page("issue_id", issue.id, "asc", n);
      const base = `${ctx.urls.api}/repos/${repo.owner_login}/${repo.name}/issues/${params.issue_number}/events`;
      return { status: 200, headers: withLink({}, base, n, total), body: rows.map((r) => r.body) };
    },

    listIssueEventsForRepo: async ({ params, query, raw }) => {
      const repo = await visibleRepo(params.owner, params.repo, raw);
      if (!repo) return notFound;
      const n = query.page ?? 1;
      const { rows, total } = await page("repo_id", repo.id, "desc", n);
      const issues = await loadIssueEmbeds(db, ctx.urls, rows.map((r) => r.issue_id));
      const base = `${ctx.urls.api}/repos/${repo.owner_login}/${repo.name}/issues/events`;
      return { status: 200, headers: withLink({}, base, n, total), body: rows.map((r) => withIssue(r, issues)) };
    },

    getIssueEvent: async ({ params, raw }) => {
      const repo = await visibleRepo(params.owner, params.repo, raw);
      if (!repo || !Number.isSafeInteger(params.event_id)) return notFound;
      const row = (await db.query<Row>("select id::int as id, issue_id::int as issue_id, body from issue_events where id = $1 and repo_id = $2", [params.event_id, repo.id]))[0];
      if (!row) return notFound;
      const issues = await loadIssueEmbeds(db, ctx.urls, [row.issue_id]);
      return { status: 200, headers: {}, body: withIssue(row, issues) };
    },
  };
}
