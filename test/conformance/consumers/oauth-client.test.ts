/**
 * The OAuth client suite over real HTTP with Chromium: the example client
 * (conformance/examples/oauth-client) passes every case that applies to it (in process), and its
 * sloppy variant without the state check fails exactly OAUTH-CLIENT-STATE-002 (through the CLI's
 * `main` in process — its own authorization server, exit 1, the JSON report it writes), and
 * OAUTH-CLIENT-PKCE-001 too, since its profile claims PKCE it does not send. The example's own
 * profile says it does not use PKCE, so there the PKCE case skips. The binary: exit 2 below; its
 * exit 1 with a JSON report for a failing run is test/conformance/cli.test.ts's.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliInProcess } from "../../cli/run-cli.ts";
import { freePort } from "../../../cli/free-port.ts";
import { runOAuthClientSuite, startAuthorizationServer, type AuthorizationServer, type ClientProfile } from "../../../conformance/consumers/oauth-client/index.ts";
import { startExampleClient, type ExampleClient } from "../../../conformance/examples/oauth-client/client.ts";
import type { RunSummary } from "../../../conformance/core/types.ts";
import { chromiumSkip } from "../../browser/chromium.ts";
import { ceiling } from "../../ceilings.ts";

const skipReason = await chromiumSkip();
const clients: ExampleClient[] = [];
let authUrl: string;
let server: AuthorizationServer | undefined;

function profileOf(client: ExampleClient, credentials: { clientId: string; clientSecret: string }): ClientProfile {
  return {
    startUrl: client.startUrl,
    callbackUrl: client.callbackUrl,
    ...credentials,
    authUrl,
    success: { url: "/welcome", text: "Signed in with the service" },
    failure: { text: "Sign-in failed" },
    tokenFormats: { json: `${client.startUrl}?format=json`, form: `${client.startUrl}?format=form`, xml: `${client.startUrl}?format=xml` },
  };
}

// The in-process run signs in at an authorization server the test owns (the `server` option).
beforeAll(async () => {
  if (skipReason) return;
  authUrl = `http://127.0.0.1:${await freePort()}`;
  const first = await startExampleClient({ authUrl, clientId: "example-client-id", clientSecret: "example-client-secret-keep-it-private" });
  clients.push(first);
  server = await startAuthorizationServer(profileOf(first, { clientId: "example-client-id", clientSecret: "example-client-secret-keep-it-private" }));
}, ceiling(60_000));
afterAll(async () => {
  for (const c of clients) await c.close();
  await server?.close();
});

async function runAgainstExample(): Promise<RunSummary> {
  const credentials = { clientId: "example-client-id", clientSecret: "example-client-secret-keep-it-private" };
  return runOAuthClientSuite({ profile: profileOf(clients[0]!, credentials), server, timeoutMs: 60_000 });
}

const idsWith = (s: RunSummary, status: string) => s.results.filter((r) => r.status === status).map((r) => r.id);
const explain = (s: RunSummary) => s.results.filter((r) => r.status === "failed").map((r) => `${r.id}: ${r.failure?.message} ${JSON.stringify(r.failure?.actual)}`).join("\n");

describe.skipIf(skipReason)("conformance --oauth-client", () => {
  it("the example client passes every case; PKCE skips because its profile says it does not use PKCE", async () => {
    const summary = await runAgainstExample();
    expect(idsWith(summary, "failed"), explain(summary)).toEqual([]);
    expect(idsWith(summary, "skipped")).toEqual(["OAUTH-CLIENT-PKCE-001"]);
    expect(summary.results.find((r) => r.id === "OAUTH-CLIENT-PKCE-001")?.reason).toMatch(/does not use PKCE/);
    expect(summary.counts.passed).toBe(summary.results.length - 1);
  }, ceiling(240_000));
});

describe("conformance --oauth-client through the command line", () => {
  const dir = mkdtempSync(join(tmpdir(), "sc-oauth-client-"));

  it("exits 2 without a profile, for an invalid one, and when mixed with --receiver", async () => {
    const invalid = join(dir, "invalid.yaml");
    writeFileSync(invalid, "startUrl: not a url\nclientId: x\nextra: 1\n");
    // The binary for the first; `main` in process for the other two (same exit-2 path, same output).
    const [none, bad, mixed] = await Promise.all([
      runCli(["conformance", "--oauth-client"]),
      runCliInProcess(["conformance", "--oauth-client", "--profile", invalid]),
      runCliInProcess(["conformance", "--oauth-client", "--receiver", "http://127.0.0.1:9/hook", "--secret", "s"]),
    ]);
    expect([none.code, bad.code, mixed.code]).toEqual([2, 2, 2]);
    expect(none.stderr).toMatch(/--profile is required with --oauth-client/);
    expect(bad.stderr).toMatch(/not a valid OAuth client profile[\s\S]*\/: must have required property 'callbackUrl'[\s\S]*\(extra\)/);
    expect(mixed.stderr).toMatch(/two suites/);
  }, ceiling(60_000));

  it.skipIf(skipReason)("the client without the state check, claiming PKCE it does not send, fails exactly OAUTH-CLIENT-STATE-002 and OAUTH-CLIENT-PKCE-001 (exit 1, JSON report)", async () => {
    // Its own authorization server (the command starts one), so its own authUrl.
    const own = `http://127.0.0.1:${await freePort()}`;
    const credentials = { clientId: "sloppy-client-id", clientSecret: "sloppy-client-secret-keep-it-private" };
    const client = await startExampleClient({ authUrl: own, ...credentials, checkState: false });
    clients.push(client);
    const profile = join(dir, "sloppy.json");
    // It claims PKCE, which the reference (the authorization server here) supports: the claim is checked.
    writeFileSync(profile, JSON.stringify({ ...profileOf(client, credentials), authUrl: own, pkce: true }));
    const out = join(dir, "report");
    // `main` in this process: the command's run is what the file is about, the binary's start is
    // the exit-2 case above (the worker has the suite, Playwright and the reference loaded already).
    const r = await runCliInProcess(["conformance", "--oauth-client", "--profile", profile, "--reporter", "console,json", "--out", out]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const report = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as RunSummary;
    expect(idsWith(report, "failed"), explain(report)).toEqual(["OAUTH-CLIENT-STATE-002", "OAUTH-CLIENT-PKCE-001"]);
    expect(report.results.find((x) => x.id === "OAUTH-CLIENT-STATE-002")?.failure?.message).toMatch(/exchanged the code anyway/);
    expect(report.results.every((x) => x.area === "oauth-client")).toBe(true);
    expect(report.target.authUrl).toBe(own);
    // The example sends no code_challenge.
    expect(report.results.find((x) => x.id === "OAUTH-CLIENT-PKCE-001")?.failure?.message).toMatch(/no S256 code_challenge/);
  }, ceiling(180_000));
});
