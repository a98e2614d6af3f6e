/**
 * `service-contract conformance` through the real binary: usage errors exit 2 with a message
 * (unknown reporter, missing or invalid profile, unreachable target, a selection that matches
 * nothing, --reference mixed with a target), a target that breaks the contract exits 1 with the
 * failure's details on the console, and `--reference` runs a selection of the registered cases
 * green and writes the HTML, JUnit and JSON reports.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_CASES } from "../../conformance/cases/index.ts";
import type { RunSummary } from "../../conformance/core/types.ts";
import { runCli, runCliInProcess } from "../cli/run-cli.ts";
import { startFakeTarget, type FakeTarget } from "./fake-target.ts";
import { ceiling } from "../ceilings.ts";

const dir = mkdtempSync(join(tmpdir(), "sc-conformance-cli-"));
const VALID = join(dir, "valid.yaml");
writeFileSync(
  VALID,
  [
    "users:",
    "  - { login: octocat, password: octocat-demo-password, token: '0000000000000000000000000000000000000000' }",
    "  - { login: defunkt, token: '1111111111111111111111111111111111111111' }",
    "app: { clientId: demo-client-id-0001, clientSecret: demo-client-secret-0001-keep-it-private, callbackUrl: 'http://127.0.0.1:8080/callback' }",
    "org: octo-org",
    "repos: { public: octocat/hello-world, private: octocat/secret-plans }",
    "issue: 1",
    "authorize: { driver: form }",
    "",
  ].join("\n"),
);
const INVALID = join(dir, "invalid.yaml");
writeFileSync(INVALID, "users: []\napp: { clientId: x }\nrepos: { public: nope }\n");

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A few registered cases that need neither triggers nor the receiver: a fast, real selection. */
function quickSelection(count: number): string[] {
  return ALL_CASES.filter((c) => !c.needs?.some((n) => n === "trigger" || n === "receiver"))
    .slice(0, count)
    .map((c) => c.id);
}

let target: FakeTarget;
beforeAll(async () => {
  // Everything answers 500 with a body that is not the contract's error shape.
  target = await startFakeTarget((_req, res) => res.writeHead(500, { "content-type": "text/plain" }).end("Internal Server Error"));
});
afterAll(() => target?.close());

