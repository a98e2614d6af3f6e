/**
 * This process's share of the delivery work: it takes jobs from the pg-boss queue (`fetch`,
 * SKIP LOCKED, so instances sharing a PostgreSQL never take the same job), sends each attempt,
 * and hands the outcome to the Recorder. Up to `concurrency` attempts per receiver and per owner are in flight; a slow
 * receiver holds one slot, not the others. Jobs are fetched in batches sized by FetchSize — at
 * least twice the slots, up to about a second of this process's recent sending when there is a
 * backlog — refilled when half of that is left, because each fetch has a fixed cost that grows
 * with the backlog. Slots are shared fairly (fair-slots.ts): one receiver or one owner holds at
 * most `concurrency`, and a quarter as many more are kept for others; jobs held back for that do
 * not stop the worker fetching the jobs behind them (up to a bound), so another owner's delivery
 * is not queued behind a slow receiver's. A job that waited here for a slot so long that it could expire during its
 * attempt (the receivers got slow) is handed back rather than sent twice. Work is looked for
 * when something signals it (an enqueue in this process, a NOTIFY from another, a retry falling
 * due, room freeing up while more was waiting) and otherwise every `pollIntervalMs`.
 */
import { setMaxListeners } from "node:events";
import type PgBoss from "pg-boss";
import type { Database } from "../db/database.ts";
import { loadSecretKey } from "../hooks/secret-box.ts";
import type { LastResponse } from "../store/hooks.ts";
import { DELIVERY_QUEUE, type DeliveryJobData } from "./boss.ts";
import { failJobs } from "./boss-calls.ts";
import { slotWaitMs, type ResolvedDeliveryOptions } from "./options.ts";
import { FetchSize } from "./fetch-size.ts";
import { FairSlots, receiverOf, type Lane } from "./fair-slots.ts";
import { findService, openedConfig } from "../hooks/catalog.ts";
import type { PendingDelivery, PendingPayloads } from "./payloads.ts";
import { Recorder, type Finished } from "./recorder.ts";
import { AttemptStarts } from "./starts.ts";
import { buildRequest, type DeliveryRequest, type SendRow } from "./request.ts";
import { retryDelayMs } from "./schedule.ts";
import { loadForSend, type AttemptRecord } from "./store.ts";
import { sendAttempt, tooLarge, type AttemptOutcome } from "./send.ts";

type Job = PgBoss.Job<DeliveryJobData>;

/** What the hook's last_response says after an attempt (`active` after a success). */
export function lastResponseOf(outcome: AttemptOutcome): LastResponse {
  if (outcome.status === "OK") return { code: outcome.statusCode, status: "active", message: "OK" };
  return { code: outcome.statusCode === 0 ? null : outcome.statusCode, status: outcome.status, message: outcome.message };
}

interface Ready {
  job: Job;
  /** Undefined when the hook (and so the delivery) is gone. */
  row: SendRow | undefined;
  /** performance.now() when it was fetched. */
  fetchedAt: number;
  lane: Lane;
}

/** Where the row's attempt goes and whose hook it is; empty keys when nothing will be sent. */
function laneOf(row: SendRow | undefined): Lane {
  if (!row || !row.hook_active) return { receiver: "", owner: "" };
  let url: string | undefined;
  if (row.hook_name === "web") url = row.config.url;
  else {
    const service = findService(row.hook_name);
    // Opened: a URL key may be a sealed password one (chat's webhook_url).
    const config = service ? openedConfig(service, row.config) : row.config;
    url = service?.targets ? service.targets(config)[0]?.[1] : service?.urlKeys.map((k) => config[k]).find((v) => v !== undefined);
  }
  return { receiver: receiverOf(url), owner: row.owner === null || row.owner === undefined ? "" : String(row.owner) };
}

