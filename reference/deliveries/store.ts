/**
 * The delivery tables (007_hook_deliveries.sql, 009_pending_deliveries.sql). A delivery's row is
 * written at enqueue (`insertPending`, in the transaction of its pg-boss job), holding the
 * payload JSON in `body` with `content_type` null until the first attempt fixes what is sent;
 * so the payload is stored once, as text, and read back once per attempt. Attempts are written
 * in batches, each batch in one transaction with the pg-boss jobs it completes and schedules
 * (recorder.ts), so the log, the queue and the hooks' last_response never disagree.
 */
import type { Queryable } from "../db/database.ts";
import type { SendRow } from "./request.ts";

/** Rows per insert of pending deliveries: 5 parameters each, far below PostgreSQL's 65,535. */
const PENDING_CHUNK = 500;

/**
 * Deliveries waiting for their first attempt (queue.ts): one multi-row VALUES statement per
 * PENDING_CHUNK, each payload its own text parameter — the database stores the bytes it is
 * given, where a JSON document of all of them would have to be escaped, parsed and unescaped.
 */
export async function insertPending(
  tx: Queryable, rows: { guid: string; hook_id: number; event: string; action: string | null; payload: string }[], notify?: string,
): Promise<void> {
  for (let at = 0; at < rows.length; at += PENDING_CHUNK) {
    const chunk = rows.slice(at, at + PENDING_CHUNK);
    const params: unknown[] = [];
    const values = chunk.map((r) => {
      const n = params.push(r.guid, r.hook_id, r.event, r.action, r.payload);
      return `($${n - 4}::uuid, $${n - 3}::bigint, $${n - 2}, $${n - 1}, $${n})`;
    });
    const insert = `insert into hook_deliveries (guid, hook_id, event, action, body) values ${values.join(", ")}`;
    // `notify`: a channel to NOTIFY in the same statement (PostgreSQL delivers it at commit) — one
    // round trip less while the enqueuing action holds its repository's lock (queue.ts).
    if (notify !== undefined && at === 0) {
      params.push(notify);
      await tx.query(`with ins as (${insert}) select pg_notify($${params.length}, '')`, params);
    } else await tx.query(insert, params);
  }
}

/** A hook's owner: its organization, or its repository's owner (fair-slots.ts shares slots by it). */
const OWNER = "coalesce(h.org_id, (select r.owner_id from repositories r where r.id = h.repo_id))::int";

/**
 * What the attempts of `jobs` need: their hooks, and the delivery rows of the logged deliveries
 * (jobs of before migration 009 carry theirs: `hookId` given), in one statement.
 */
export async function loadForSend(db: Queryable, jobs: { guid: string; hookId?: number }[]): Promise<{ hooks: Map<number, HookForSend>; deliveries: Map<string, DeliveryForSend> }> {
  const logged = jobs.filter((j) => j.hookId === undefined).map((j) => j.guid);
  const carried = [...new Set(jobs.flatMap((j) => (j.hookId === undefined ? [] : [j.hookId])))];
  const rows = await db.query<DeliveryForSend & { hook: HookForSend }>(
    `select d.guid::text as guid, d.hook_id::int as hook_id, d.event, d.action, d.content_type, d.body, d.payload,
            json_build_object('id', h.id::int, 'name', h.name, 'active', h.active, 'config', h.config, 'secret_sealed', h.secret_sealed, 'owner', ${OWNER}) as hook
       from hook_deliveries d join hooks h on h.id = d.hook_id where d.guid = any($1::uuid[])
     union all
     select null, h.id::int, null, null, null, null, null,
            json_build_object('id', h.id::int, 'name', h.name, 'active', h.active, 'config', h.config, 'secret_sealed', h.secret_sealed, 'owner', ${OWNER})
       from hooks h where h.id = any($2::bigint[])`,
    [logged, carried],
  );
  const hooks = new Map<number, HookForSend>();
  const deliveries = new Map<string, DeliveryForSend>();
  for (const { hook, ...delivery } of rows) {
    hooks.set(hook.id, hook);
    if (delivery.guid !== null) deliveries.set(delivery.guid, delivery);
  }
  return { hooks, deliveries };
}

