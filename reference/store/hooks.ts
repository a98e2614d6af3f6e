/**
 * Repository and organization hooks (006_hooks.sql): the queries of hook management and the
 * three the delivery engine needs — which active hooks receive an event (`matchingHooks`), one
 * hook by id (`hookById`), and the outcome of its latest delivery (`setLastResponses`). Rows keep
 * the webhook secret sealed in `secret_sealed` and service `password` values sealed inside
 * `config`; the readers the engine uses load the secret key so it can open them.
 */
import type { Queryable } from "../db/database.ts";
import { serviceSupports } from "../hooks/catalog.ts";
import { loadSecretKey } from "../hooks/secret-box.ts";

export interface LastResponse {
  code: number | null;
  status: string;
  message: string | null;
}

export interface HookRow {
  id: number;
  repo_id: number | null;
  org_id: number | null;
  /** `web` or a catalog service. */
  name: string;
  /** `["*"]`, or sorted unique event names. */
  events: string[];
  active: boolean;
  /** As served, except that service `password` values are sealed (and never served). */
  config: Record<string, string>;
  /** The webhook secret, sealed (hooks/secret-box.ts); null: no secret, no signatures. */
  secret_sealed: string | null;
  /** The OAuth application whose token created the hook; null for a user's own token. */
  app_id: number | null;
  creator_id: number | null;
  last_response: LastResponse;
  created_at: Date | string;
  updated_at: Date | string;
}

/** Where a hook is installed, with the names its URLs are built from. */
export type HookOwner = { kind: "repo"; owner: string; name: string } | { kind: "org"; login: string };

const COLUMNS =
  "id::int as id, repo_id::int as repo_id, org_id::int as org_id, name, events, active, config, secret_sealed, app_id::int as app_id, creator_id::int as creator_id, last_response, created_at, updated_at";

/** Where to look: one repository, or one organization as seen by one token's application. */
export type HookScope = { repoId: number } | { orgId: number; appId: number | null };

/** The SQL condition of a scope, its parameters numbered from `from`. */
function scopeWhere(scope: HookScope, from: number): { sql: string; params: unknown[] } {
  if ("repoId" in scope) return { sql: `repo_id = $${from}::bigint`, params: [scope.repoId] };
  // An OAuth token sees only the hooks its application created; a personal token only those a user created.
  return { sql: `org_id = $${from}::bigint and app_id is not distinct from $${from + 1}::bigint`, params: [scope.orgId, scope.appId] };
}

