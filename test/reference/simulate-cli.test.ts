/**
 * `service-contract simulate` end to end: the command on a temporary PGlite folder (made by `main`
 * in this process, then the binary as a child process on it) prints one JSON line per record and
 * leaves the events in the database; usage errors exit 2.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, type CliResult, runCliInProcess } from "../cli/run-cli.ts";
import Fastify from "fastify";
import { openDatabase } from "../../reference/db/database.ts";
import { migrate } from "../../reference/db/migrate.ts";
import { seedDatabase } from "../../reference/seed/load.ts";
import { registerAdmin } from "../../reference/http/admin.ts";
import { validateActivityEvent } from "../../generated/validators/index.js";
import { ceiling } from "../ceilings.ts";

const scratch = mkdtempSync(join(tmpdir(), "simulate-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function simulate(args: string[]): Promise<CliResult> {
  return runCli(["simulate", ...args]);
}

describe("service-contract simulate", () => {
  const dataDir = join(scratch, "db");

  it("records events on a fresh data folder (seeded like serve) and prints them", async () => {
    // The first command on the new folder through `main` in this process, so the folder holds the
    // secret key this process seals with (vitest runs other files' servers in it, isolate: false:
    // a folder a child made would hold another, which hooks/secret-box.ts refuses); the second, on
    // the folder the first made, through the binary: a child process prints its records and
    // leaves them in the database.
    const r = await runCliInProcess(["simulate", "push", "--data-dir", dataDir, "--no-history", "--repo", "octocat/hello-world", "--count", "2", "commits=2"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    for (const e of lines) {
      expect(e.type).toBe("PushEvent");
      expect(validateActivityEvent(e).valid).toBe(true);
    }
    const issue = await runCli(["simulate", "issues", "--data-dir", dataDir, "--actor", "hubot", "action=closed", "number=1"]);
    expect(issue.stderr).toBe("");
    expect(issue.code).toBe(0);
    const printed = issue.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(printed.map((p) => p.type ?? p.event)).toEqual(["IssuesEvent", "closed"]);

    const db = await openDatabase({ dataDir });
    try {
      const rows = await db.query<{ id: number; type: string; body: { id: string } }>("select id, type, body from events order by id");
      expect(rows.map((row) => row.type)).toEqual(["PushEvent", "PushEvent", "IssuesEvent"]);
      for (const row of rows) expect(row.body.id).toBe(String(row.id));
      expect((await db.query("select 1 from issue_events where event = 'closed'")).length).toBe(1);
    } finally {
      await db.close();
    }
  }, ceiling(90_000));

  it("exits 2 for an unknown event, repository or actor, and bad parameters", async () => {
    // The binary for the first; `main` in process for the other cases of the same exit-2 path.
    const binary = await simulate(["explode", "--data-dir", dataDir]);
    expect(binary.code, binary.stderr).toBe(2);
    expect(binary.stderr).toMatch(/^service-contract: /);
    expect(binary.stdout).toBe("");
    for (const args of [
      ["push", "--repo", "octocat/no-such-repo"],
      ["push", "--actor", "ghost"],
      ["issues", "action=closed", "number=999"],
      ["push", "notapair"],
      ["push", "--count", "0"],
    ]) {
      // A new folder of this process's own: a new database takes the key the process already
      // seals with (a process refuses a database holding another: hooks/secret-box.ts).
      const r = await runCliInProcess(["simulate", ...args, "--no-history", "--data-dir", join(scratch, "in-process")]);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/^service-contract: /);
      expect(r.stdout).toBe("");
    }
  }, ceiling(120_000));

  it("--url and --admin-token go through a server's admin endpoint", async () => {
    const db = await openDatabase({});
    await migrate(db);
    await seedDatabase(db, "demo");
    const app = Fastify();
    const token = "simulate-admin-token-0123456789";
    registerAdmin(app, { db, urls: { api: "http://127.0.0.1:3000", auth: "http://127.0.0.1:3001" }, now: () => new Date() }, { token });
    const url = await app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const ok = await simulate(["watch", "--url", url, "--admin-token", token, "--actor", "monalisa"]);
      expect(ok.code, ok.stderr).toBe(0);
      expect(JSON.parse(ok.stdout.trim())).toMatchObject({ type: "WatchEvent", actor: { login: "monalisa" } });
      expect((await db.query("select 1 from events where type = 'WatchEvent'")).length).toBe(1);
      // Over the admin endpoint's 100 at a time: the CLI sends batches (100 + 1). In process: the
      // same --url path the binary just took.
      const many = await runCliInProcess(["simulate", "push", "commits=1", "--url", url, "--admin-token", token, "--count", "101"]);
      expect(many.code, many.stderr).toBe(0);
      expect(many.stdout.trim().split("\n").filter((l) => JSON.parse(l).type === "PushEvent")).toHaveLength(101);
      expect((await db.query("select 1 from events where type = 'PushEvent'")).length).toBe(101);
      // Usage errors of the same command: in process (the binary's exit 2 is proven above).
      const denied = await runCliInProcess(["simulate", "push", "--url", url, "--admin-token", "wrong"]);
      expect(denied.code).toBe(2);
      expect(denied.stderr).toContain("401");
      const missing = await runCliInProcess(["simulate", "push", "--url", url]);
      expect(missing.code).toBe(2);
    } finally {
      await app.close();
      await db.close();
    }
  }, ceiling(90_000));
});
