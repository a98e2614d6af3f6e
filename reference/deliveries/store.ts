/**
 * The delivery tables (007_hook_deliveries.sql). A delivery's row is written together with its
 * first attempt: until then its payload travels in its pg-boss job (queue.ts), which keeps the
 * enqueue — done inside every domain action — to one statement. Attempts are written in batches,
 * each batch in one transaction with the pg-boss jobs it completes and schedules (recorder.ts),
 * so the log, the queue and the hooks' last_response never disagree.
 */
import type { Queryable } from "../db/database.ts";
import type { SendRow } from "./request.ts";

/** What an attempt needs that its job does not carry: the hook, and for retries the delivery. */
export async function loadForSend(db: Queryable, jobs: { guid: string; hookId?: number }[]): Promise<{ hooks: Map<number, HookForSend>; deliveries: Map<string, DeliveryForSend> }> {
  const logged = jobs.filter((j) => j.hookId === undefined).map((j) => j.guid);
  const deliveries = logged.length === 0
    ? []
    : await db.query<DeliveryForSend>(
        "select guid::text as guid, hook_id::int as hook_id, event, action, content_type, body, payload from hook_deliveries where guid = any($1::uuid[])",
        [logged],
      );
  const hookIds = [...new Set([...jobs.flatMap((j) => (j.hookId === undefined ? [] : [j.hookId])), ...deliveries.map((d) => d.hook_id)])];
  const hooks = hookIds.length === 0
    ? []
    : await db.query<HookForSend>("select id::int as id, name, active, config, secret_sealed from hooks where id = any($1::bigint[])", [hookIds]);
  return { hooks: new Map(hooks.map((h) => [h.id, h])), deliveries: new Map(deliveries.map((d) => [d.guid, d])) };
}

export interface HookForSend {
  id: number;
  name: string;
  active: boolean;
  config: Record<string, string>;
  secret_sealed: string | null;
}

export interface DeliveryForSend {
  guid: string;
  hook_id: number;
  event: string;
  action: string | null;
  content_type: string;
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
  /** The first attempt: the body and content type it fixed for every later one (and a service hook's payload). */
  first?: { body: string; contentType: string; payload: string | null };
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
 * Writes attempts, numbered within their delivery in the order given: first attempts insert
 * their delivery and themselves in one statement; later ones raise their delivery's count, then
 * are inserted. Deliveries whose hook was deleted meanwhile are left out. Simple statements on
 * purpose: on PGlite planning a statement costs more than the rows it writes.
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
  const counts = new Map<string, number>();
  for (const r of later) counts.set(r.guid, (counts.get(r.guid) ?? 0) + 1);
  const updated = await tx.query<{ id: number; guid: string; attempts: number }>(
    `update hook_deliveries d set attempts = d.attempts + x.n from json_to_recordset($1::json) as x(guid uuid, n int)
      where d.guid = x.guid returning d.id::int as id, d.guid::text as guid, d.attempts`,
    [JSON.stringify([...counts].map(([guid, n]) => ({ guid, n })))],
  );
  const next = new Map(updated.map((u) => [u.guid, { id: u.id, attempt: u.attempts - counts.get(u.guid)! + 1 }]));
  // Deliveries whose hook was deleted meanwhile have no row left, and their attempts no place.
  const rows = later.flatMap((r) => {
    const at = next.get(r.guid);
    return at ? [attemptRow(r, at.attempt++, at.id)] : [];
  });
  if (rows.length === 0) return;
  await tx.query(
    `insert into hook_delivery_attempts (delivery_id, ${ATTEMPT_COLUMNS_IN})
     select delivery_id, ${ATTEMPT_COLUMNS_IN} from ${ATTEMPT_RECORDSET.replace("$ATTEMPTS", "$1")}`,
    [JSON.stringify(rows)],
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
