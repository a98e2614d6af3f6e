/**
 * Sign-in sessions of the web host. The cookie carries a random id; the table keeps only its
 * SHA-256 digest, so a copy of the database cannot be replayed as cookies. Each session has its
 * own CSRF token for the forms it signs (consent, revoke, sign out). Expiry uses the caller's
 * clock (`ctx.now()`).
 */
import type { Queryable } from "../db/database.ts";
import { randomHex, sha256Hex } from "../auth/secrets.ts";

export const SESSION_LIFETIME_MS = 14 * 24 * 3600_000;

export interface Session {
  userId: number;
  csrfToken: string;
  expiresAt: Date;
}

export interface CreatedSession extends Session {
  /** The cookie value: returned once, never stored. */
  id: string;
}

export async function createSession(db: Queryable, userId: number, now: Date): Promise<CreatedSession> {
  const id = randomHex(32);
  const csrfToken = randomHex(32);
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  await db.query("delete from sessions where expires_at <= $1", [now]);
  await db.query("insert into sessions (id_hash, user_id, csrf_token, created_at, expires_at) values ($1, $2, $3, $4, $5)", [sha256Hex(id), userId, csrfToken, now, expiresAt]);
  return { id, userId, csrfToken, expiresAt };
}

/** The live session for a cookie value, if any (the digest lookup is the comparison). */
export async function findSession(db: Queryable, id: string, now: Date): Promise<Session | undefined> {
  const rows = await db.query<{ user_id: number; csrf_token: string; expires_at: Date }>(
    "select user_id, csrf_token, expires_at from sessions where id_hash = $1 and expires_at > $2",
    [sha256Hex(id), now],
  );
  const row = rows[0];
  return row && { userId: Number(row.user_id), csrfToken: row.csrf_token, expiresAt: new Date(row.expires_at) };
}

export async function deleteSession(db: Queryable, id: string): Promise<void> {
  await db.query("delete from sessions where id_hash = $1", [sha256Hex(id)]);
}
