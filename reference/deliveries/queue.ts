/**
 * Putting deliveries on the queue, always inside the caller's transaction, so a delivery exists
 * exactly when what caused it does: the domain listener (one delivery per matching active hook
 * for each activity an action records, payload built then, from the state the action left),
 * pings (hook creation, `POST …/pings`), the latest push for `POST …/tests`, and redeliveries.
 * Each is the delivery's row, holding the payload as JSON text (key order kept) until its first
 * attempt fixes the body (store.ts), and one pg-boss job naming its guid, sent with the
 * transaction as its connection: the payload is written once, as text, never as job JSON.
 * `wake` tells this process's worker there is work (PGlite: its next read waits for the
 * commit); on PostgreSQL a NOTIFY in the same transaction wakes every instance at commit.
 */
import { randomUUID } from "node:crypto";
import type PgBoss from "pg-boss";
import type { Queryable } from "../db/database.ts";
import type { HookPings, Urls } from "../context.ts";
import type { Listener, Recorded } from "../domain/context.ts";
import { hookById, hookOwner, matchingHooks, type HookRow } from "../store/hooks.ts";
import { hookJson } from "../serialize/hook.ts";
import { ORG_ONLY_EVENTS, webhookEventOf, webhookOrganization, webhookPayload, webhookRepository, webhookSender } from "../webhooks/payloads.ts";
import { DELIVERY_QUEUE, inTransaction, type DeliveryJobData } from "./boss.ts";
import type { PendingPayloads } from "./payloads.ts";
import { insertPending } from "./store.ts";
import { zen } from "./zen.ts";

/** The NOTIFY channel that wakes the workers of every instance on PostgreSQL. */
export const WAKE_CHANNEL = "service_contract_deliveries";

export interface QueueOptions {
  /** Send a NOTIFY with each enqueue (PostgreSQL; PGlite has a single process). */
  notify: boolean;
  /** This process's worker, if it runs one. */
  wake?: () => void;
  /** Where this process's worker looks for the payloads enqueued here first (payloads.ts). */
  payloads?: PendingPayloads;
}

export class DeliveryQueue implements HookPings {
  readonly #boss: PgBoss;
  readonly #urls: Urls;
  readonly #options: QueueOptions;

  constructor(boss: PgBoss, urls: Urls, options: QueueOptions) {
    this.#boss = boss;
    this.#urls = urls;
    this.#options = options;
  }

