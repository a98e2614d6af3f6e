/**
 * Domain actions racing on PostgreSQL, as two instances (or two admin requests) run them: each
 * action reads the repository's state and then writes it, so two at once on the same issue or
 * pull request must not both succeed. PGlite runs one transaction at a time, so only PostgreSQL
 * can show the race.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type Database } from "../../reference/db/database.ts";
import { migrate } from "../../reference/db/migrate.ts";
import { seedDatabase } from "../../reference/seed/load.ts";
import { DomainError, runAction, type DomainContext } from "../../reference/domain/index.ts";
import { describePostgres, scratchDatabase } from "./postgres-db.ts";
import { ceiling } from "../ceilings.ts";

describePostgres("domain actions on PostgreSQL, at the same time", () => {
  const scratch = scratchDatabase("sc_domain_race");
  const dbs: Database[] = [];
  let ctxs: DomainContext[];

  beforeAll(async () => {
    await scratch.create();
    // Two pools, as two instances have.
    for (let i = 0; i < 2; i++) dbs.push(await openDatabase({ databaseUrl: scratch.url }));
    await migrate(dbs[0]!);
    await seedDatabase(dbs[0]!, "demo");
    ctxs = dbs.map((db) => ({ db, urls: { api: "http://127.0.0.1:3000", auth: "http://127.0.0.1:3001" }, now: () => new Date() }));
  }, ceiling(60_000));
  afterAll(async () => {
    for (const db of dbs) await db.close();
    await scratch.drop();
  });

  const run = (i: number, event: string, params: Record<string, string>) => runAction(ctxs[i]!, event, { repo: "octocat/hello-world", actor: "octocat", params });

  it.each([
    ["a pull request merged twice", "pull_request", "merged", /already closed/],
    ["a pull request closed twice", "pull_request", "closed", /already closed/],
    ["an issue closed twice", "issues", "closed", /already closed/],
  ] as const)("%s: one succeeds, the other is refused, and one set of events is recorded", async (_what, event, action, refusal) => {
    for (let round = 0; round < 5; round++) {
      const opened = await run(0, event, { title: `race ${action} ${round}` });
      const payload = opened.events[0]!.payload as { number?: number; issue?: { number: number } };
      const number = String(payload.number ?? payload.issue!.number);
      const results = await Promise.allSettled([run(0, event, { action, number }), run(1, event, { action, number })]);
      const fulfilled = results.filter((r) => r.status === "fulfilled");
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(fulfilled, results.map((r) => (r.status === "rejected" ? String(r.reason) : r.status)).join("; ")).toHaveLength(1);
      expect(rejected[0]!.reason).toBeInstanceOf(DomainError);
      expect(String(rejected[0]!.reason.message)).toMatch(refusal);
      const kinds = await dbs[0]!.query<{ event: string }>(
        "select e.event from issue_events e join issues i on i.id = e.issue_id join repositories r on r.id = i.repo_id where r.name = 'hello-world' and i.number = $1 order by e.id",
        [Number(number)],
      );
      expect(kinds.map((k) => k.event)).toEqual(action === "merged" ? ["merged", "closed"] : ["closed"]);
    }
  }, ceiling(60_000));
});
