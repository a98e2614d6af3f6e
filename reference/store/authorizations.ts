/**
 * Authorizations: every OAuth token, whichever flow created it. The token itself exists only in
 * the return value of the call that creates (or resets) it; the table keeps its SHA-256 digest
 * and last eight characters.
 */
import type { Queryable } from "../db/database.ts";
import { randomHex, sha256Hex } from "../auth/secrets.ts";
import type { Scope } from "../auth/scopes.ts";
import { bumpTokensVersion } from "./tokens-version.ts";

export interface AuthorizationRow {
  id: number;
  user_id: number;
  app_id: number | null;
  scopes: Scope[];
  token_hash: string;
  token_last_eight: string;
  note: string | null;
  note_url: string | null;
  fingerprint: string | null;
  via: "web" | "api";
  created_at: string;
  updated_at: string;
}

const COLUMNS = "id, user_id, app_id, scopes, token_hash, token_last_eight, note, note_url, fingerprint, via, created_at, updated_at";

export interface NewAuthorization {
  userId: number;
  appId: number | null;
  scopes: readonly Scope[];
  via: "web" | "api";
  note?: string | null;
  noteUrl?: string | null;
  fingerprint?: string | null;
}

export interface CreatedAuthorization {
  row: AuthorizationRow;
  /** The plaintext token: returned once, never stored. */
  token: string;
}

export async function createAuthorization(db: Queryable, a: NewAuthorization): Promise<CreatedAuthorization> {
  const token = randomHex(20);
  const rows = await db.query<AuthorizationRow>(
    `insert into authorizations (user_id, app_id, scopes, token_hash, token_last_eight, note, note_url, fingerprint, via)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning ${COLUMNS}`,
    [a.userId, a.appId, [...a.scopes], sha256Hex(token), token.slice(-8), a.note ?? null, a.noteUrl ?? null, a.fingerprint ?? null, a.via],
  );
  return { row: rows[0]!, token };
}

/** Looks a presented token up by its digest (the digest lookup is what compares it). */
export async function findByToken(db: Queryable, token: string): Promise<AuthorizationRow | undefined> {
  return (await db.query<AuthorizationRow>(`select ${COLUMNS} from authorizations where token_hash = $1`, [sha256Hex(token)]))[0];
}

export async function findAuthorization(db: Queryable, id: number, userId: number): Promise<AuthorizationRow | undefined> {
  return (await db.query<AuthorizationRow>(`select ${COLUMNS} from authorizations where id = $1 and user_id = $2`, [id, userId]))[0];
}

export async function listAuthorizations(db: Queryable, userId: number, limit: number, offset: number): Promise<{ rows: AuthorizationRow[]; total: number }> {
  const rows = await db.query<AuthorizationRow>(`select ${COLUMNS} from authorizations where user_id = $1 order by id limit $2 offset $3`, [userId, limit, offset]);
  const total = (await db.query<{ n: number }>("select count(*)::int as n from authorizations where user_id = $1", [userId]))[0]!.n;
  return { rows, total };
}

/** The newest authorization of a user for an application, optionally with a fingerprint. */
export async function findForApp(db: Queryable, userId: number, appId: number, fingerprint?: string | null): Promise<AuthorizationRow | undefined> {
  const rows = await db.query<AuthorizationRow>(
    `select ${COLUMNS} from authorizations where user_id = $1 and app_id = $2 and fingerprint is not distinct from $3 order by id desc limit 1`,
    [userId, appId, fingerprint ?? null],
  );
  return rows[0];
}

/** The newest web-flow grant of a user for an application (the "already authorized" rule). */
export async function findWebGrant(db: Queryable, userId: number, appId: number): Promise<AuthorizationRow | undefined> {
  const rows = await db.query<AuthorizationRow>(
    `select ${COLUMNS} from authorizations where user_id = $1 and app_id = $2 and via = 'web' order by id desc limit 1`,
    [userId, appId],
  );
  return rows[0];
}

export async function updateAuthorization(
  db: Queryable,
  id: number,
  changes: { scopes?: readonly Scope[]; note?: string | null; noteUrl?: string | null; fingerprint?: string | null },
): Promise<AuthorizationRow> {
  const rows = await db.query<AuthorizationRow>(
    `update authorizations set
       scopes = coalesce($2, scopes),
       note = case when $3::boolean then $4 else note end,
       note_url = case when $5::boolean then $6 else note_url end,
       fingerprint = case when $7::boolean then $8 else fingerprint end,
       updated_at = now()
     where id = $1 returning ${COLUMNS}`,
    [
      id,
      changes.scopes ? [...changes.scopes] : null,
      changes.note !== undefined, changes.note ?? null,
      changes.noteUrl !== undefined, changes.noteUrl ?? null,
      changes.fingerprint !== undefined, changes.fingerprint ?? null,
    ],
  );
  bumpTokensVersion();
  return rows[0]!;
}

/** A new token for an existing authorization; the old one stops working at once. */
export async function resetToken(db: Queryable, id: number): Promise<CreatedAuthorization> {
  const token = randomHex(20);
  const rows = await db.query<AuthorizationRow>(
    `update authorizations set token_hash = $2, token_last_eight = $3, updated_at = now() where id = $1 returning ${COLUMNS}`,
    [id, sha256Hex(token), token.slice(-8)],
  );
  bumpTokensVersion();
  return { row: rows[0]!, token };
}

export async function deleteAuthorization(db: Queryable, id: number): Promise<void> {
  await db.query("delete from authorizations where id = $1", [id]);
  bumpTokensVersion();
}

/** Revokes every token of a user for an application (the review page's "Revoke"). */
export async function revokeGrant(db: Queryable, userId: number, appId: number): Promise<number> {
  const deleted = (await db.query("delete from authorizations where user_id = $1 and app_id = $2 returning id", [userId, appId])).length;
  bumpTokensVersion();
  return deleted;
}