// Independent: run side by side. The exit-2 contract goes through the binary for the first case
// (and --help's exit 0 below); the other cases of the same path call `main` in process, which
// prints and returns exactly what the binary does, without a ~1 s tsx start each.
describe.concurrent("conformance: usage errors exit 2", () => {
  it("an unknown reporter (the binary)", async ({ expect }) => {
    const result = await runCli(["conformance", "--reference", "--reporter", "console,tap"]);
    expect(result.stderr).toMatch(/unknown reporter tap; use console, junit, json, html/);
    expect(result.code).toBe(2);
  });

  it.each([
    ["no profile", ["--base-url", "http://127.0.0.1:1", "--auth-url", "http://127.0.0.1:1"], /--profile is required/],
    ["no base URL", ["--profile", "x.yaml"], /--base-url is required \(or use --reference\)/],
    ["a base URL that is not http", ["--base-url", "ftp://x", "--auth-url", "http://127.0.0.1:1", "--profile", "x.yaml"], /--base-url must be an http\(s\) URL/],
    ["a profile file that does not exist", ["--base-url", "http://127.0.0.1:1", "--auth-url", "http://127.0.0.1:1", "--profile", join(dir, "missing.yaml")], /cannot read the profile .*missing\.yaml: ENOENT/],
    ["--reference with a target", ["--reference", "--base-url", "http://127.0.0.1:1"], /--reference starts its own target: drop --base-url/],
    ["an --only that matches nothing", ["--reference", "--only", "NO-SUCH-CASE-*"], /--only NO-SUCH-CASE-\* matches no case/],
    ["a bad case timeout", ["--reference", "--case-timeout", "0"], /--case-timeout must be a number of seconds/],
  ])("%s", async (_name, args, message) => {
    const result = await runCliInProcess(["conformance", ...args]);
    expect(result.stderr).toMatch(message);
    expect(result.code).toBe(2);
  });

  it("an invalid profile: every problem, with its JSON pointer", async ({ expect }) => {
    const result = await runCliInProcess(["conformance", "--base-url", target.url, "--auth-url", target.url, "--profile", INVALID]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("does not match spec/conformance-profile.schema.json:");
    expect(result.stderr).toContain("  /users: must NOT have fewer than 1 items");
    expect(result.stderr).toContain("  /app: must have required property 'clientSecret'");
    expect(result.stderr).toContain('  /repos/public: must match pattern "^[^/\\s]+/[^/\\s]+$"');
  });

  it("an unreachable target, before any case runs", async ({ expect }) => {
    const port = await closedPort();
    const result = await runCliInProcess(["conformance", "--base-url", `http://127.0.0.1:${port}`, "--auth-url", target.url, "--profile", VALID]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`the target does not answer: http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
    expect(result.stdout).toBe("");
  });

  it("--help explains the options with examples", async ({ expect }) => {
    const result = await runCli(["conformance", "--help"]);
    expect(result.code).toBe(0);
    for (const text of ["--base-url <url>", "--profile <file|demo>", "--admin-token <token>", "--only <patterns>", "--reporter <list>", "--receiver-host <address>", "--request-timeout <seconds>", "--reference", "users[0] (login, password, a token with repo, admin:repo_hook, admin:org_hook, user)", "Examples:", "conformance --reference --reporter console,html --out report"]) {
      expect(result.stdout).toContain(text);
    }
  });
});

describe("conformance against a target that breaks the contract", () => {
  it("exits 1 and shows each failure with expected, actual, pointer and curl", async () => {
    const ids = quickSelection(3);
    expect(ids.length).toBeGreaterThan(0);
    const out = join(dir, "broken");
    const result = await runCli(["conformance", "--base-url", target.url, "--auth-url", target.url, "--profile", VALID, "--only", ids.join(","), "--reporter", "console,json", "--out", out]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    const summary = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as RunSummary;
    expect(summary.counts.failed).toBeGreaterThan(0);
    expect(summary.results.map((r) => r.id).sort()).toEqual([...ids].sort());
    const failed = summary.results.find((r) => r.status === "failed")!;
    expect(result.stdout).toContain(`✗ ${failed.id}  ${failed.title}`);
    expect(result.stdout).toMatch(/ {6}failure: {2}\S/);
    expect(result.stdout).toContain(`curl:     curl -i -X`);
    expect(result.stdout).toMatch(/ {6}(expected|pointer):/);
    expect(result.stdout).toMatch(new RegExp(`${ids.length} cases?: \\d+ passed, ${summary.counts.failed} failed, \\d+ skipped`));
    expect(result.stdout).toContain(`Wrote ${join(out, "results.json")}`);
  }, ceiling(60_000));
});

describe("conformance --reference", () => {
  it("runs the selected cases green against the reference and writes the reports", async () => {
    const ids = quickSelection(6);
    const out = join(dir, "report");
    const result = await runCli(["conformance", "--reference", "--only", ids.join(","), "--reporter", "console,html,junit,json", "--out", out]);
    expect(result.stderr).toMatch(/Reference server: API http:\/\/127\.0\.0\.1:\d+, web host http:\/\/127\.0\.0\.1:\d+/);
    expect(result.stdout).toMatch(/Conformance run against http:\/\/127\.0\.0\.1:\d+/);
    for (const [i, id] of ids.entries()) expect(result.stdout).toMatch(new RegExp(`\\[\\s*${i + 1}/${ids.length}\\] [✓-] ${id} `));
    expect(result.stdout).toMatch(new RegExp(`${ids.length} cases?: \\d+ passed, 0 failed, \\d+ skipped`));
    expect(result.code).toBe(0);
    for (const file of ["report.html", "junit.xml", "results.json"]) expect(existsSync(join(out, file)), file).toBe(true);
    const html = readFileSync(join(out, "report.html"), "utf8");
    for (const id of ids) expect(html).toContain(`id="case-${id}"`);
  }, ceiling(90_000));
});