export async function listHooks(db: Queryable, scope: HookScope, limit: number, offset: number): Promise<{ rows: HookRow[]; total: number }> {
  const where = scopeWhere(scope, 1);
  const n = where.params.length;
  const [rows, count] = await Promise.all([
    limit === 0 ? Promise.resolve([] as HookRow[]) : db.query<HookRow>(`select ${COLUMNS} from hooks where ${where.sql} order by id limit $${n + 1} offset $${n + 2}`, [...where.params, limit, offset]),
    db.query<{ n: number }>(`select count(*)::int as n from hooks where ${where.sql}`, where.params),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

/** One hook in a scope; `forUpdate` locks it for the rest of the transaction. */
export async function findHook(db: Queryable, scope: HookScope, id: number, forUpdate = false): Promise<HookRow | undefined> {
  const where = scopeWhere(scope, 2);
  const rows = await db.query<HookRow>(`select ${COLUMNS} from hooks where id = $1::bigint and ${where.sql}${forUpdate ? " for update" : ""}`, [id, ...where.params]);
  return rows[0];
}

/** The repository's hook of a service (there is at most one), locked for update. */
export async function findServiceHook(tx: Queryable, repoId: number, name: string): Promise<HookRow | undefined> {
  return (await tx.query<HookRow>(`select ${COLUMNS} from hooks where repo_id = $1::bigint and name = $2 for update`, [repoId, name]))[0];
}

/** Whether another webhook where `target` says already posts to `url`. */
export async function webUrlTaken(db: Queryable, target: { repoId: number } | { orgId: number }, url: string, exceptId?: number): Promise<boolean> {
  const [column, value] = "repoId" in target ? ["repo_id", target.repoId] : ["org_id", target.orgId];
  const rows = await db.query(`select 1 from hooks where ${column} = $1::bigint and name = 'web' and config->>'url' = $2 and id <> $3::bigint`, [value, url, exceptId ?? 0]);
  return rows.length > 0;
}

export interface NewHook {
  repoId: number | null;
  orgId: number | null;
  name: string;
  events: readonly string[];
  active: boolean;
  config: Record<string, string>;
  secretSealed: string | null;
  appId: number | null;
  creatorId: number | null;
  now: Date;
}

export async function insertHook(tx: Queryable, h: NewHook): Promise<HookRow> {
  const rows = await tx.query<HookRow>(
    `insert into hooks (repo_id, org_id, name, events, active, config, secret_sealed, app_id, creator_id, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $10) returning ${COLUMNS}`,
    [h.repoId, h.orgId, h.name, [...h.events], h.active, JSON.stringify(h.config), h.secretSealed, h.appId, h.creatorId, h.now.toISOString()],
  );
  return rows[0]!;
}

export interface HookChanges {
  events: readonly string[];
  active: boolean;
  config: Record<string, string>;
  secretSealed: string | null;
  now: Date;
}

/** Writes a hook's editable values (all of them: the handler has merged the request in). */
export async function updateHook(tx: Queryable, id: number, c: HookChanges): Promise<HookRow> {
  const rows = await tx.query<HookRow>(
    `update hooks set events = $2, active = $3, config = $4::jsonb, secret_sealed = $5, updated_at = $6 where id = $1 returning ${COLUMNS}`,
    [id, [...c.events], c.active, JSON.stringify(c.config), c.secretSealed, c.now.toISOString()],
  );
  return rows[0]!;
}

/** Deletes a hook in a scope; false when there was none. */
export async function deleteHook(db: Queryable, scope: HookScope, id: number): Promise<boolean> {
  const where = scopeWhere(scope, 2);
  const rows = await db.query(`delete from hooks where id = $1::bigint and ${where.sql} returning id`, [id, ...where.params]);
  return rows.length > 0;
}

/** A unique index of the hooks table refused a row (a race the handlers' checks lost). */
export function isHookConflict(error: unknown, index: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  return !!e && e.code === "23505" && (e.constraint === index || String(e.message).includes(index));
}

/**
 * The active hooks that receive `event`: the repository's hooks and the organization's, each
 * subscribed to it or to `*`; a service hook only when its service supports the event. Ordered
 * by id. Loads the secret key, so the engine may open `secret_sealed` and service passwords.
 */
export async function matchingHooks(tx: Queryable, target: { event: string; repoId: number | null; orgId: number | null }): Promise<HookRow[]> {
  if (target.repoId === null && target.orgId === null) return [];
  await loadSecretKey(tx);
  const rows = await tx.query<HookRow>(
    `select ${COLUMNS} from hooks
      where active and (repo_id = $1::bigint or org_id = $2::bigint) and ('*' = any(events) or $3::text = any(events))
      order by id`,
    [target.repoId, target.orgId, target.event],
  );
  return rows.filter((h) => serviceSupports(h.name, target.event));
}

/** One hook by id, wherever it is installed. Loads the secret key (see matchingHooks). */
export async function hookById(tx: Queryable, id: number): Promise<HookRow | undefined> {
  if (!Number.isSafeInteger(id) || id < 1) return undefined;
  await loadSecretKey(tx);
  return (await tx.query<HookRow>(`select ${COLUMNS} from hooks where id = $1::bigint`, [id]))[0];
}

/** Records the outcome of each hook's latest delivery (served as `last_response`), in one statement for a recorder batch. */
export async function setLastResponses(tx: Queryable, latest: ReadonlyMap<number, LastResponse>): Promise<void> {
  if (latest.size === 0) return;
  const rows = [...latest].map(([id, last]) => ({ id, last: { code: last.code, status: last.status, message: last.message } }));
  await tx.query("update hooks h set last_response = x.last from json_to_recordset($1::json) as x(id bigint, last jsonb) where h.id = x.id", [JSON.stringify(rows)]);
}

/** The repository or organization a hook is installed on, for its URLs (serialize/hook.ts). */
export async function hookOwner(tx: Queryable, row: Pick<HookRow, "repo_id" | "org_id">): Promise<HookOwner | undefined> {
  if (row.repo_id !== null) {
    const repo = (
      await tx.query<{ owner: string; name: string }>("select o.login as owner, r.name from repositories r join accounts o on o.id = r.owner_id where r.id = $1", [row.repo_id])
    )[0];
    return repo ? { kind: "repo", owner: repo.owner, name: repo.name } : undefined;
  }
  if (row.org_id === null) return undefined;
  const org = (await tx.query<{ login: string }>("select login from accounts where id = $1", [row.org_id]))[0];
  return org ? { kind: "org", login: org.login } : undefined;
}
