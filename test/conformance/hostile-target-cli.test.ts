/**
 * Issue 34, points 8, 10 and 11, through the CLI's `main` in process: what a target sends cannot
 * crash the run or pass for a verdict (a rate-limit header no date can hold is quoted in the
 * budget's line and the skip reasons, never a stack trace and exit 1), cannot drive the terminal (its message in the
 * demo-profile detection's error line, a pointer naming its keys), and the report files are never
 * written through symbolic links nor a link deleted by the clean-up. (Exit 4 for a crash of the
 * binary itself: test/conformance/cli-hostile-targets.test.ts.)
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliInProcess } from "../cli/in-process.ts";
import { planBudget, readBudget } from "../../conformance/run/rate-budget.ts";
import { ALL_CASES } from "../../conformance/cases/index.ts";
import { ConsoleReporter } from "../../conformance/report/console.ts";
import type { CaseResult, RunSummary } from "../../conformance/core/types.ts";
import { startFakeTarget, type FakeTarget } from "./fake-target.ts";
import { ceiling } from "../ceilings.ts";

const dir = mkdtempSync(join(tmpdir(), "sc-hostile-cli-"));
const PROFILE = join(dir, "profile.yaml");
writeFileSync(PROFILE, ["users:", "  - { login: octocat, token: '0000000000000000000000000000000000000000' }", "repos: { public: octocat/hello-world }", ""].join("\n"));

/** Terminal control: ESC (a title, a cleared screen, colours), BEL, CR rewriting the line. */
const HOSTILE = "\u001b]0;pwned\u0007\u001b[2J\u001b[32m\rAll 211 cases passed\u009b2J\u202e";
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;

let target: FakeTarget;
let resetHeader = "99999999999999999999";
let remaining = "0";
beforeAll(async () => {
  target = await startFakeTarget((req, res) => {
    if (req.url === "/events") {
      res.writeHead(200, { "content-type": "application/json", "x-ratelimit-limit": "60", "x-ratelimit-remaining": remaining, "x-ratelimit-reset": resetHeader }).end("[]");
    } else if (req.url === "/authorizations" && req.method === "GET") {
      // "octocat signs in with the demo password": the demo profile is detected…
      res.writeHead(200, { "content-type": "application/json" }).end("[]");
    } else if (req.url === "/authorizations") {
      // …and making its token fails with a message that would drive a terminal.
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ message: HOSTILE }));
    } else res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ message: "Not Found", documentation_url: "https://example.test" }));
  });
});
afterAll(() => target?.close());

