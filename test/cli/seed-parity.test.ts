/**
 * The same demo data whichever command comes first on a new PGlite folder: `simulate` first
 * used to seed the demo without its six months of history, which a later `serve` then never
 * added. Here one folder gets `simulate push` first, the other `serve` then `simulate push`, and
 * both must hold the same events (type, actor, repository, in order) and the same issue events.
 * Slow by nature (two histories of 300 actions, run side by side): 58 s on the shared 2-core
 * machine at load 17; the history alone is about 6 s of CPU. `simulate` first is the binary; `serve`
 * then `simulate` run through the CLI's `main` in this process (test/cli/in-process.ts), one after
 * the other on a folder this process makes (so it holds the secret key this process seals with:
 * hooks/secret-box.ts) — the commands' own work, without two more starts of Node and a PGlite.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, runCliInProcess } from "./run-cli.ts";
import { startCliInProcess } from "./in-process.ts";
import { openDatabase } from "../../reference/db/database.ts";
import { DEMO_HISTORY_COUNT } from "../../reference/seed/history.ts";
import { ceiling } from "../ceilings.ts";

const scratch = mkdtempSync(join(tmpdir(), "seed-parity-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `serve` on the folder until it is ready (the history is recorded by then), then its SIGTERM handler. */
async function serveOnce(dataDir: string): Promise<void> {
  const run = startCliInProcess(["serve", "--port", "0", "--auth-port", "0", "--quiet", "--data-dir", dataDir]);
  await run.firstLine;
  run.signal("SIGTERM");
  // Main's exit code, with what it said: a code other than 0 names its own cause.
  const { code, stderr } = await run.done;
  expect(code, stderr).toBe(0);
}

async function contents(dataDir: string) {
  const db = await openDatabase({ dataDir });
  try {
    const events = await db.query<{ e: string; days: number }>(
      "select type || ' ' || (body->'actor'->>'login') || ' ' || (body->'repo'->>'name') as e, extract(epoch from now() - created_at)::int / 86400 as days from events order by id",
    );
    const issueEvents = await db.query<{ event: string }>("select event from issue_events order by id");
    return { events: events.map((r) => r.e), oldestDays: Math.max(...events.map((r) => r.days)), issueEvents: issueEvents.map((r) => r.event) };
  } finally {
    await db.close();
  }
}

describe("demo data on a new data folder", () => {
  it("is the same, six months of history included, whether simulate or serve comes first", async () => {
    const simulateFirst = join(scratch, "simulate-first");
    const serveFirst = join(scratch, "serve-first");
    const [viaSimulate, viaServe] = await Promise.all([
      runCli(["simulate", "push", "--data-dir", simulateFirst]),
      serveOnce(serveFirst).then(() => runCliInProcess(["simulate", "push", "--data-dir", serveFirst])),
    ]);
    expect(viaSimulate.code, viaSimulate.stderr).toBe(0);
    expect(viaServe.code, viaServe.stderr).toBe(0);
    const a = await contents(simulateFirst);
    const b = await contents(serveFirst);
    // Most of the planned actions make an event (a few are skipped as a user would: watch twice…).
    expect(a.events.length).toBeGreaterThan(DEMO_HISTORY_COUNT * 0.8);
    expect(a.oldestDays).toBeGreaterThanOrEqual(150);
    expect(a.events.at(-1)).toBe("PushEvent octocat octocat/hello-world");
    // Ages are whole days seen moments apart, so they are compared loosely; the rest exactly.
    expect(Math.abs(a.oldestDays - b.oldestDays)).toBeLessThanOrEqual(1);
    expect({ events: a.events, issueEvents: a.issueEvents }).toEqual({ events: b.events, issueEvents: b.issueEvents });
  }, ceiling(240_000));
});
