/**
 * The demo history (reference/seed/history.ts): hundreds of valid events over months, some older
 * than 90 days, deterministic for the same seed and clock, private ones marked not public, and
 * nothing added on a second run.
 */
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../reference/db/database.ts";
import { migrate } from "../../reference/db/migrate.ts";
import { seedDatabase } from "../../reference/seed/load.ts";
import { seedHistory } from "../../reference/seed/history.ts";
import { validateActivityEvent, validateIssueEvent } from "../../generated/validators/index.js";
import { ceiling } from "../ceilings.ts";

const now = new Date("2026-06-01T12:00:00Z");
const open: Database[] = [];
afterAll(() => Promise.all(open.map((d) => d.close())));

async function fresh(): Promise<Database> {
  const db = await openDatabase({});
  open.push(db);
  await migrate(db);
  await seedDatabase(db, "demo");
  return db;
}

describe("seedHistory", () => {
  it("creates hundreds of valid events over months, deterministically", async () => {
    const a = await fresh();
    const recorded = await seedHistory(a, { now, count: 300 });
    expect(recorded).toBeGreaterThan(200);
    const rows = await a.query<{ id: number; type: string; public: boolean; body: Record<string, unknown>; created_at: Date | string }>("select id, type, public, body, created_at from events order by id");
    expect(rows.length).toBe(recorded);
    for (const row of rows) {
      const v = validateActivityEvent(row.body);
      expect(v.valid, JSON.stringify(v.valid ? [] : v.errors)).toBe(true);
      expect(row.public).toBe(row.body.public);
    }
    const times = rows.map((r) => new Date(r.created_at).getTime());
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    expect(times.filter((t) => t < now.getTime() - 90 * 86_400_000).length).toBeGreaterThan(50);
    expect(times.every((t) => t <= now.getTime())).toBe(true);
    expect(new Set(rows.map((r) => r.type)).size).toBeGreaterThanOrEqual(8);
    expect(rows.some((r) => !r.public)).toBe(true);
    const issueEvents = await a.query<{ body: Record<string, unknown> }>("select body from issue_events");
    expect(issueEvents.length).toBeGreaterThan(20);
    for (const e of issueEvents) expect(validateIssueEvent(e.body, { issue: "absent" }).valid).toBe(true);

    const b = await fresh();
    await seedHistory(b, { now, count: 300 });
    const other = await b.query<{ body: unknown }>("select body from events order by id");
    expect(other.map((r) => r.body)).toEqual(rows.map((r) => r.body));

    expect(await seedHistory(a, { now, count: 300 })).toBe(0);
  }, ceiling(120_000));
});
