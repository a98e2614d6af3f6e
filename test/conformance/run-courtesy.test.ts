/**
 * The suite is courteous to the people who run it, over real HTTP against the reference server:
 * when the target's rate limit will not last the run it says so in one line, skips the cases
 * that would go past it, each with the reason, and runs the rest (and `serve --rate-limit`
 * raises it), it needs only the two URLs of a server with the demo data (and never revokes the
 * tokens it did not make), and the OAuth-client suite without a browser is one line, exit 2.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../reference/server.ts";
import { caseNeeds, requestsNeeded, AREA_USER_REQUESTS } from "../../conformance/run/rate-budget.ts";
import { ADDRESS_REQUESTS } from "../../conformance/run/address-requests.ts";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunSummary } from "../../conformance/core/types.ts";
import { declaredLimits, demoProfile, hasDemoData } from "../../conformance/run/demo-profile.ts";
import { ALL_CASES } from "../../conformance/cases/index.ts";
import { parseRateLimit } from "../../cli/commands/serve.ts";
import { runCliInProcess } from "../cli/in-process.ts";
import { basic } from "../reference/harness.ts";
import { ceiling } from "../ceilings.ts";

let server: RunningServer;
beforeAll(async () => {
  // A tight anonymous limit, so spending it takes a handful of requests.
  server = await startServer({ port: 0, authPort: 0, seed: "demo", history: false, rateLimits: { anonymous: 12 } });
}, ceiling(30_000));
afterAll(() => server?.close());

describe("rate limits said, not suffered", () => {
  it("serve's limits reach the headers", async () => {
    const res = await fetch(`${server.urls.api}/events`);
    expect(res.headers.get("x-ratelimit-limit")).toBe("12");
    const user = await fetch(`${server.urls.api}/authorizations`, { headers: { authorization: basic("octocat", "octocat-demo-password") } });
    expect(user.headers.get("x-ratelimit-limit")).toBe("5000");
    expect(parseRateLimit("--rate-limit", "5000, 600")).toEqual({ authenticated: 5000, anonymous: 600 });
    expect(() => parseRateLimit("--rate-limit", "lots")).toThrow('--rate-limit takes two hourly limits, with a token and without one, as AUTHENTICATED,ANONYMOUS (e.g. 5000,60), got "lots"');
  });

  it("what the selected cases need: each case's measured address figure, and its area's token figure in proportion", () => {
    const all = requestsNeeded(ALL_CASES, ALL_CASES);
    expect(all.address).toBe(Object.values(ADDRESS_REQUESTS).reduce((n, a) => n + a, 0));
    expect(all.address).toBeLessThanOrEqual(60);
    expect(caseNeeds({ id: "FEEDS-VIS-002", area: "feeds" }, ALL_CASES).address).toBe(ADDRESS_REQUESTS["FEEDS-VIS-002"]);
    const robust = ALL_CASES.filter((c) => c.area === "robustness");
    expect(requestsNeeded(robust, ALL_CASES).user).toBeGreaterThanOrEqual(AREA_USER_REQUESTS.robustness);
    expect(requestsNeeded([], ALL_CASES)).toEqual({ address: 0, user: 0 });
  });

  it("runs what fits: one line, the cases past the limit skipped with the reason, the rest pass (it refused the whole run before)", async () => {
    // 12 anonymous requests an hour; these cases spend 6 + 2 + 1 + 2 + 2 against the address
    // (address-requests.ts), and the preflight and the demo profile's detection two more: the
    // last to come cannot all run.
    const out = mkdtempSync(join(tmpdir(), "sc-courtesy-"));
    const only = "FEEDS-VIS-002,CONTRACT-ESCAPE-001,CONTRACT-RATE-001,ROBUST-LIST_REPO_EVENTS-001,ROBUST-LIST_SERVICE_HOOKS-001";
    expect(requestsNeeded(ALL_CASES.filter((c) => only.split(",").includes(c.id)), ALL_CASES).address).toBeGreaterThan(12);
    const cli = await runCliInProcess(["conformance", "--base-url", server.urls.api, "--auth-url", server.urls.auth, "--profile", "demo", "--only", only, "--reporter", "json", "--out", out]);
    expect(cli.stderr).toMatch(/^the target's rate limit will not last the whole run \(anonymously \d+ of 12 requests left until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(X-RateLimit-Reset\)\): \d+ case\(s\) that would go past it are skipped, each saying why; the rest run$/m);
    const report = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as RunSummary;
    const skipped = report.results.filter((r) => r.status === "skipped");
    expect(skipped.length).toBeGreaterThan(0);
    for (const r of skipped) expect(r.reason).toMatch(/^the target's anonymous rate limit will not last this case: \d+ of 12 requests left/);
    // The rest ran and passed: no case failed on a 403 that was not its own.
    expect(report.results.filter((r) => r.status === "failed").map((r) => `${r.id}: ${r.failure?.message}`)).toEqual([]);
    expect(report.results.filter((r) => r.status === "passed").length).toBeGreaterThan(0);
    expect(cli.code, cli.stdout).toBe(0);
  }, ceiling(60_000));
});

describe("the demo profile, built in", () => {
  it("recognises the demo data and makes personal tokens for octocat and defunkt", async () => {
    expect(await hasDemoData(server.urls.api)).toBe(true);
    const profile = await demoProfile(server.urls.api);
    expect(profile.users.map((u) => u.login)).toEqual(["octocat", "defunkt"]);
    expect(profile.triggers).toBeUndefined();
    const scopes = await fetch(`${server.urls.api}/repos/octocat/secret-plans/events`, { headers: { authorization: `token ${profile.users[0]!.token}` } });
    expect(scopes.status).toBe(200);
    expect(scopes.headers.get("x-oauth-scopes")!.split(", ").sort()).toEqual(["admin:org_hook", "admin:repo_hook", "repo", "user"]);
    expect(Object.keys((await demoProfile(server.urls.api, { adminToken: "0123456789abcdef0123" })).triggers ?? {})).toContain("push");
  });

  it("needs only the two URLs, and the OAuth cases leave the profile's token working even when it is the demo app's", async () => {
    // The profile's own token from the demo application, as README's walk-through makes one:
    // the suite's clean-up must revoke only the tokens it made itself.
    const put = await fetch(`${server.urls.api}/authorizations/clients/demo-client-id-0001/courtesy`, {
      method: "PUT",
      headers: { authorization: basic("octocat", "octocat-demo-password"), "content-type": "application/json" },
      body: JSON.stringify({ client_secret: "demo-client-secret-0001-keep-it-private", scopes: ["repo", "admin:repo_hook", "admin:org_hook", "user"] }),
    });
    const appToken = ((await put.json()) as { token: string }).token;
    const cli = await runCliInProcess(["conformance", "--base-url", server.urls.api, "--auth-url", server.urls.auth, "--only", "OAUTH-TOKEN-*,OAUTH-SCOPE-001,OAUTH-SCOPE-002,OAUTH-ERROR-003"]);
    expect(cli.stderr).toContain("No --profile: the target has the demo data (octocat signs in), so the built-in demo profile is used (--profile demo)");
    expect(cli.stdout, cli.stderr).toMatch(/\d+ cases: \d+ passed, 0 failed/);
    expect(cli.code, cli.stdout).toBe(0);
    const still = await fetch(`${server.urls.api}/applications/demo-client-id-0001/tokens/${appToken}`, { headers: { authorization: basic("demo-client-id-0001", "demo-client-secret-0001-keep-it-private") } });
    expect(still.status).toBe(200);
  }, ceiling(60_000));

  it("without --profile a target lacking the demo data is a usage error saying so", async () => {
    const other = await startServer({ port: 0, authPort: 0, seed: "none" });
    try {
      const cli = await runCliInProcess(["conformance", "--base-url", other.urls.api, "--auth-url", other.urls.auth]);
      expect(cli.code).toBe(2);
      expect(cli.stderr).toBe("service-contract: --profile is required (or use --reference): the target has no demo data (octocat does not sign in with the demo password), so say what the suite may use there\n");
    } finally {
      await other.close();
    }
  });
});

describe("the OAuth client suite without a browser", () => {
  it("is one line and exit 2, before anything starts", async () => {
    const cli = await runCliInProcess(["conformance", "--oauth-client", "--profile", "conformance/examples/oauth-client/profile.yaml"], { env: { CHROMIUM_PATH: "/nonexistent/chromium" } });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toBe("service-contract: --oauth-client drives Chromium, and there is none at /nonexistent/chromium: install it (apt-get install -y chromium) or set CHROMIUM_PATH\n");
    expect(cli.stdout).toBe("");
  });
});

describe("the demo profile against serve --rate-limit (raised to run the suite again within the hour)", () => {
  let raised: RunningServer;
  beforeAll(async () => {
    raised = await startServer({ port: 0, authPort: 0, seed: "demo", history: false, rateLimits: { authenticated: 100_000, anonymous: 20_000 } });
  }, ceiling(30_000));
  afterAll(() => raised?.close());

  it("declares the limits the server says, so the rate-limit case holds it to them and passes", async () => {
    expect((await demoProfile(raised.urls.api)).decisions).toEqual({ "D-RATE-RESET": { authenticated: 100_000, anonymous: 20_000 } });
    const cli = await runCliInProcess(["conformance", "--base-url", raised.urls.api, "--auth-url", raised.urls.auth, "--only", "CONTRACT-RATE-001"]);
    expect(cli.stderr).toContain("The server's hourly limits are 100000 with a token and 20000 without (serve --rate-limit), not the contract's 5000 and 60: the demo profile declares them (D-RATE-RESET)");
    expect(cli.stdout, cli.stderr).toMatch(/CONTRACT-RATE-001/);
    expect(cli.code, cli.stdout).toBe(0);
  });

  it("declares nothing for the contract's limits, or when the server says none", () => {
    expect(declaredLimits(5000, 60)).toBeUndefined();
    expect(declaredLimits(5000, undefined)).toBeUndefined();
    expect(declaredLimits(5000, 600)).toEqual({ authenticated: 5000, anonymous: 600 });
  });
});
