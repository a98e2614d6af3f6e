/** Registered OAuth applications. The client secret is stored as a SHA-256 digest only. */
import type { Queryable } from "../db/database.ts";
import { constantTimeEqual, sha256Hex } from "../auth/secrets.ts";
import { canNameRow } from "./text-key.ts";

export interface Application {
  id: number;
  client_id: string;
  name: string;
  url: string;
  callback_url: string;
  owner_id: number | null;
  suspended: boolean;
}

const COLUMNS = "id, client_id, name, url, callback_url, owner_id, suspended";

export async function findApplication(db: Queryable, clientId: string): Promise<Application | undefined> {
  if (!canNameRow(clientId)) return undefined;
  return (await db.query<Application>(`select ${COLUMNS} from oauth_applications where client_id = $1`, [clientId]))[0];
}

export async function findApplicationById(db: Queryable, id: number): Promise<Application | undefined> {
  return (await db.query<Application>(`select ${COLUMNS} from oauth_applications where id = $1`, [id]))[0];
}

export interface NewApplication {
  clientId: string;
  clientSecret: string;
  name: string;
  url: string;
  callbackUrl: string;
  ownerId?: number;
  suspended?: boolean;
}

export async function createApplication(db: Queryable, app: NewApplication): Promise<Application> {
  const rows = await db.query<Application>(
    `insert into oauth_applications (client_id, client_secret_hash, name, url, callback_url, owner_id, suspended)
     values ($1, $2, $3, $4, $5, $6, $7) returning ${COLUMNS}`,
    [app.clientId, sha256Hex(app.clientSecret), app.name, app.url, app.callbackUrl, app.ownerId ?? null, app.suspended ?? false],
  );
  return rows[0]!;
}

/**
 * The application when client_id and client_secret both match. The secret is compared as
 * digests in constant time; an unknown client_id costs the same comparison.
 */
export async function verifyClientCredentials(db: Queryable, clientId: string, clientSecret: string): Promise<Application | undefined> {
  if (!canNameRow(clientId)) return undefined;
  const rows = await db.query<Application & { client_secret_hash: string }>(
    `select ${COLUMNS}, client_secret_hash from oauth_applications where client_id = $1`,
    [clientId],
  );
  const row = rows[0];
  const ok = constantTimeEqual(sha256Hex(clientSecret), row?.client_secret_hash ?? "0".repeat(64));
  if (!ok || !row) return undefined;
  const { client_secret_hash: _hidden, ...app } = row;
  return app;
}
