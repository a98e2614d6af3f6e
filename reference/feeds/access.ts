/**
 * Who may see what, as the seed and DECISIONS say: a private repository (and a private event) is
 * visible only to a user with access to its repository — its owner, a collaborator, or a member
 * of the organization that owns it — and only through a token with the `repo` scope. Everything
 * else sees public events only; a private repository the caller cannot see answers 404.
 */
import type { Queryable } from "../db/database.ts";
import { satisfies } from "../auth/scopes.ts";
import type { Viewer } from "../http/viewer.ts";

export interface FeedRepo {
  id: number;
  name: string;
  private: boolean;
  owner_id: number;
  owner_login: string;
}

export interface FeedAccount {
  id: number;
  login: string;
  type: "User" | "Organization";
}

/** SQL: repository `$n` (a column or parameter) is accessible to the user `$u`. */
export function accessibleRepoIds(user: string): string {
  return `select r.id from repositories r where r.owner_id = ${user}
    or exists (select 1 from collaborators c where c.repo_id = r.id and c.user_id = ${user})
    or exists (select 1 from org_members m where m.org_id = r.owner_id and m.user_id = ${user})`;
}

export async function findRepo(db: Queryable, owner: string, name: string): Promise<FeedRepo | undefined> {
  const rows = await db.query<FeedRepo>(
    `select r.id::int as id, r.name, r.private, r.owner_id::int as owner_id, o.login as owner_login
       from repositories r join accounts o on o.id = r.owner_id
      where lower(o.login) = lower($1) and lower(r.name) = lower($2)`,
    [owner, name],
  );
  return rows[0];
}

export async function findAccount(db: Queryable, login: string): Promise<FeedAccount | undefined> {
  const rows = await db.query<FeedAccount>("select id::int as id, login, type from accounts where lower(login) = lower($1)", [login]);
  return rows[0];
}

/** The signed-in user when the token may reach private repositories (`repo` scope). */
export function privateReader(viewer: Viewer): number | undefined {
  return viewer.user && satisfies(viewer.scopes, ["repo"]) ? viewer.user.id : undefined;
}

export async function hasAccess(db: Queryable, userId: number, repoId: number): Promise<boolean> {
  const rows = await db.query(`select 1 from (${accessibleRepoIds("$1")}) a where a.id = $2`, [userId, repoId]);
  return rows.length > 0;
}

export async function isMember(db: Queryable, orgId: number, userId: number): Promise<boolean> {
  return (await db.query("select 1 from org_members where org_id = $1 and user_id = $2", [orgId, userId])).length > 0;
}

/** Whether the viewer may see the repository at all (public, or private with access and scope). */
export async function canSeeRepo(db: Queryable, viewer: Viewer, repo: FeedRepo): Promise<boolean> {
  if (!repo.private) return true;
  const reader = privateReader(viewer);
  return reader !== undefined && (await hasAccess(db, reader, repo.id));
}
