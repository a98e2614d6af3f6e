/** Users and organizations (one table, one id space, as in the service). */
import type { Queryable } from "../db/database.ts";
import { hashPassword, verifyPassword } from "../auth/secrets.ts";
import { canNameRow } from "./text-key.ts";
import { sealTotpSeed } from "../auth/totp-seeds.ts";

export interface Account {
  id: number;
  login: string;
  type: "User" | "Organization";
  name: string | null;
  email: string | null;
  site_admin: boolean;
  two_factor: "app" | "sms" | null;
  /** Sealed (auth/totp-seeds.ts). */
  totp_secret: string | null;
  created_at: string;
}

const COLUMNS = "id, login, type, name, email, site_admin, two_factor, totp_secret, created_at";

export async function findAccountByLogin(db: Queryable, login: string): Promise<Account | undefined> {
  const rows = await db.query<Account>(`select ${COLUMNS} from accounts where lower(login) = lower($1)`, [login]);
  return rows[0];
}

export async function findAccountById(db: Queryable, id: number): Promise<Account | undefined> {
  return (await db.query<Account>(`select ${COLUMNS} from accounts where id = $1`, [id]))[0];
}

export interface NewUser {
  login: string;
  password?: string;
  name?: string;
  email?: string;
  twoFactor?: { method: "app" | "sms"; secret: string };
  siteAdmin?: boolean;
}

/** A new user; a TOTP seed is stored sealed (auth/totp-seeds.ts). */
export async function createUser(db: Queryable, user: NewUser): Promise<Account> {
  const passwordHash = user.password ? await hashPassword(user.password) : null;
  const seed = user.twoFactor ? await sealTotpSeed(db, user.twoFactor.secret) : null;
  const rows = await db.query<Account>(
    `insert into accounts (login, type, name, email, password_hash, two_factor, totp_secret, site_admin)
     values ($1, 'User', $2, $3, $4, $5, $6, $7) returning ${COLUMNS}`,
    [user.login, user.name ?? null, user.email ?? null, passwordHash, user.twoFactor?.method ?? null, seed, user.siteAdmin ?? false],
  );
  return rows[0]!;
}

export async function createOrganization(db: Queryable, org: { login: string; name?: string }): Promise<Account> {
  const rows = await db.query<Account>(`insert into accounts (login, type, name) values ($1, 'Organization', $2) returning ${COLUMNS}`, [org.login, org.name ?? null]);
  return rows[0]!;
}

/** The user when login and password match; undefined otherwise (same work either way). */
export async function authenticatePassword(db: Queryable, login: string, password: string): Promise<Account | undefined> {
  if (!canNameRow(login)) return undefined;
  const rows = await db.query<Account & { password_hash: string | null }>(
    `select ${COLUMNS}, password_hash from accounts where lower(login) = lower($1) and type = 'User'`,
    [login],
  );
  const row = rows[0];
  const ok = await verifyPassword(password, row?.password_hash ?? null);
  if (!ok || !row) return undefined;
  const { password_hash: _hidden, ...account } = row;
  return account;
}

export async function addOrgMember(db: Queryable, orgId: number, userId: number, role: "member" | "admin" = "member"): Promise<void> {
  await db.query("insert into org_members (org_id, user_id, role) values ($1, $2, $3) on conflict do nothing", [orgId, userId, role]);
}

export async function isOrgMember(db: Queryable, orgId: number, userId: number): Promise<boolean> {
  return (await db.query("select 1 from org_members where org_id = $1 and user_id = $2", [orgId, userId])).length > 0;
}
