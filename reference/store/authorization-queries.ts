/**
 * The queries the non-web flow needs beyond store/authorizations.ts: the applications of a page
 * of authorizations in one round trip, the note-uniqueness rule, a per-grant lock for
 * get-or-create, and revoking a whole grant (tokens and unused codes alike).
 */
import type { Queryable } from "../db/database.ts";
import type { Application } from "./applications.ts";
import { bumpTokensVersion } from "./tokens-version.ts";

const APP_COLUMNS = "id, client_id, name, url, callback_url, owner_id, suspended";

export async function applicationsByIds(db: Queryable, ids: readonly (number | null)[]): Promise<Map<number, Application>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null).map(Number))];
  if (wanted.length === 0) return new Map();
  const rows = await db.query<Application>(`select ${APP_COLUMNS} from oauth_applications where id = any($1::bigint[])`, [wanted]);
  return new Map(rows.map((r) => [Number(r.id), r]));
}

/**
 * Whether another authorization of the user has this note and fingerprint (DECISIONS: a note
 * duplicate is 422 `already_exists`). Migration 002's unique index backs this up under races.
 */
export async function noteTaken(db: Queryable, userId: number, note: string, fingerprint: string | null, exceptId: number | null = null): Promise<boolean> {
  const rows = await db.query(
    `select 1 from authorizations
     where user_id = $1 and note = $2 and fingerprint is not distinct from $3 and ($4::bigint is null or id <> $4)
     limit 1`,
    [userId, note, fingerprint, exceptId],
  );
  return rows.length > 0;
}

/**
 * Serialises get-or-create of one user's grant to one application (and fingerprint) across
 * PostgreSQL connections, so two concurrent PUTs cannot both create. PGlite runs one transaction
 * at a time, so it needs no lock.
 */
export async function lockGrant(tx: Queryable, kind: "pglite" | "postgres", userId: number, appId: number, fingerprint: string | null): Promise<void> {
  if (kind !== "postgres") return;
  await tx.query("select pg_advisory_xact_lock(hashtext($1))", [`grant:${userId}:${appId}:${fingerprint ?? ""}`]);
}

/**
 * Deletes one authorization if it belongs to the user; whether it did. An application's
 * authorization takes the user's pending codes for that application with it, as every revoking
 * route does (DECISIONS D-REF-REVOKE-ENDS-CODES): a code issued before the revocation would
 * otherwise be exchanged for a working token after it. One statement, so a concurrent exchange
 * sees either both or neither.
 */
export async function deleteOwnedAuthorization(db: Queryable, id: number, userId: number): Promise<boolean> {
  const deleted = await db.query<{ id: number }>(
    `with gone as (delete from authorizations where id = $1 and user_id = $2 returning id, app_id),
          codes as (delete from oauth_codes c using gone where c.user_id = $2 and c.app_id = gone.app_id and c.used_at is null)
     select id from gone`,
    [id, userId],
  );
  bumpTokensVersion();
  return deleted.length > 0;
}

/** Deletes one token an application revokes, with the user's pending codes for that application. */
export async function revokeAppToken(db: Queryable, id: number, userId: number, appId: number): Promise<void> {
  await db.query("delete from oauth_codes where user_id = $1 and app_id = $2 and used_at is null", [userId, appId]);
  await db.query("delete from authorizations where id = $1", [id]);
  bumpTokensVersion();
}

/**
 * Revokes a user's whole grant to an application: every token, and every code not yet exchanged
 * (a pending code would otherwise bring a token back after the revocation).
 */
export async function revokeWholeGrant(db: Queryable, userId: number, appId: number): Promise<number> {
  await db.query("delete from oauth_codes where user_id = $1 and app_id = $2", [userId, appId]);
  const deleted = (await db.query("delete from authorizations where user_id = $1 and app_id = $2 returning id", [userId, appId])).length;
  bumpTokensVersion();
  return deleted;
}

/** Postgres' unique_violation on the note index (migration 002), from either adapter. */
export function isNoteConflict(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  return !!e && e.code === "23505" && (e.constraint === "authorizations_user_note" || String(e.message).includes("authorizations_user_note"));
}
