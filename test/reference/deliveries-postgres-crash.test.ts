/**
 * Never lost across instances: two `serve` processes share one PostgreSQL (TEST_DATABASE_URL); one
 * is killed with SIGKILL while it holds deliveries in flight. On PostgreSQL a job still marked
 * active may belong to a live instance, so nobody takes it back at once: it waits for pg-boss's
 * expiry (`expireInSeconds`), after which the surviving instance sends it. Every delivery then has
 * a logged success and no job is left behind; the deliveries the dead instance had in flight
 * arrive twice (at least once, as documented), each under its one X-Service-Delivery id.
 */
import { afterAll, describe, expect, it } from "vitest";
import { adminUrl, describePostgres, scratchDatabase } from "./postgres-db.ts";
import { openDatabase } from "../../reference/db/database.ts";
import { createHook, simulate } from "./deliveries-fixtures.ts";
import { startServe, tokenThroughApi, type ServeChild } from "./serve-child.ts";
import { startReceiver } from "./webhook-receiver.ts";
import { ceiling } from "../ceilings.ts";

const EVENTS = 60;
const db = scratchDatabase("sc_deliveries_crash");
const children: ServeChild[] = [];

afterAll(async () => {
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
  await Promise.all(children.map((c) => c.exited));
  if (adminUrl) await db.drop();
});

describePostgres("an instance killed mid-delivery on PostgreSQL", () => {
  it("leaves its jobs to the other instance, which sends them once they expire", async () => {
    await db.create();
    // A short expiry (the engine keeps it two seconds above the 5 s time-out: 7 s) and maintenance cycle, so
    // the abandoned jobs come back within seconds; the time-out is far above the receiver's delay.
    const deliveries = { schedule: { attempts: 5, baseDelayMs: 50, factor: 2, jitter: 0.2 }, timeoutMs: 5000, expireInSeconds: 3, maintenanceIntervalSeconds: 1, pollIntervalMs: 200 };
    // Every answer takes 1 s, so the instance that is killed surely has attempts in flight.
    const receiver = await startReceiver({ delayMs: 1000 });
    try {
      const doomed = await startServe({ databaseUrl: db.url }, deliveries);
      children.push(doomed);
      const survivor = await startServe({ databaseUrl: db.url }, deliveries);
      children.push(survivor);
      const token = await tokenThroughApi(doomed.api, ["admin:repo_hook"]);
      await createHook(doomed.api, token, "repos/octocat/hello-world", { config: { url: receiver.url, secret: "shared" }, events: ["push"] });
      // Made through the doomed instance: its worker is woken first and fetches a batch at once.
      await simulate(doomed.api, "push", { count: EVENTS });
      await receiver.until((r) => r.filter((x) => x.event === "push").length >= 20, ceiling(30_000)).catch((error: unknown) => {
        throw new Error(`${(error as Error).message}; stderr: ${doomed.stderr()} / ${survivor.stderr()}`);
      });
      doomed.child.kill("SIGKILL");
      await doomed.exited;

      const check = await openDatabase({ databaseUrl: db.url });
      try {
        const pushGuids = async () => (await check.query<{ guid: string }>("select distinct d.guid::text as guid from hook_deliveries d join hook_delivery_attempts a on a.delivery_id = d.id where d.event = 'push' and a.status = 'OK'")).map((r) => r.guid);
        const deadline = Date.now() + ceiling(60_000);
        while ((await pushGuids()).length < EVENTS) {
          if (Date.now() > deadline) throw new Error(`only ${(await pushGuids()).length} of ${EVENTS} deliveries logged as delivered; survivor stderr: ${survivor.stderr()}`);
          await new Promise((r) => setTimeout(r, 250));
        }
        const logged = new Set(await pushGuids());
        const arrivals = receiver.byGuid();
        // Every delivery arrived and its success is logged.
        for (const guid of logged) expect(arrivals.get(guid)?.length ?? 0, `delivery ${guid} never arrived`).toBeGreaterThanOrEqual(1);
        // What the dead instance had in flight arrived again, from the survivor, after the expiry.
        const twice = [...arrivals.entries()].filter(([guid, got]) => logged.has(guid) && got.length >= 2);
        expect(twice.length, "deliveries in flight at the kill were sent again").toBeGreaterThan(0);
        for (const [, got] of twice) expect(got[1]!.at - got[0]!.at, "a re-sent delivery waited for the expiry").toBeGreaterThanOrEqual(4000);
        // Nothing left in the queue: no job active forever, none failed for good.
        await new Promise((r) => setTimeout(r, 500));
        const open = await check.query<{ state: string; n: number }>("select state::text as state, count(*)::int as n from pgboss.job where state <> 'completed' group by 1");
        expect(open).toEqual([]);
      } finally {
        await check.close();
      }
      expect(await survivor.stop()).toBe(0);
    } finally {
      await receiver.close();
    }
  }, ceiling(180_000));
});
