/**
 * A user's grant to one application as the review page shows it: every token of the user for
 * the application (web flow and non-web flow alike), summarised. Revoking it (store/authorizations
 * revokeGrant plus store/codes deleteCodesForGrant) removes all of them.
 */
import type { Queryable } from "../db/database.ts";
import { normalize, type Scope } from "../auth/scopes.ts";

export interface GrantSummary {
  /** The union of the tokens' scopes, normalised. */
  scopes: Scope[];
  tokens: number;
  /** When the oldest of the tokens was created. */
  since: Date;
}

export async function grantSummary(db: Queryable, userId: number, appId: number): Promise<GrantSummary | undefined> {
  const rows = await db.query<{ scopes: Scope[]; created_at: Date }>(
    "select scopes, created_at from authorizations where user_id = $1 and app_id = $2 order by created_at",
    [userId, appId],
  );
  if (rows.length === 0) return undefined;
  return { scopes: normalize(rows.flatMap((r) => r.scopes)), tokens: rows.length, since: new Date(rows[0]!.created_at) };
}
