/**
 * Two reference-server instances on one PostgreSQL (TEST_DATABASE_URL, as in
 * feeds-postgres.test.ts) share the delivery work: pg-boss hands each job to exactly one of them
 * (SKIP LOCKED), so every delivery arrives exactly once when nothing fails — and both instances
 * take part, woken by the NOTIFY each enqueue sends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUrl, scratchDatabase } from "./postgres-db.ts";
import { startServer, type RunningServer } from "../../reference/server.ts";
import type { AttemptReport } from "../../reference/deliveries/options.ts";
import { ADMIN_TOKEN, createHook, deliveries, FAST, hookPath, hookToken, simulate } from "./deliveries-fixtures.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

const db = scratchDatabase("sc_deliveries");
const EVENTS = 200;

describe.skipIf(!adminUrl)("deliveries from two instances over PostgreSQL", () => {
  let a: RunningServer;
  let b: RunningServer;
  let receiver: Receiver;
  const sent: Record<"a" | "b", AttemptReport[]> = { a: [], b: [] };
  const violations: unknown[] = [];

  beforeAll(async () => {
    await db.create();
    receiver = await startReceiver({ delayMs: 2 });
    const options = { port: 0, authPort: 0, databaseUrl: db.url, seed: "demo" as const, validateResponses: true, adminToken: ADMIN_TOKEN, onResponseValidationError: (f: unknown) => violations.push(f) };
    a = await startServer({ ...options, deliveries: { ...FAST, onAttempt: (r) => sent.a.push(r) } });
    b = await startServer({ ...options, deliveries: { ...FAST, onAttempt: (r) => sent.b.push(r) } });
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([a?.close(), b?.close()]);
    await receiver?.close();
    await db.drop();
    expect(violations).toEqual([]);
  });

  it(`delivers each of ${EVENTS} events exactly once, sent by one instance or the other`, async () => {
    const token = await hookToken(a.db, "octocat");
    const hook = await createHook(a.urls.api, token, "repos/octocat/hello-world", { config: { url: receiver.url, secret: "shared" }, events: ["push"] });
    // Events made through both instances.
    for (let i = 0; i < EVENTS / 50; i++) await simulate((i % 2 === 0 ? a : b).urls.api, "push", { count: 50 });
    await receiver.until((r) => r.filter((x) => x.event === "push").length >= EVENTS, 30_000);
    await new Promise((r) => setTimeout(r, 1000));

    const pushes = receiver.received.filter((r) => r.event === "push");
    expect(pushes).toHaveLength(EVENTS);
    expect(new Set(pushes.map((r) => r.guid)).size).toBe(EVENTS);
    expect(pushes.every((r) => r.arrival === 1 && r.answer === "ok")).toBe(true);

    const bySender = [...sent.a, ...sent.b].filter((r) => r.event === "push");
    expect(bySender).toHaveLength(EVENTS);
    expect(new Set(bySender.map((r) => r.guid)).size).toBe(EVENTS);
    console.log(`deliveries-postgres: instance a sent ${sent.a.length}, b sent ${sent.b.length}`);
    expect(sent.a.filter((r) => r.event === "push").length).toBeGreaterThan(0);
    expect(sent.b.filter((r) => r.event === "push").length).toBeGreaterThan(0);

    // One log row per delivery, readable through either instance.
    const rows = await a.db.query<{ n: number; guids: number }>("select count(*)::int as n, count(distinct delivery_id)::int as guids from hook_delivery_attempts where status = 'OK'");
    expect(rows[0]).toEqual({ n: EVENTS + 1, guids: EVENTS + 1 });
    const listed = await deliveries(b.urls.api, token, hookPath(hook));
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(30);
  }, 90_000);
});