export class DeliveryWorker {
  readonly #db: Database;
  readonly #boss: PgBoss;
  readonly #options: ResolvedDeliveryOptions;
  readonly #recorder: Recorder;
  readonly #starts: AttemptStarts;
  readonly #fetchSize: FetchSize;
  /** How long a fetched job may wait for a slot (options.ts). */
  readonly #slotWaitMs: number;
  readonly #payloads: PendingPayloads | undefined;
  readonly #inFlight = new Set<Promise<void>>();
  /**
   * Jobs fetched and waiting for a slot, one queue per lane (receiver and owner), each in fetch
   * order: picking the next job costs one look per lane, not one per waiting job.
   */
  readonly #waiting = new Map<string, Ready[]>();
  #waitingCount = 0;
  readonly #slots: FairSlots;
  /** Ready jobs the shares hold back while slots are free (set by #dispatch). */
  #blocked = 0;
  readonly #shutdown = new AbortController();
  readonly #timers = new Set<NodeJS.Timeout>();
  #poll: NodeJS.Timeout | undefined;
  #pending = false;
  #fetching = false;
  #stopped = false;

  /** `payloads`: what this process enqueued (payloads.ts); `onWritten`: attempts logged (housekeeping.ts). */
  constructor(db: Database, boss: PgBoss, options: ResolvedDeliveryOptions, local: { payloads?: PendingPayloads; onWritten?: (n: number) => void } = {}) {
    this.#db = db;
    this.#payloads = local.payloads;
    this.#boss = boss;
    this.#options = options;
    this.#fetchSize = new FetchSize(options.concurrency, options.expireInSeconds);
    this.#slotWaitMs = slotWaitMs(options);
    this.#slots = new FairSlots(options.concurrency);
    this.#starts = new AttemptStarts(db);
    this.#recorder = new Recorder(db, boss, { onError: options.onError, onScheduled: (at) => this.#wakeAt(at), onWritten: local.onWritten });
    // Every attempt in flight listens for the shutdown.
    setMaxListeners(0, this.#shutdown.signal);
  }

  start(): void {
    this.#poll = setInterval(() => this.wake(), this.#options.pollIntervalMs);
    this.#poll.unref();
    this.wake();
  }

  /** There may be work: look for it now (or as soon as there is room). */
  wake(): void {
    if (this.#stopped) return;
    this.#pending = true;
    void this.#pump();
  }

  #wakeAt(at: Date): void {
    if (this.#stopped) return;
    // A few ms late: pg-boss hands out jobs whose start time is strictly past.
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.wake();
    }, Math.max(0, at.getTime() - Date.now()) + 5);
    timer.unref();
    this.#timers.add(timer);
  }

