/**
 * The delivery log holds every attempt, also one a crash cut short (reference/deliveries/starts.ts):
 * a `serve` child process on an on-disk PGlite folder sends a push to a receiver that holds the
 * request without answering; the process is killed with SIGKILL while the attempt is in flight,
 * and restarted on the same folder. The retry after the restart succeeds, and the log shows both
 * attempts of the one delivery: attempt 1 `interrupted` (begun, never finished), attempt 2 `OK`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createHook, deliveries, hookPath, simulate } from "./deliveries-fixtures.ts";
import { startServe, tokenThroughApi, type ServeChild } from "./serve-child.ts";
import { startReceiver } from "./webhook-receiver.ts";
import { ceiling } from "../ceilings.ts";

const scratch = mkdtempSync(join(tmpdir(), "deliveries-interrupted-"));
const children: ServeChild[] = [];
afterAll(() => {
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});

describe("SIGKILL during an attempt", () => {
  it("leaves the attempt in the log as interrupted, beside the retry of the same delivery", async () => {
    const dataDir = join(scratch, "db");
    // The attempt may wait 5 s for an answer; its job expires (and is handed out again) 2 s after that.
    const options = { schedule: { attempts: 3, baseDelayMs: 50, factor: 2, jitter: 0 }, timeoutMs: 5000, expireInSeconds: 7, pollIntervalMs: 200, maintenanceIntervalSeconds: 1 };
    // The first push arrival is held (no answer for 60 s): it is in flight when the server dies.
    const receiver = await startReceiver({ holdMs: 60_000, fault: ({ event, arrival }) => (event === "push" && arrival === 1 ? "timeout" : undefined) });
    try {
      const first = await startServe({ dataDir }, options);
      children.push(first);
      const token = await tokenThroughApi(first.api, ["admin:repo_hook"]);
      const hook = await createHook(first.api, token, "repos/octocat/hello-world", { config: { url: receiver.url }, events: ["push"] });
      await simulate(first.api, "push");
      await receiver.until((r) => r.some((x) => x.event === "push"), ceiling(30_000));
      const guid = receiver.received.find((x) => x.event === "push")!.guid;
      first.child.kill("SIGKILL");
      await first.exited;

      const second = await startServe({ dataDir }, options);
      children.push(second);
      await receiver.until((r) => r.some((x) => x.event === "push" && x.guid === guid && x.answer === "ok"), ceiling(60_000));
      const log = async () => (await deliveries(second.api, token, hookPath(hook))).body.filter((d) => d.guid === guid);
      // The retry's outcome is written just after its answer: poll for it.
      const deadline = Date.now() + ceiling(15_000);
      let entries = await log();
      while (!entries.some((d) => d.status === "OK") && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        entries = await log();
      }
      const attempts = entries.map((d) => ({ attempt: d.attempt, status: d.status, status_code: d.status_code, url: d.url })).sort((a, b) => a.attempt - b.attempt);
      expect(attempts).toEqual([
        { attempt: 1, status: "interrupted", status_code: 0, url: receiver.url },
        { attempt: 2, status: "OK", status_code: 200, url: receiver.url },
      ]);
      // One delivery (one guid), arrived twice: once cut short, once answered.
      expect(receiver.received.filter((x) => x.guid === guid).map((x) => x.answer)).toEqual(["timeout", "ok"]);
      expect(await second.stop()).toBe(0);
    } finally {
      await receiver.close();
    }
  }, ceiling(120_000));
});
