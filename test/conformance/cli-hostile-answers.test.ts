/**
 * Issue 41: what a target answers cannot keep the suite from ending, nor crash it. Through the
 * compiled binary against fake targets whose every feed answer is, within the byte limit,
 * - an 8 MB array of 4 million zeros where activity events are expected: judging it was
 *   quadratic in the bad items (the validators listed every error), synchronous, so neither the
 *   case's time-out nor SIGTERM was served and the run had to be killed with SIGKILL;
 * - 2 MB nested a million deep: the run ended with exit 4 and a RangeError stack trace (the
 *   results kept the value and walked it recursively).
 * Now the run ends with its summary and exit 1 (the event rule fails), and SIGTERM ends it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliBin, runCli } from "../cli/run-cli.ts";
import { ceiling } from "../ceilings.ts";

const dir = mkdtempSync(join(tmpdir(), "sc-hostile-answers-"));
const PROFILE = join(dir, "profile.yaml");
writeFileSync(PROFILE, ["users:", "  - { login: octocat, token: '0000000000000000000000000000000000000000' }", "repos: { public: octocat/hello-world }", ""].join("\n"));

interface Target {
  url: string;
  /** Resolves once a whole hostile answer has been written. */
  answered: Promise<void>;
  close(): Promise<void>;
}

/** Answers `/` small (the reachability check), everything else with `body`, as a well-formed feed page. */
async function startTarget(body: string): Promise<Target> {
  let answeredOnce: () => void = () => {};
  const answered = new Promise<void>((resolve) => (answeredOnce = resolve));
  const server: Server = createServer((req, res) => {
    req.resume();
    const headers = {
      "content-type": "application/json; charset=utf-8",
      etag: '"hostile"',
      "x-poll-interval": "60",
      "x-ratelimit-limit": "5000",
      "x-ratelimit-remaining": "4999",
      "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600),
    };
    if (req.url === "/") return void res.writeHead(200, headers).end("{}");
    res.writeHead(200, headers).end(body, () => answeredOnce());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answered,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const ZEROS = JSON.stringify(Array(4_000_000).fill(0)); // 8 MB
const DEEP = "[".repeat(1_000_000) + "]".repeat(1_000_000); // 2 MB

let zeros: Target;
let deep: Target;
beforeAll(async () => {
  [zeros, deep] = await Promise.all([startTarget(ZEROS), startTarget(DEEP)]);
});
afterAll(async () => {
  await Promise.all([zeros?.close(), deep?.close()]);
});

const run = (target: Target, ...extra: string[]) => ["conformance", "--base-url", target.url, "--auth-url", target.url, "--profile", PROFILE, "--only", "FEEDS-ETAG-001", ...extra];

describe.concurrent("answers built to stall or crash the judge", () => {
  it("8 MB of zeros where events are expected: the run ends with its summary, the event rule failed (it never ended)", async ({ expect }) => {
    const result = await runCli(run(zeros, "--case-timeout", "20"));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ S-ACTIVITY-EVENT-FIELDS/);
    expect(result.stdout).toMatch(/^1 case: /m);
  }, ceiling(120_000));

  it("an answer nested a million deep: exit 1 with the summary, no stack trace (it was exit 4 and a RangeError)", async ({ expect }) => {
    const result = await runCli(run(deep));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(/RangeError|\n\s+at /);
    expect(result.stdout).toMatch(/✗ S-ACTIVITY-EVENT-FIELDS/);
    expect(result.stdout).toMatch(/^1 case: /m);
  }, ceiling(120_000));

  it("SIGTERM while 8 MB of zeros is being judged ends the run with 143", async ({ expect }) => {
    const child = spawn(process.execPath, [cliBin, ...run(zeros, "--case-timeout", "120")], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    // The condition: a whole hostile answer is on its way to the suite, which then reads and judges it.
    await zeros.answered;
    child.kill("SIGTERM");
    expect(await exited).toBe(143);
    expect(stderr).not.toMatch(/\n\s+at /);
  }, ceiling(120_000));
});
