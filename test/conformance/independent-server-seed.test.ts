/**
 * The independent server kept honest (issue 33, point 7): it is another team's code — nothing of
 * this project's is imported there — and where it breaks the seed the suite says so, at the
 * seed level, even with its whole profile of declared choices. Each breach is a test-only
 * option of the server (`breakSeed`), run on the few cases that meet it; the same cases pass
 * on the server unbroken. And the rate-budget preflight finds out that this server counts
 * refused credentials against the address, which the reference does not.
 * The full runs are in independent-server.test.ts (integration: they take longer).
 */
import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { RunSummary } from "../../conformance/core/types.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import { planBudget, readBudget, requestsNeeded } from "../../conformance/run/rate-budget.ts";
import { ALL_CASES } from "../../conformance/cases/index.ts";
import { Decisions } from "../../conformance/core/decisions.ts";
import { formatRuleTable, ruleTable } from "../../conformance/rules/table.ts";
import { startIndependentServer, type IndependentOptions, type IndependentServer } from "./independent-server/server.ts";
import { DECISIONS, independentProfile } from "./independent-profile.ts";
import { resultLine } from "./fault-proxy/run.ts";
import { ceiling } from "../ceilings.ts";

const FOLDER = new URL("./independent-server/", import.meta.url);

let server: IndependentServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(options: IndependentOptions, only: string): Promise<RunSummary> {
  server = await startIndependentServer(options);
  return runSuite({ baseUrl: server.api, authUrl: server.auth, profile: { ...independentProfile(server, DECISIONS), deliveryTimeoutMs: ceiling(600) }, only });
}

const failedSeedRules = (s: RunSummary) => (s.rules ?? []).filter((r) => r.level === "seed" && r.status === "failed").map((r) => r.id);

describe("the independent server is another team's code", () => {
  it("imports nothing of the project: no reference/, generated/, runtime/ or conformance/ module", () => {
    const files = readdirSync(FOLDER).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(4);
    for (const file of files) {
      const text = readFileSync(new URL(file, FOLDER), "utf8");
      const imports = [...text.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]!);
      expect(imports.filter((i) => !(i.startsWith("node:") || /^\.\/[\w-]+\.ts$/.test(i))), file).toEqual([]);
    }
  });
});

describe("where it breaks the seed, the suite says so at the seed level", () => {
  const BREACHES: { breach: NonNullable<IndependentOptions["breakSeed"]>; only: string; rule: string }[] = [
    // Signed with another key than the hook's secret: no signature checks out.
    { breach: "wrong-signature", only: "WEBHOOK-SIGNATURE-001", rule: "S-WEBHOOK-SIGNATURE" },
    // A 200 [] where the feed has not changed: no 304 Not Modified.
    { breach: "feed-304-ignored", only: "FEEDS-ETAG-002", rule: "S-FEED-CONDITIONAL" },
  ];
  for (const { breach, only, rule } of BREACHES) {
    it(
      `${breach}: ${only} fails ${rule}, and passes on the server unbroken`,
      async () => {
        const broken = await run({ breakSeed: breach }, only);
        expect(failedSeedRules(broken), broken.results.map(resultLine).join("\n")).toContain(rule);
        await server!.close();
        server = undefined;
        const sound = await run({}, only);
        expect(sound.results.map(resultLine)).toEqual([`${only} passed`]);
      },
      ceiling(20_000),
    );
  }
});

describe("the request budget's preflight", () => {
  it("reads what is left with two requests and plans the run: what does not fit is skipped, the rest runs", async () => {
    server = await startIndependentServer();
    const budget = await readBudget({ baseUrl: server.api, token: independentProfile(server).users[0]!.token });
    expect(budget.address?.limit).toBe(600);
    expect(budget.user?.remaining).toBeGreaterThan(1000);
    // The probes themselves: one anonymous request, one with the token, no bad credential.
    expect(server.counts.badCredentials).toBe(0);
    expect(requestsNeeded(ALL_CASES, ALL_CASES).address).toBeLessThanOrEqual(60);
    // With 5 left for the address: FEEDS-VIS-002 (6 anonymous requests) cannot run, the cheap ones still do.
    const tight = { ...budget, address: { ...budget.address!, remaining: 5 } };
    const order = ALL_CASES.filter((c) => ["FEEDS-VIS-002", "CONTRACT-SCOPE-001", "FEEDS-ETAG-001"].includes(c.id));
    const plan = planBudget(order, ALL_CASES, tight);
    expect([...plan.skips.keys()]).toEqual(["FEEDS-VIS-002"]);
    expect(plan.skips.get("FEEDS-VIS-002")).toMatch(/^the target's anonymous rate limit will not last this case: 5 of 600 requests left when the run began, the cases before it spend about \d+ and this one about 6 against the client address/);
    expect(plan.line).toMatch(/1 case\(s\) that would go past it are skipped/);
    expect(planBudget(order, ALL_CASES, budget).skips.size).toBe(0);
  });
});

describe("a profile written before a decision was split (issue 40: profiles survive a split)", () => {
  // The independent server's profile as it was before D-HOOK-STATUSES was split from
  // D-HOOK-ENDPOINTS (issue 33): the hook API's other statuses were covered by that one switch.
  const { "D-HOOK-STATUSES": _split, ...rest } = DECISIONS;
  const before = { ...rest, "D-HOOK-ENDPOINTS": "off" as const };
  const HOOK_CASES = "HOOKS-CREATE-001,HOOKS-READ-001,HOOKS-EDIT-001,HOOKS-DELETE-001,HOOKS-ORG-002";

  it("still passes: D-HOOK-STATUSES inherits the parent's off, and the run says so", async () => {
    server = await startIndependentServer();
    const summary = await runSuite({ baseUrl: server.api, authUrl: server.auth, profile: { ...independentProfile(server, before), deliveryTimeoutMs: ceiling(600) }, only: HOOK_CASES });
    expect(summary.results.filter((r) => r.status === "failed").map(resultLine)).toEqual([]);
    expect(summary.decisions?.off).toEqual(expect.arrayContaining(["D-HOOK-ENDPOINTS", "D-HOOK-STATUSES"]));
    expect(new Decisions(before).inherited(before)).toEqual({ "D-HOOK-STATUSES": "D-HOOK-ENDPOINTS" });
  }, ceiling(30_000));

  it("naming the new decision checks it apart: on, it fails where the server answers other statuses", async () => {
    server = await startIndependentServer();
    const named = { ...before, "D-HOOK-STATUSES": "on" as const };
    expect(new Decisions(named).on("D-HOOK-STATUSES")).toBe(true);
    const summary = await runSuite({ baseUrl: server.api, authUrl: server.auth, profile: { ...independentProfile(server, named), deliveryTimeoutMs: ceiling(600) }, only: "HOOKS-CREATE-001" });
    expect(summary.rules?.find((r) => r.id === "D-HOOK-STATUSES")?.status).toBe("failed");
  }, ceiling(30_000));

  it("--list shows the lineage", () => {
    const row = ruleTable(ALL_CASES).find((r) => r.id === "D-HOOK-STATUSES")!;
    expect(row.parent).toBe("D-HOOK-ENDPOINTS");
    expect(formatRuleTable([row])).toContain("D-HOOK-STATUSES  [DECISIONS › Hooks and webhook deliveries]  (split from D-HOOK-ENDPOINTS: a profile that switches D-HOOK-ENDPOINTS off and does not name D-HOOK-STATUSES switches it off too)");
  });
});