  /** Jobs held here (in flight or fetched and waiting for a slot). */
  get #held(): number {
    return this.#inFlight.size + this.#waitingCount;
  }

  async #pump(): Promise<void> {
    if (this.#fetching) return;
    this.#fetching = true;
    const { concurrency } = this.#options;
    try {
      // Refill only below the low-water mark: a batch is then at least half the target. Jobs the
      // shares hold back do not count (the ones behind them may be sendable), up to a bound.
      while (this.#pending && !this.#stopped && this.#held - this.#blocked <= Math.max(concurrency, this.#fetchSize.target / 2)) {
        const full = Math.max(2 * concurrency, this.#fetchSize.target);
        const room = Math.min(full - (this.#held - this.#blocked), full + 16 * concurrency - this.#held);
        if (room <= 0) break;
        this.#pending = false;
        const jobs = await this.#boss.fetch<DeliveryJobData>(DELIVERY_QUEUE, { batchSize: room });
        if (jobs.length === room) this.#pending = true;
        if (jobs.length > 0) await this.#take(jobs);
      }
    } catch (error) {
      this.#options.onError(error);
    } finally {
      this.#fetching = false;
    }
  }

  async #take(jobs: Job[]): Promise<void> {
    if (this.#stopped) {
      await failJobs(this.#boss, jobs.map((j) => j.id), "the worker stopped");
      return;
    }
    // First attempts of deliveries enqueued here: their payload is still in memory.
    const held = new Map<string, PendingDelivery>();
    for (const { data } of jobs) {
      const pending = data.first || data.try !== 1 || data.redelivery ? undefined : this.#payloads?.take(data.guid);
      if (pending) held.set(data.guid, pending);
    }
    let loaded: Awaited<ReturnType<typeof loadForSend>>;
    try {
      await loadSecretKey(this.#db);
      loaded = await loadForSend(this.#db, jobs.map((j) => ({ guid: j.data.guid, hookId: (j.data.first ?? held.get(j.data.guid))?.hook })));
    } catch (error) {
      await failJobs(this.#boss, jobs.map((j) => j.id), String(error)).catch(this.#options.onError);
      throw error;
    }
    const fetchedAt = performance.now();
    for (const job of jobs) {
      const row = sendRow(job.data, held.get(job.data.guid), loaded);
      const lane = laneOf(row);
      const key = `${lane.receiver}\n${lane.owner}`;
      let queue = this.#waiting.get(key);
      if (!queue) this.#waiting.set(key, (queue = []));
      queue.push({ job, row, fetchedAt, lane });
      this.#waitingCount++;
    }
    this.#dispatch();
  }

  #dispatch(): void {
    // Started now, an attempt may run `timeoutMs`: a job that waited longer than slotWaitMs
    // would expire while being sent. resolveOptions keeps that a second or more, so a job
    // fetched just now is always sent (with no margin nothing could ever be).
    // Each queue is in fetch order, so the jobs that waited too long are at their heads.
    const cutoff = performance.now() - this.#slotWaitMs;
    const back: Ready[] = [];
    for (const [key, queue] of this.#waiting) {
      while (queue.length > 0 && queue[0]!.fetchedAt < cutoff) back.push(queue.shift()!);
      if (queue.length === 0) this.#waiting.delete(key);
    }
    if (back.length > 0) {
      this.#waitingCount -= back.length;
      // pg-boss retries them (after the queue's retry delay), as after a crash.
      void failJobs(this.#boss, back.map((r) => r.job.id), "waited too long for a slot").catch(this.#options.onError);
    }
    while (!this.#stopped && this.#inFlight.size < this.#slots.total) {
      // The oldest job at the head of a queue whose receiver and owner are within their shares.
      let pick: { key: string; queue: Ready[] } | undefined;
      for (const [key, queue] of this.#waiting) {
        if (this.#slots.allowed(queue[0]!.lane) && (!pick || queue[0]!.fetchedAt < pick.queue[0]!.fetchedAt)) pick = { key, queue };
      }
      if (!pick) break;
      const { job, row, lane } = pick.queue.shift()!;
      if (pick.queue.length === 0) this.#waiting.delete(pick.key);
      this.#waitingCount--;
      this.#slots.start(lane);
      const running = this.#attempt(job, row).finally(() => {
        this.#slots.finish(lane);
        this.#fetchSize.finished();
        this.#inFlight.delete(running);
        this.#dispatch();
        if (this.#pending) void this.#pump();
      });
      this.#inFlight.add(running);
    }
    // With slots free, whatever is still waiting is held back by the shares.
    this.#blocked = this.#inFlight.size < this.#slots.total ? this.#waitingCount : 0;
  }

  async #attempt(job: Job, row: SendRow | undefined): Promise<void> {
    try {
      this.#recorder.add(await this.#run(job, row));
    } catch (error) {
      // Not an answer from the receiver but a failure here (or the shutdown): pg-boss retries the job itself.
      if (!this.#shutdown.signal.aborted) this.#options.onError(error);
      await failJobs(this.#boss, [job.id], String(error)).catch(this.#options.onError);
    }
  }

  /** One attempt. Cut short by shutdown, it throws (AttemptCancelled): the job is failed, so handed out again. */
  async #run(job: Job, row: SendRow | undefined): Promise<Finished> {
    // A deleted hook takes its deliveries with it; a paused one is sent nothing.
    if (!row || !row.hook_active) return { jobId: job.id };
    const req = buildRequest(row);
    if (!req) return { jobId: job.id };
    const size = Buffer.byteLength(req.body);
    const tooBig = size > this.#options.maxBodyBytes;
    // In the log before it is sent (starts.ts): a crash during the attempt leaves it `interrupted`.
    // Jobs of before migration 009 have no delivery row to log it against yet.
    if (!tooBig && !job.data.first) {
      await this.#starts.mark({ jobId: job.id, guid: row.guid, hookId: row.hook_id, redelivery: job.data.redelivery, startedAt: new Date(), url: req.url, requestHeaders: req.headers });
    }
    const outcome = tooBig ? tooLarge(size, this.#options.maxBodyBytes) : await sendAttempt(req, this.#options.timeoutMs, this.#shutdown.signal, { egress: this.#options.hookEgress });
    this.#options.onAttempt?.({ guid: row.guid, event: row.event, hookId: row.hook_id, status: outcome.status, statusCode: outcome.statusCode });
    const ok = outcome.status === "OK";
    const delay = ok || !outcome.retryable || job.data.redelivery ? undefined : retryDelayMs(this.#options.schedule, job.data.try);
    const nextAt = delay === undefined ? null : new Date(outcome.deliveredAt.getTime() + outcome.durationMs + delay);
    return {
      jobId: job.id,
      attempt: {
        guid: row.guid,
        hookId: row.hook_id,
        event: row.event,
        action: row.action,
        redelivery: job.data.redelivery,
        deliveredAt: outcome.deliveredAt,
        durationMs: outcome.durationMs,
        status: outcome.status,
        statusCode: outcome.statusCode,
        nextAttemptAt: nextAt,
        url: req.url,
        requestHeaders: req.headers,
        responseHeaders: outcome.responseHeaders,
        responseBody: outcome.responseBody,
        ...(req.fresh ? firstOf(job.data, row, req) : {}),
      },
      lastResponse: lastResponseOf(outcome),
      ...(nextAt ? { retry: { data: { guid: row.guid, try: job.data.try + 1, redelivery: false }, startAfter: nextAt } } : {}),
    };
  }

  /**
   * Stops taking jobs, gives attempts in flight `graceMs` to finish, cuts the rest, hands back
   * what was fetched but not started (failed jobs, which pg-boss hands out again) and writes
   * what finished.
   */
  async stop(graceMs = 1000): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#poll);
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    const waiting = [...this.#waiting.values()].flat();
    this.#waiting.clear();
    this.#waitingCount = 0;
    if (waiting.length > 0) await failJobs(this.#boss, waiting.map((r) => r.job.id), "the worker stopped").catch(this.#options.onError);
    const settled = Promise.allSettled([...this.#inFlight]);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([settled, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    this.#shutdown.abort();
    await settled;
    await this.#recorder.flush();
  }
}

/**
 * What a first attempt fixes: the body sent (stored only when it is not the payload JSON that
 * is already there) and its content type; a job of before migration 009 writes the whole row.
 */
function firstOf(data: DeliveryJobData, row: SendRow, req: DeliveryRequest): Pick<AttemptRecord, "first" | "fixes"> {
  const service = row.hook_name !== "web";
  if (data.first) return { first: { body: req.body, contentType: req.contentType, payload: service ? row.payload : null } };
  return { fixes: { contentType: req.contentType, body: req.body === row.payload ? null : req.body, keepPayload: service } };
}

/**
 * The attempt's row: from the delivery's row, or from the pending delivery held in memory, or
 * (jobs of before migration 009) from the job.
 */
function sendRow(data: DeliveryJobData, held: PendingDelivery | undefined, loaded: Awaited<ReturnType<typeof loadForSend>>): SendRow | undefined {
  const first = data.first ?? held;
  if (first) {
    const hook = loaded.hooks.get(first.hook);
    if (!hook) return undefined;
    return {
      guid: data.guid, hook_id: hook.id, event: first.event, action: first.action, payload: first.payload, content_type: null, body: null,
      hook_name: hook.name, hook_active: hook.active, config: hook.config, secret_sealed: hook.secret_sealed, owner: hook.owner,
    };
  }
  const delivery = loaded.deliveries.get(data.guid);
  const hook = delivery && loaded.hooks.get(delivery.hook_id);
  if (!delivery || !hook) return undefined;
  // A pending delivery (content type not fixed yet) holds its payload JSON in `body`.
  const pending = delivery.content_type === null;
  return {
    guid: data.guid, hook_id: hook.id, event: delivery.event, action: delivery.action,
    payload: pending ? delivery.body : delivery.payload, content_type: delivery.content_type, body: pending ? null : delivery.body,
    hook_name: hook.name, hook_active: hook.active, config: hook.config, secret_sealed: hook.secret_sealed, owner: hook.owner,
  };
}