export interface HookForSend {
  id: number;
  name: string;
  active: boolean;
  config: Record<string, string>;
  secret_sealed: string | null;
  /** The organization or the repository owner whose hook it is. */
  owner: number | null;
}

export interface DeliveryForSend {
  guid: string;
  hook_id: number;
  event: string;
  action: string | null;
  /** Null until the first attempt: `body` is then the payload JSON. */
  content_type: string | null;
  body: string;
  payload: string | null;
}

export type { SendRow };

export interface AttemptRecord {
  guid: string;
  hookId: number;
  event: string;
  action: string | null;
  redelivery: boolean;
  deliveredAt: Date;
  durationMs: number;
  status: string;
  statusCode: number;
  nextAttemptAt: Date | null;
  url: string;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  responseBody: string | null;
  /** The first attempt of a job of before migration 009: it writes the delivery's row (body, content type, a service hook's payload). */
  first?: { body: string; contentType: string; payload: string | null };
  /**
   * The first attempt of a delivery written at enqueue: the content type it fixed, the body when
   * it is not the stored payload JSON itself, and whether the payload is kept apart (service hooks).
   */
  fixes?: { contentType: string; body: string | null; keepPayload: boolean };
}

const ATTEMPT_RECORDSET = `json_to_recordset($ATTEMPTS::json) as x(guid uuid, delivery_id bigint, hook_id bigint, attempt int, redelivery boolean,
  delivered_at timestamptz, duration double precision, status text, status_code int, next_attempt_at timestamptz, url text, request_headers jsonb,
  response_headers jsonb, response_body text)`;
const ATTEMPT_COLUMNS_IN = `hook_id, attempt, redelivery, delivered_at, duration, status, status_code, next_attempt_at, url, request_headers,
  response_headers, response_body`;

/** One attempt as the statements below read it; `delivery_id` is filled for known deliveries. */
function attemptRow(r: AttemptRecord, attempt: number, deliveryId: number | null) {
  return {
    guid: r.guid,
    delivery_id: deliveryId,
    hook_id: r.hookId,
    attempt,
    redelivery: r.redelivery,
    delivered_at: r.deliveredAt.toISOString(),
    duration: r.durationMs / 1000,
    status: r.status,
    status_code: r.statusCode,
    next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
    url: r.url,
    request_headers: r.requestHeaders,
    response_headers: r.responseHeaders,
    response_body: r.responseBody,
  };
}

/**
 * Writes attempts, numbered within their delivery in the order given, in one statement for the
 * whole batch: each delivery's count is raised (and a first attempt's fixes stored), then its
 * attempts are inserted. First attempts of jobs of before migration 009 insert their delivery
 * and themselves in a statement of their own. Deliveries whose hook was deleted meanwhile have
 * no row left, and their attempts are left out. Per-statement costs dominate on PGlite, so
 * the statement count per batch is what matters, not its rows.
 */
