/**
 * Two reference-server instances on one PostgreSQL (TEST_DATABASE_URL, as in
 * feeds-postgres.test.ts) share the delivery work: pg-boss hands each job to exactly one of them
 * (SKIP LOCKED), so every delivery arrives exactly once when nothing fails — and both instances
 * take part, woken by the NOTIFY each enqueue sends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUrl, describePostgres, useTwoInstances } from "./postgres-db.ts";
import type { AttemptReport } from "../../reference/deliveries/options.ts";
import { ADMIN_TOKEN, createHook, deliveries, FAST, hookPath, hookToken, simulate } from "./deliveries-fixtures.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";
import { ceiling } from "../ceilings.ts";

const EVENTS = 200;

describePostgres("deliveries from two instances over PostgreSQL", () => {
  const sent: Record<"a" | "b", AttemptReport[]> = { a: [], b: [] };
  const pair = useTwoInstances("sc_deliveries", {
    both: { adminToken: ADMIN_TOKEN },
    a: { deliveries: { ...FAST, onAttempt: (r) => sent.a.push(r) } },
    b: { deliveries: { ...FAST, onAttempt: (r) => sent.b.push(r) } },
  });
  let receiver: Receiver;

  // Registered after useTwoInstances, so its afterAll runs first: a failing violations check in
  // the servers' afterAll would skip any hook that comes after it, and the receiver would stay open.
  beforeAll(async () => {
    receiver = await startReceiver({ delayMs: 2 });
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it(`delivers each of ${EVENTS} events exactly once, sent by one instance or the other`, async () => {
    const token = await hookToken(pair.a.db, "octocat");
    const hook = await createHook(pair.a.urls.api, token, "repos/octocat/hello-world", { config: { url: receiver.url, secret: "shared" }, events: ["push"] });
    // Events made through both instances.
    for (let i = 0; i < EVENTS / 50; i++) await simulate((i % 2 === 0 ? pair.a : pair.b).urls.api, "push", { count: 50 });
    await receiver.until((r) => r.filter((x) => x.event === "push").length >= EVENTS, ceiling(30_000));
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
    const rows = await pair.a.db.query<{ n: number; guids: number }>("select count(*)::int as n, count(distinct delivery_id)::int as guids from hook_delivery_attempts where status = 'OK'");
    expect(rows[0]).toEqual({ n: EVENTS + 1, guids: EVENTS + 1 });
    const listed = await deliveries(pair.b.urls.api, token, hookPath(hook));
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(30);
  }, ceiling(90_000));
});
