/**
 * `service-contract conformance` through the real binary against targets a user's CI meets: a
 * server that accepts requests and never answers them, a `--out` folder that cannot be written,
 * a port fetch refuses to connect to, one URL for both hosts that does not answer. Each ends with
 * a clear message and the documented exit code, promptly: never a stack trace, never a hang.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliInProcess } from "../cli/run-cli.ts";
import { ceiling } from "../ceilings.ts";

const dir = mkdtempSync(join(tmpdir(), "sc-conformance-hostile-"));
const PROFILE = join(dir, "profile.yaml");
writeFileSync(PROFILE, ["users:", "  - { login: octocat, token: '0000000000000000000000000000000000000000' }", "repos: { public: octocat/hello-world }", ""].join("\n"));

/** Answers `/` (so the reachability check passes) and never answers anything else. */
let hanging: Server;
let hangingUrl: string;
beforeAll(async () => {
  hanging = createServer((req, res) => {
    if (req.url === "/") res.end("ok");
  });
  await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
  hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
});
afterAll(async () => {
  hanging.closeAllConnections();
  await new Promise((resolve) => hanging.close(resolve));
});

async function timed<T>(work: Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = Date.now();
  const value = await work;
  return { value, seconds: (Date.now() - started) / 1000 };
}

describe.concurrent("conformance against a server that never answers", () => {
  it("each request is bounded by --request-timeout: the case fails naming the request, and the run ends", async ({ expect }) => {
    const result = await runCli(["conformance", "--base-url", hangingUrl, "--auth-url", hangingUrl, "--profile", PROFILE, "--only", "FEEDS-ETAG-001", "--request-timeout", "1"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ FEEDS-ETAG-001 /);
    expect(result.stdout).toMatch(new RegExp(`failure: {2}no answer within 1 s: GET ${hangingUrl.replace(/\./g, "\\.")}/\\S+`));
    // The curl line is the request that hung, not an earlier one.
    expect(result.stdout).toMatch(new RegExp(`curl: {5}curl -i -X GET '${hangingUrl.replace(/\./g, "\\.")}/`));
    expect(result.stdout).toMatch(/1 case: 0 passed, 1 failed, 0 skipped/);
    // Bounded by the request's limit, not the case's (30 s): no wall-clock figure, which load skews.
    expect(result.stdout).not.toMatch(/did not finish within/);
  }, ceiling(60_000));

  it("a case that times out releases its requests: the process exits right after the summary", async ({ expect }) => {
    // The request time-out is far longer than the case's: the case's own limit must abort what
    // it left running, or the open sockets keep the process alive until the request's runs out.
    const { value: result, seconds } = await timed(
      runCli(["conformance", "--base-url", hangingUrl, "--auth-url", hangingUrl, "--profile", PROFILE, "--only", "FEEDS-ETAG-001", "--case-timeout", "1", "--request-timeout", "120"]),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/the case did not finish within 1000 ms/);
    // Far below the 120 s the open requests would otherwise hold it, with room for a loaded machine.
    expect(seconds).toBeLessThan(90);
  }, ceiling(110_000));

  it("--request-timeout must be a positive number of seconds", async ({ expect }) => {
    // Exit 2 of the same usage path the binary shows in test/conformance/cli.test.ts: `main` in process.
    const result = await runCliInProcess(["conformance", "--reference", "--request-timeout", "soon"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--request-timeout must be a number of seconds/);
  });
});

// Found before any case runs: `main` in process prints and returns exactly what the binary does
// (the binary's exit-2 contract is proven in test/conformance/cli.test.ts and above).
describe.concurrent("conformance: problems found before the first case", () => {
  it("a --out folder that cannot be created is a usage error before anything runs", async ({ expect }) => {
    const file = join(dir, "a-file");
    writeFileSync(file, "not a folder");
    const result = await runCliInProcess(["conformance", "--base-url", hangingUrl, "--auth-url", hangingUrl, "--profile", PROFILE, "--only", "FEEDS-ETAG-001", "--reporter", "json", "--out", join(file, "report")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^service-contract: cannot write the reports to ${join(file, "report").replace(/[.\\/]/g, "\\$&")}: ENOTDIR`));
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe("");
  });

  it("a port fetch will not connect to is named as such", async ({ expect }) => {
    // 6000 (X11) is on the fetch standard's list of bad ports: undici refuses it without connecting.
    const result = await runCliInProcess(["conformance", "--base-url", "http://127.0.0.1:6000", "--auth-url", hangingUrl, "--profile", PROFILE]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/the target does not answer: http:\/\/127\.0\.0\.1:6000 \(port 6000 is one fetch refuses to connect to/);
  });

  it("one unreachable URL given for both hosts is reported once", async ({ expect }) => {
    const probe = createNetServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const url = `http://127.0.0.1:${port}`;
    const result = await runCliInProcess(["conformance", "--base-url", url, "--auth-url", url, "--profile", PROFILE]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(`service-contract: the target does not answer: ${url} (ECONNREFUSED)`);
  });
});

// Issue 34, point 8: exit 1 means only "a seed rule failed". A crash of the command itself — an
// exception thrown in a callback, a rejected promise nobody awaited — exited 1 by Node's default,
// which a pipeline reads as a verdict on the target. Injected here (fault injection lives in
// tests: a module preloaded into the binary's process, throwing at the run's first request).
describe.concurrent("conformance: a crash of the command is exit 4, never 1", () => {
  it.each([
    ["an uncaught exception", "process.nextTick(() => { throw new Error('injected crash') })"],
    ["an unhandled rejection", "void Promise.reject(new Error('injected crash'))"],
  ])("%s: exit 4 and an internal-error line", async (_name, crash) => {
    const preload = join(dir, `crash-${crash.length}.mjs`);
    writeFileSync(preload, `const real = globalThis.fetch;\nlet once = false;\nglobalThis.fetch = (...args) => { if (!once) { once = true; ${crash}; } return real(...args); };\n`);
    const result = await runCli(["conformance", "--base-url", hangingUrl, "--auth-url", hangingUrl, "--profile", PROFILE, "--only", "FEEDS-ETAG-001"], { env: { NODE_OPTIONS: `--import ${preload}` } });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^service-contract: internal error \(a bug of service-contract; please report it with this text\): Error: injected crash\n\s+at /);
  }, ceiling(60_000));
});
