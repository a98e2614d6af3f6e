/**
 * Authorization codes of the web flow: random, stored as SHA-256 digests only, bound to one
 * application, user and redirect_uri, valid for ten minutes and good for one exchange. The clock
 * is the caller's (`ctx.now()`), so tests can move time; nothing here reads the database's now().
 */
import type { Queryable } from "../db/database.ts";
import { randomHex, sha256Hex } from "../auth/secrets.ts";
import type { Scope } from "../auth/scopes.ts";

/** The model service's lifetime of a code. */
export const CODE_LIFETIME_MS = 10 * 60_000;
/** Used and expired codes are kept this long after expiry, so a late reuse is still recognised. */
const RETENTION_MS = 24 * 3600_000;

export interface CodeRow {
  code_hash: string;
  app_id: number;
  user_id: number;
  redirect_uri: string;
  scopes: Scope[];
  expires_at: Date;
  used_at: Date | null;
  authorization_id: number | null;
  /** PKCE (oauth/pkce.ts): the S256 challenge the code was issued with. */
  code_challenge: string | null;
}

const COLUMNS = "code_hash, app_id, user_id, redirect_uri, scopes, expires_at, used_at, authorization_id, code_challenge";

export interface NewCode {
  appId: number;
  userId: number;
  redirectUri: string;
  scopes: readonly Scope[];
  now: Date;
  codeChallenge?: string | undefined;
}

/** Issues a code and returns it in plain text (the only time it exists outside the client). */
export async function issueCode(db: Queryable, c: NewCode): Promise<string> {
  const code = randomHex(20);
  // Housekeeping on the write path: codes are short-lived, so the table stays small without a job.
  await db.query("delete from oauth_codes where expires_at < $1", [new Date(c.now.getTime() - RETENTION_MS)]);
  await db.query(
    `insert into oauth_codes (code_hash, app_id, user_id, redirect_uri, scopes, expires_at, created_at, code_challenge)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [sha256Hex(code), c.appId, c.userId, c.redirectUri, [...c.scopes], new Date(c.now.getTime() + CODE_LIFETIME_MS), c.now, c.codeChallenge ?? null],
  );
  return code;
}

/** Looks a presented code up by its digest. */
export async function findCode(db: Queryable, code: string): Promise<CodeRow | undefined> {
  const rows = await db.query<CodeRow>(`select ${COLUMNS} from oauth_codes where code_hash = $1`, [sha256Hex(code)]);
  const row = rows[0];
  return row && { ...row, app_id: Number(row.app_id), user_id: Number(row.user_id), authorization_id: row.authorization_id === null ? null : Number(row.authorization_id), expires_at: new Date(row.expires_at), used_at: row.used_at && new Date(row.used_at) };
}

/**
 * Marks the code used if it still is unused and unexpired; whether this call did. One
 * conditional statement, so two concurrent exchanges of one code cannot both succeed.
 */
export async function consumeCode(db: Queryable, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db.query("update oauth_codes set used_at = $2 where code_hash = $1 and used_at is null and expires_at > $2 returning code_hash", [codeHash, now]);
  return rows.length > 0;
}

/** Remembers which authorization the exchange of this code created. */
export async function linkAuthorization(db: Queryable, codeHash: string, authorizationId: number): Promise<void> {
  await db.query("update oauth_codes set authorization_id = $2 where code_hash = $1", [codeHash, authorizationId]);
}

/** Forgets every code of a user for an application (a revoked grant must not come back through one). */
export async function deleteCodesForGrant(db: Queryable, userId: number, appId: number): Promise<void> {
  await db.query("delete from oauth_codes where user_id = $1 and app_id = $2", [userId, appId]);
}

/** Forgets the codes of a user for an application not yet exchanged (used ones stay, so a reuse is still recognised). */
export async function deletePendingCodes(db: Queryable, userId: number, appId: number): Promise<void> {
  await db.query("delete from oauth_codes where user_id = $1 and app_id = $2 and used_at is null", [userId, appId]);
}
