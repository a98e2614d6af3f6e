/**
 * The same demo data whichever command comes first on a new PGlite folder: `simulate` first
 * used to seed the demo without its six months of history, which a later `serve` then never
 * added. Here one folder gets `simulate push` first, the other `serve` then `simulate push`, and
 * both must hold the same events (type, actor, repository, in order) and the same issue events.
 * Slow by nature (two histories of 300 actions, run side by side): 58 s on the shared 2-core
 * machine at load 17; the history alone is about 6 s of CPU.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createInterface } from "node:readline";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliBin, repoRoot, runCli } from "./run-cli.ts";
import { openDatabase } from "../../reference/db/database.ts";
import { DEMO_HISTORY_COUNT } from "../../reference/seed/history.ts";
import { ceiling } from "../ceilings.ts";

const scratch = mkdtempSync(join(tmpdir(), "seed-parity-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `serve` on the folder until it is ready (the history is recorded by then), then SIGTERM. */
async function serveOnce(dataDir: string): Promise<void> {
  const child = spawn(process.execPath, [cliBin, "serve", "--port", "0", "--auth-port", "0", "--quiet", "--data-dir", dataDir], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d));
  const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`)));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", () => resolve());
    void exited.then((code) => reject(new Error(`serve exited (${code}) before it was ready: ${stderr}`)));
  });
  child.kill("SIGTERM");
  // The way it ended, with what it said: a signal or a code other than 0 names its own cause.
  expect(await exited, stderr).toBe("code 0");
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
      serveOnce(serveFirst).then(() => runCli(["simulate", "push", "--data-dir", serveFirst])),
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
