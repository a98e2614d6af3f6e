/**
 * Issue 5's "done when", as a user does it with two terminals: `serve --simulate` running, a
 * poller holding the ETag of a repository's feed, then `service-contract simulate push --url …`.
 * The poller's conditional GET answers 200 with the new event first and a new ETag, and the next
 * conditional GET with that ETag answers 304 without a body. The server runs through the CLI's
 * `main` in this process (test/cli/in-process.ts: the same command, options and environment, its
 * SIGTERM handler, main's exit code), `simulate` is the binary; a serve child's ready line, SIGTERM
 * and exit 0 are test/reference/serve-cli.test.ts's.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { runCli } from "../cli/run-cli.ts";
import { startCliInProcess } from "../cli/in-process.ts";
import { validateResponse } from "../../generated/validators/index.js";
import { ceiling } from "../ceilings.ts";

const scratch = mkdtempSync(join(tmpdir(), "simulate-poll-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const ADMIN_TOKEN = "simulate-poll-admin-token-0123456789";
const FEED = "/repos/octocat/hello-world/events";

it("simulate push on a running server: the feed shows it under a new ETag, then answers 304", async () => {
  const serve = startCliInProcess(["serve", "--port", "0", "--auth-port", "0", "--data-dir", join(scratch, "db"), "--simulate", "--no-history", "--quiet"], {
    env: { SERVICE_CONTRACT_ADMIN_TOKEN: ADMIN_TOKEN },
  });
  const ready = JSON.parse(await serve.firstLine) as { api: string };
  try {
    const feed = `${ready.api}${FEED}`;

    const first = await fetch(feed);
    expect(first.status).toBe(200);
    const before = first.headers.get("etag")!;
    expect(before).toMatch(/^"[^"]+"$/);
    const beforeIds = ((await first.json()) as { id: string }[]).map((e) => e.id);

    const sim = await runCli(["simulate", "push", "--url", ready.api, "--admin-token", ADMIN_TOKEN, "--repo", "octocat/hello-world", "message=Poll me"]);
    expect(sim.code, sim.stderr).toBe(0);
    const pushed = JSON.parse(sim.stdout.trim()) as { id: string; type: string };
    expect(pushed.type).toBe("PushEvent");

    const changed = await fetch(feed, { headers: { "If-None-Match": before } });
    expect(changed.status).toBe(200);
    const after = changed.headers.get("etag")!;
    expect(after).not.toBe(before);
    const page = (await changed.json()) as { id: string; type: string }[];
    expect(page[0]).toMatchObject({ id: pushed.id, type: "PushEvent" });
    expect(beforeIds).not.toContain(pushed.id);
    const headers = Object.fromEntries(changed.headers);
    const verdict = validateResponse("listRepoEvents", 200, page, { headers });
    expect(verdict.valid, JSON.stringify(verdict)).toBe(true);

    const again = await fetch(feed, { headers: { "If-None-Match": after } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(after);
    expect(await again.text()).toBe("");
  } finally {
    serve.signal("SIGTERM");
    expect((await serve.done).code).toBe(0);
  }
}, ceiling(120_000));