export async function insertAttempts(tx: Queryable, records: AttemptRecord[]): Promise<void> {
  const fresh = records.filter((r) => r.first);
  const freshGuids = new Set(fresh.map((r) => r.guid));
  const later = records.filter((r) => !freshGuids.has(r.guid));
  if (fresh.length > 0) {
    const deliveries = fresh.map((r) => ({ guid: r.guid, hook_id: r.hookId, event: r.event, action: r.action, content_type: r.first!.contentType, body: r.first!.body, payload: r.first!.payload }));
    await tx.query(
      `with d as (
         insert into hook_deliveries (guid, hook_id, event, action, content_type, body, payload, attempts)
         select x.guid, x.hook_id, x.event, x.action, x.content_type, x.body, x.payload, 1
           from json_to_recordset($1::json) as x(guid uuid, hook_id bigint, event text, action text, content_type text, body text, payload text)
          where exists (select 1 from hooks h where h.id = x.hook_id)
         on conflict (guid) do nothing
         returning id, guid
       )
       insert into hook_delivery_attempts (delivery_id, ${ATTEMPT_COLUMNS_IN})
       select d.id, ${ATTEMPT_COLUMNS_IN} from ${ATTEMPT_RECORDSET.replace("$ATTEMPTS", "$2")} join d using (guid)`,
      [JSON.stringify(deliveries), JSON.stringify(fresh.map((r) => attemptRow(r, 1, null)))],
    );
  }
  if (later.length === 0) return;
  // Numbered after the delivery's count, in the order given; the first attempt's fixes applied
  // only while the row is still pending (content_type null): `set` reads the old row.
  await tx.query(
    `with x as (
       select x.*, row_number() over (partition by x.guid order by x.ord) as k, count(*) over (partition by x.guid) as n
         from json_to_recordset($1::json) as x(ord int, guid uuid, hook_id bigint, redelivery boolean, delivered_at timestamptz,
              duration double precision, status text, status_code int, next_attempt_at timestamptz, url text, request_headers jsonb,
              response_headers jsonb, response_body text, fix_content_type text, fix_body text, keep_payload boolean)
     ), f as (
       select guid, max(n)::int as n, max(fix_content_type) as content_type, max(fix_body) as body, bool_or(coalesce(keep_payload, false)) as keep_payload
         from x group by guid
     ), u as (
       update hook_deliveries d set attempts = d.attempts + f.n,
              content_type = coalesce(d.content_type, f.content_type),
              body = case when d.content_type is null and f.body is not null then f.body else d.body end,
              payload = case when d.content_type is null and f.keep_payload then d.body else d.payload end
         from f where d.guid = f.guid
       returning d.id, d.guid, d.attempts - f.n as before
     )
     insert into hook_delivery_attempts (delivery_id, ${ATTEMPT_COLUMNS_IN})
     select u.id, x.hook_id, u.before + x.k, x.redelivery, x.delivered_at, x.duration, x.status, x.status_code, x.next_attempt_at, x.url,
            x.request_headers, x.response_headers, x.response_body
       from x join u using (guid) order by x.ord`,
    [
      JSON.stringify(
        later.map((r, ord) => ({
          ...attemptRow(r, 0, null),
          ord,
          fix_content_type: r.fixes?.contentType ?? null,
          fix_body: r.fixes?.body ?? null,
          keep_payload: r.fixes?.keepPayload ?? false,
        })),
      ),
    ],
  );
}

export interface AttemptRow {
  id: number;
  guid: string;
  delivered_at: Date | string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  attempt: number;
  next_attempt_at: Date | string | null;
  url: string;
}

export interface AttemptDetailRow extends AttemptRow {
  request_headers: Record<string, string>;
  response_headers: Record<string, string>;
  response_body: string | null;
  content_type: string;
  body: string;
}

const ATTEMPT_COLUMNS = `a.id::int as id, d.guid::text as guid, a.delivered_at, a.redelivery, a.duration, a.status, a.status_code, d.event, d.action,
  a.attempt, a.next_attempt_at, a.url`;

/** One page of a hook's log, newest first, with the total for `Link`. */
export async function listAttempts(db: Queryable, hookId: number, limit: number, offset: number): Promise<{ rows: AttemptRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    limit === 0
      ? Promise.resolve([] as AttemptRow[])
      : db.query<AttemptRow>(
          `select ${ATTEMPT_COLUMNS} from hook_delivery_attempts a join hook_deliveries d on d.id = a.delivery_id
            where a.hook_id = $1 order by a.id desc limit $2 offset $3`,
          [hookId, limit, offset],
        ),
    db.query<{ n: number }>("select count(*)::int as n from hook_delivery_attempts where hook_id = $1", [hookId]),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

export async function getAttempt(db: Queryable, hookId: number, attemptId: number): Promise<AttemptDetailRow | undefined> {
  const rows = await db.query<AttemptDetailRow>(
    `select ${ATTEMPT_COLUMNS}, a.request_headers, a.response_headers, a.response_body, d.content_type, d.body
       from hook_delivery_attempts a join hook_deliveries d on d.id = a.delivery_id
      where a.hook_id = $1 and a.id = $2`,
    [hookId, attemptId],
  );
  return rows[0];
}

/** The guid of the delivery an attempt belongs to (for a redelivery). */
export async function deliveryOfAttempt(db: Queryable, hookId: number, attemptId: number): Promise<string | undefined> {
  const rows = await db.query<{ guid: string }>(
    "select d.guid::text as guid from hook_delivery_attempts a join hook_deliveries d on d.id = a.delivery_id where a.hook_id = $1 and a.id = $2",
    [hookId, attemptId],
  );
  return rows[0]?.guid;
}
