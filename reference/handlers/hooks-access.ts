/**
 * Who may manage which hooks. Repository hooks: a user who administers the repository — its
 * owner, a collaborator with `admin` permission, or an admin (owner) of the organization that
 * owns it. Organization hooks: an admin of the organization. Anyone else gets the same 404 as for
 * a repository or organization that does not exist (DECISIONS "Admin-only resources"), whatever
 * the repository's visibility. The token's scopes are checked before (http/api-hooks.ts); these
 * operations take tokens only, so a caller without one is 401.
 */
import type { RawRequest } from "../../generated/server/index.ts";
import type { Queryable } from "../db/database.ts";
import { errorBody } from "../http/errors.ts";
import type { Account } from "../store/accounts.ts";
import type { HookOwner } from "../store/hooks.ts";

export interface HookCaller {
  user: Account;
  /** The token's OAuth application; null for a token the user made for themselves. */
  appId: number | null;
}

export const unauthenticated = { status: 401, body: errorBody("Requires authentication") } as const;
export const notFound = { status: 404, body: errorBody("Not Found") } as const;

export function hookCaller(raw: RawRequest): HookCaller | undefined {
  const viewer = raw.request.viewer;
  if (!viewer?.user || !viewer.authorization) return undefined;
  return { user: viewer.user, appId: viewer.authorization.app_id === null ? null : Number(viewer.authorization.app_id) };
}

/** An id the hooks table can hold; anything else names no hook. */
export function validHookId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1;
}

export interface AdministeredRepo {
  id: number;
  owner: HookOwner & { kind: "repo" };
}

export interface AdministeredOrg {
  id: number;
  owner: HookOwner & { kind: "org" };
}

export async function administeredRepo(db: Queryable, owner: string, name: string, userId: number): Promise<AdministeredRepo | undefined> {
  const row = (
    await db.query<{ id: number; owner: string; name: string }>(
      `select r.id::int as id, o.login as owner, r.name from repositories r join accounts o on o.id = r.owner_id
        where lower(o.login) = lower($1) and lower(r.name) = lower($2) and (
          r.owner_id = $3
          or exists (select 1 from collaborators c where c.repo_id = r.id and c.user_id = $3 and c.permission = 'admin')
          or exists (select 1 from org_members m where m.org_id = r.owner_id and m.user_id = $3 and m.role = 'admin'))`,
      [owner, name, userId],
    )
  )[0];
  return row ? { id: row.id, owner: { kind: "repo", owner: row.owner, name: row.name } } : undefined;
}

export async function administeredOrg(db: Queryable, login: string, userId: number): Promise<AdministeredOrg | undefined> {
  const row = (
    await db.query<{ id: number; login: string }>(
      `select a.id::int as id, a.login from accounts a join org_members m on m.org_id = a.id
        where lower(a.login) = lower($1) and a.type = 'Organization' and m.user_id = $2 and m.role = 'admin'`,
      [login, userId],
    )
  )[0];
  return row ? { id: row.id, owner: { kind: "org", login: row.login } } : undefined;
}