describe("a target's rate-limit headers", () => {
  it.each(["99999999999999999999", "-5", "garbage", "1e400", "", "0x10", "9".repeat(400)])("X-RateLimit-Reset %j: a line, never a crash", async (reset) => {
    const fetchImpl = (async () => new Response("[]", { headers: { "x-ratelimit-remaining": "0", "x-ratelimit-limit": "99999999999999999999", "x-ratelimit-reset": reset } })) as unknown as typeof fetch;
    const budget = await readBudget({ baseUrl: "http://t.test", fetch: fetchImpl });
    const plan = planBudget(ALL_CASES.filter((c) => c.id === "CONTRACT-RATE-001"), ALL_CASES, budget);
    expect(plan.line).toMatch(/^the target.s rate limit will not last the whole run \(anonymously 0 of 100000000000000000000 requests left/);
    expect(plan.skips.get("CONTRACT-RATE-001")).toMatch(/^the target.s anonymous rate limit will not last this case: 0 of 100000000000000000000 requests left/);
  });

  it("a reset no date can hold: the line quotes it, the case that would go past the limit is skipped, the run ends 0 (it was exit 1, a stack trace and no report)", async () => {
    resetHeader = "99999999999999999999";
    const result = await runCliInProcess(["conformance", "--base-url", target.url, "--auth-url", target.url, "--profile", PROFILE, "--only", "CONTRACT-RATE-001", "--reporter", "json", "--out", join(dir, "budget-report")]);
    expect(result.stderr).toBe(`the target's rate limit will not last the whole run (anonymously 0 of 60 requests left until X-RateLimit-Reset "99999999999999999999", which is no date): 1 case(s) that would go past it are skipped, each saying why; the rest run\n`);
    expect(result.code, result.stdout).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, "budget-report", "results.json"), "utf8")) as RunSummary;
    expect(report.results.map((r) => `${r.id} ${r.status}: ${r.reason}`)).toEqual([expect.stringMatching(/^CONTRACT-RATE-001 skipped: the target's anonymous rate limit will not last this case: 0 of 60 requests left until X-RateLimit-Reset "99999999999999999999", which is no date/)]);
  });
});

describe("--max-response-bytes", () => {
  it.each(["10", "8MB", "-1", "1.5", "2000000000"])("%j is a usage error", async (value) => {
    const result = await runCliInProcess(["conformance", "--base-url", target.url, "--auth-url", target.url, "--profile", PROFILE, "--max-response-bytes", value]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`service-contract: --max-response-bytes must be a whole number of bytes from 1024 to 1073741824, got ${value}\n`);
  });
});

describe("target text on the way to the terminal", () => {
  it("the demo-profile detection's error line: the target's message made inert, on one line", async () => {
    const result = await runCliInProcess(["conformance", "--base-url", target.url, "--auth-url", target.url]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/needs a token for octocat: POST .*\/authorizations answered 401 \(\\u001b\]0;pwned\\u0007\\u001b\[2J\\u001b\[32m\\u000dAll 211 cases passed\\u009b2J\\u202e\)/);
    expect(result.stderr).not.toMatch(CONTROL);
    // One line per message: the target cannot start a line of its own.
    expect(result.stderr.trim().split("\n").every((line) => line.startsWith("service-contract: ") || line.startsWith("No --profile"))).toBe(true);
  });

  it("the console report: a pointer naming the target's keys, a skip reason, a title", () => {
    let out = "";
    const reporter = new ConsoleReporter({ write: (t) => (out += t) });
    const result: CaseResult = { id: "X-1", title: "t", area: "feeds", seed: "s", status: "failed", durationMs: 1, notes: [HOSTILE], failure: { message: HOSTILE, pointer: `/body/${HOSTILE}`, actual: HOSTILE, curl: `curl '${HOSTILE}'` } };
    const skipped: CaseResult = { id: "X-2", title: "u", area: "feeds", seed: "s", status: "skipped", durationMs: 0, notes: [], reason: `${HOSTILE}\nFAKE LINE` };
    reporter.onProgress({ type: "case", result: skipped, index: 0, total: 2 });
    expect(out.split("\n").length).toBe(2); // the progress line stays one line
    const summary = { target: { baseUrl: "http://t", authUrl: "http://t" }, startedAt: "", durationMs: 1, results: [result, skipped], counts: { passed: 0, failed: 1, skipped: 1 } } as unknown as RunSummary;
    reporter.report(summary);
    expect(out).not.toMatch(CONTROL);
    expect(out).toContain("pointer:  /body/\\u001b]0;pwned");
  });
});

describe("report files and symbolic links", () => {
  const run = (out: string, reporters = "json,html,junit") => runCliInProcess(["conformance", "--base-url", target.url, "--auth-url", target.url, "--profile", PROFILE, "--only", "FEEDS-ETAG-001", "--reporter", reporters, "--out", out]);

  it("a report.html planted as a link: replaced as a name, its target untouched", async () => {
    remaining = "5000";
    const out = join(dir, "planted");
    mkdirSync(out);
    const victim = join(dir, "victim.txt");
    writeFileSync(victim, "keep me");
    symlinkSync(victim, join(out, "report.html"));
    symlinkSync(join(dir, "victim-new.txt"), join(out, "results.json")); // a dangling one: not made by following it
    const result = await run(out);
    expect(result.code).toBe(1);
    expect(readFileSync(victim, "utf8")).toBe("keep me");
    expect(existsSync(join(dir, "victim-new.txt"))).toBe(false);
    for (const file of ["report.html", "results.json", "junit.xml"]) expect(lstatSync(join(out, file)).isFile(), file).toBe(true);
    expect(readFileSync(join(out, "report.html"), "utf8")).toMatch(/^<!DOCTYPE html>/);
    // No temporary file left beside them.
    expect(readdirSync(out).sort()).toEqual(["junit.xml", "report.html", "results.json"]);
  }, ceiling(30_000));

  it("a dangling link as --out: refused, and the link is not deleted by the clean-up", async () => {
    const link = join(dir, "dangling-out");
    symlinkSync(join(dir, "nowhere", "reports"), link);
    const result = await run(link);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`service-contract: cannot write the reports to ${link}: ELOOP\n`);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(existsSync(join(dir, "nowhere"))).toBe(false);
  });

  it("a link to a folder as --out: refused before the run, nothing written through it", async () => {
    const real = join(dir, "elsewhere");
    mkdirSync(real);
    const link = join(dir, "linked-out");
    symlinkSync(real, link);
    const result = await run(link);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot write the reports to .*linked-out: ELOOP/);
    expect(readdirSync(real)).toEqual([]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });
});