  /** The domain listener: deliveries for each activity an action records. */
  readonly listener: Listener = async (tx, recorded) => {
    if (recorded.kind !== "activity") return;
    const event = webhookEventOf(recorded.type);
    if (!event) return;
    const orgId = typeof (recorded.body.org as { id?: unknown } | undefined)?.id === "number" ? (recorded.body.org as { id: number }).id : null;
    // Most actions reach no hook at all: find that out before building any payload.
    let hooks = await matchingHooks(tx, { event, repoId: recorded.repoId, orgId });
    // Organization-level events (no repository in the payload) go to organization hooks only.
    if (ORG_ONLY_EVENTS.includes(event)) hooks = hooks.filter((h) => h.org_id !== null);
    if (hooks.length === 0) return;
    const built = await webhookPayload(tx, this.#urls, recorded);
    if (!built) return;
    if (built.repoId === null) hooks = hooks.filter((h) => h.org_id !== null);
    await this.enqueueMany(tx, hooks.map((hook) => ({ hookId: hook.id, event: built.event, action: built.action, payload: built.payload })));
  };

  /** HookPings: a ping delivery (a created hook, `POST …/pings`). Nothing for an inactive hook. */
  async ping(tx: Queryable, hookId: number, senderId: number | null): Promise<void> {
    const hook = await hookById(tx, hookId);
    if (!hook?.active) return;
    const owner = await hookOwner(tx, hook);
    if (!owner) return;
    // The pinged hook is the hook API's object plus what it is attached to (`type`, beyond the
    // seed: D-WEBHOOK-NODE-ID), as the ping schema describes it.
    const type = owner.kind === "repo" ? "Repository" : "Organization";
    const payload: Record<string, unknown> = { zen: zen(), hook_id: hook.id, hook: { type, ...hookJson(hook, this.#urls, owner) } };
    if (senderId !== null) payload.sender = await webhookSender(tx, this.#urls, senderId);
    if (hook.repo_id !== null) payload.repository = await webhookRepository(tx, this.#urls, hook.repo_id);
    else if (hook.org_id !== null) payload.organization = await webhookOrganization(tx, this.#urls, hook.org_id);
    await this.enqueue(tx, hook.id, "ping", null, payload);
  }

  /**
   * `POST …/tests`: the repository's latest push, its payload rebuilt from the stored activity,
   * when the hook is active and subscribed to push; false when nothing was sent.
   */
  async testPush(tx: Queryable, hook: HookRow): Promise<boolean> {
    if (!hook.active || hook.repo_id === null || !(hook.events.includes("*") || hook.events.includes("push"))) return false;
    const [latest] = await tx.query<{ id: number; type: string; repo_id: number; actor_id: number; public: boolean; body: Record<string, unknown>; detail: Record<string, unknown> | null }>(
      "select id::int as id, type, repo_id::int as repo_id, actor_id::int as actor_id, public, body, detail from events where repo_id = $1 and type = 'PushEvent' order by id desc limit 1",
      [hook.repo_id],
    );
    if (!latest) return false;
    const recorded: Extract<Recorded, { kind: "activity" }> = { kind: "activity", id: latest.id, type: latest.type, repoId: latest.repo_id, actorId: latest.actor_id, public: latest.public, body: latest.body, ...(latest.detail ? { detail: latest.detail } : {}) };
    const built = await webhookPayload(tx, this.#urls, recorded);
    if (!built) return false;
    await this.enqueue(tx, hook.id, built.event, built.action, built.payload);
    return true;
  }

  /** A new attempt at a logged delivery: same guid, same bytes, one attempt. */
  async redeliver(tx: Queryable, guid: string): Promise<void> {
    await this.#send(tx, { guid, try: 1, redelivery: true });
  }

  /** One delivery of `payload` to the hook: the building block of the above. Returns its guid. */
  async enqueue(tx: Queryable, hookId: number, event: string, action: string | null, payload: Record<string, unknown>): Promise<string> {
    const [guid] = await this.enqueueMany(tx, [{ hookId, event, action, payload }]);
    return guid!;
  }

  /** Several deliveries in one statement (one event to several hooks, bulk loads). Returns their guids. */
  async enqueueMany(tx: Queryable, deliveries: { hookId: number; event: string; action: string | null; payload: Record<string, unknown> }[]): Promise<string[]> {
    const rows = deliveries.map((d) => ({ guid: randomUUID(), hook_id: d.hookId, event: d.event, action: d.action, payload: JSON.stringify(d.payload) }));
    if (rows.length === 0) return [];
    // The NOTIFY goes with the rows' insert: it is delivered at commit all the same.
    await insertPending(tx, rows, this.#options.notify ? WAKE_CHANNEL : undefined);
    for (const r of rows) this.#options.payloads?.add(r.guid, { hook: r.hook_id, event: r.event, action: r.action, payload: r.payload });
    const jobs = rows.map((r): DeliveryJobData => ({ guid: r.guid, try: 1, redelivery: false }));
    if (jobs.length === 1) await this.#boss.send(DELIVERY_QUEUE, jobs[0]!, { db: inTransaction(tx) });
    else await this.#boss.insert(jobs.map((data) => ({ name: DELIVERY_QUEUE, data })), { db: inTransaction(tx) as PgBoss.Db });
    this.#options.wake?.();
    return jobs.map((j) => j.guid);
  }

  async #send(tx: Queryable, data: DeliveryJobData): Promise<void> {
    await this.#boss.send(DELIVERY_QUEUE, data, { db: inTransaction(tx) });
    if (this.#options.notify) await tx.query("select pg_notify($1, '')", [WAKE_CHANNEL]);
    this.#options.wake?.();
  }
}
