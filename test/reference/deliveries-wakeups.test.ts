/**
 * A worker looks for work when an enqueue tells it to, not on its next poll (issue 43: a
 * delivery's latency is mostly how soon it is picked up). The worker here polls once an hour,
 * so only the signal can make it fetch: on PGlite the enqueuing queue wakes its own process's
 * worker; on PostgreSQL the NOTIFY that goes with the pending rows' insert (queue.ts, store.ts)
 * wakes the worker of another instance, which LISTENs on a connection of its own. Each case
 * first lets the worker go idle — a first delivery received and its job completed, so the
 * start-up look is over and nothing is pending — and then enqueues the delivery that only the
 * signal can bring. No time bound: the delivery either arrives, or the test's ceiling fails it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../reference/db/database.ts";
import { migrate } from "../../reference/db/migrate.ts";
import { seedDatabase } from "../../reference/seed/load.ts";
import { startDeliveries, type DeliveryEngine } from "../../reference/deliveries/engine.ts";
import { ensureSecretKey, sealSecret } from "../../reference/hooks/secret-box.ts";
import { insertHook } from "../../reference/store/hooks.ts";
import { describePostgres, scratchDatabase } from "./postgres-db.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";
import { ceiling } from "../ceilings.ts";

const URLS = { api: "http://127.0.0.1:3000", auth: "http://127.0.0.1:3001" };
/** Never reached within a test: a delivery that arrives was fetched because of a signal. */
const NO_POLL = { pollIntervalMs: 3_600_000, onError: (e: unknown) => process.stderr.write(`deliveries-wakeups: ${String(e)}\n`) };

async function hookTo(db: Database, url: string): Promise<number> {
  await ensureSecretKey(db);
  const [repo] = await db.query<{ id: number }>("select r.id::int as id from repositories r join accounts o on o.id = r.owner_id where o.login = 'octocat' and r.name = 'hello-world'");
  const row = await insertHook(db, {
    repoId: repo!.id, orgId: null, name: "web", events: ["push"], active: true,
    config: { url, content_type: "json", insecure_ssl: "0" }, secretSealed: sealSecret("wake-up secret"), appId: null, creatorId: null, now: new Date(),
  });
  return row.id;
}

/** Enqueues one push delivery through `engine`'s queue in a transaction of `db`; returns its guid. */
async function enqueue(db: Database, engine: DeliveryEngine, hookId: number, n: number): Promise<string> {
  return db.transaction((tx) => engine.queue.enqueue(tx, hookId, "push", null, { ref: "refs/heads/main", n }));
}

/** Waits (untimed, by condition) until no delivery job is waiting or active: the worker is idle. */
async function untilIdle(db: Database): Promise<void> {
  for (;;) {
    const [row] = await db.query<{ n: number }>("select count(*)::int as n from pgboss.job where name = 'hook-deliveries' and state in ('created', 'retry', 'active')");
    if (row!.n === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a worker woken by an enqueue in its own process (PGlite)", () => {
  let db: Database;
  let engine: DeliveryEngine;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    db = await openDatabase({});
    await migrate(db);
    await seedDatabase(db, "demo");
    engine = await startDeliveries(db, URLS, NO_POLL);
  }, ceiling(60_000));

  afterAll(async () => {
    await engine?.stop();
    await db?.close();
    await receiver?.close();
  });

  it("sends a delivery enqueued while it is idle, without waiting for its poll", async () => {
    const hookId = await hookTo(db, receiver.url);
    const first = await enqueue(db, engine, hookId, 1);
    await receiver.until((r) => r.some((x) => x.guid === first), ceiling(20_000));
    await untilIdle(db);
    const second = await enqueue(db, engine, hookId, 2);
    await receiver.until((r) => r.some((x) => x.guid === second), ceiling(20_000));
    expect(receiver.received.map((x) => x.guid)).toEqual([first, second]);
  }, ceiling(60_000));
});

describePostgres("a worker woken by another instance's enqueue (PostgreSQL NOTIFY)", () => {
  const scratch = scratchDatabase("sc_wakeups");
  let worker: { db: Database; engine: DeliveryEngine } | undefined;
  let producer: { db: Database; engine: DeliveryEngine } | undefined;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    await scratch.create();
    const db = await openDatabase({ databaseUrl: scratch.url });
    await migrate(db);
    await seedDatabase(db, "demo");
    worker = { db, engine: await startDeliveries(db, URLS, { ...NO_POLL, databaseUrl: scratch.url }) };
    // Another instance's queue side: its own connections, no worker of its own.
    const other = await openDatabase({ databaseUrl: scratch.url });
    producer = { db: other, engine: await startDeliveries(other, URLS, { ...NO_POLL, databaseUrl: scratch.url, worker: false }) };
  }, ceiling(60_000));

  afterAll(async () => {
    await producer?.engine.stop();
    await producer?.db.close();
    await worker?.engine.stop();
    await worker?.db.close();
    await scratch.drop();
    await receiver?.close();
  });

  it("sends a delivery another instance enqueued while it was idle, without waiting for its poll", async () => {
    const { db } = producer!;
    const hookId = await hookTo(db, receiver.url);
    const first = await enqueue(db, producer!.engine, hookId, 1);
    await receiver.until((r) => r.some((x) => x.guid === first), ceiling(20_000));
    await untilIdle(db);
    const second = await enqueue(db, producer!.engine, hookId, 2);
    await receiver.until((r) => r.some((x) => x.guid === second), ceiling(20_000));
    expect(receiver.received.map((x) => x.guid)).toEqual([first, second]);
  }, ceiling(60_000));
});
