/**
 * The suite against a server another team wrote (issue 33, point 7): the independent server of
 * test/conformance/independent-server/ — written from the seed alone, in memory, no code of this
 * project's — with the profile its team would write (test/conformance/independent-profile.ts),
 * which declares every choice it made otherwise than the contract — exactly the block one run's
 * `--suggest-decisions` gives from an empty `decisions:`. A whole run passes both levels and
 * leaves nothing behind; the run's requests, counted by the server (bad credentials
 * included), stay within what conformance/run/rate-budget.ts says; with every decision of the
 * rule table switched off no case crashes and no seed rule fails; and the two-factor case passes
 * twice in a row on one server (a rerun within the TOTP period waits for a fresh step).
 *
 * Integration: each full run takes about 30 s on a quiet machine and the rerun up to a period
 * more (test/tiers.ts). The seed breaches it can be made to commit, and the rest that is quick,
 * are core: independent-server-seed.test.ts.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { DecisionSetting } from "../../conformance/core/decisions.ts";
import type { RunSummary } from "../../conformance/core/types.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import { ALL_CASES } from "../../conformance/cases/index.ts";
import { ruleTable } from "../../conformance/rules/table.ts";
import { ADDRESS_BUDGET, AREA_USER_REQUESTS, requestsNeeded } from "../../conformance/run/rate-budget.ts";
import { suggestedEntries } from "../../conformance/run/suggest.ts";
import { startIndependentServer, type IndependentServer } from "./independent-server/server.ts";
import { DECISIONS, independentProfile } from "./independent-profile.ts";
import { resultLine } from "./fault-proxy/run.ts";
import { ceiling } from "../ceilings.ts";

let server: IndependentServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(decisions: Record<string, DecisionSetting>, only?: string, timeoutMs?: number): Promise<RunSummary> {
  server = await startIndependentServer();
  return runSuite({ baseUrl: server.api, authUrl: server.auth, profile: independentProfile(server, decisions), ...(only ? { only } : {}), ...(timeoutMs ? { timeoutMs } : {}) });
}

const lines = (summary: RunSummary) => summary.results.map(resultLine).join("\n");

describe("the independent server with its declared profile", () => {
  it("declares at least fifteen choices, each a decision that cases enforce", () => {
    const rules = new Map(ruleTable(ALL_CASES).map((r) => [r.id, r]));
    expect(Object.keys(DECISIONS).length).toBeGreaterThanOrEqual(15);
    for (const id of Object.keys(DECISIONS)) expect(rules.get(id)?.cases.length ?? 0, id).toBeGreaterThan(0);
  });

  it(
    "passes both levels in one run, leaves no hook, token or grant behind, and spends what the budget says",
    async () => {
      const summary = await run(DECISIONS);
      const all = lines(summary);
      expect(summary.results.filter((r) => r.status === "failed").map(resultLine), all).toEqual([]);
      expect(summary.levels?.seed.failed, all).toBe(0);
      expect(summary.levels?.contract.failed, all).toBe(0);
      // A run that passed by skipping everything would prove nothing.
      expect(summary.counts.passed, all).toBeGreaterThan(150);
      expect(summary.levels!.seed.passed, all).toBeGreaterThan(45);
      // Its hook API answers other statuses (D-HOOK-STATUSES off) on the contract's paths and
      // bodies: the cases of that API still run whole, the switch took only the statuses.
      const hookCases = ["HOOKS-CREATE-001", "HOOKS-READ-001", "HOOKS-EDIT-001", "HOOKS-DELETE-001", "HOOKS-ORG-002", "WEBHOOK-ACTIVE-001"];
      expect(hookCases.map((id) => `${id} ${summary.results.find((r) => r.id === id)?.status}`), all).toEqual(hookCases.map((id) => `${id} passed`));

      // Nothing the suite made is left: sessions and unused codes have no removal in the seed.
      const left = server!.leftovers();
      expect({ hooks: left.hooks, tokens: left.tokens, grants: left.grants }).toEqual({ hooks: [], tokens: [], grants: [] });
      expect(summary.results.flatMap((r) => r.notes.filter((n) => n.startsWith("left behind:")).map((n) => `${r.id}: ${n}`))).toEqual([]);

      // The request budget, counted by the server: every request, bad credentials included.
      const spent = server!.spent();
      const address = Object.entries(spent).filter(([k]) => k.startsWith("ip:")).reduce((n, [, v]) => n + v, 0);
      const stated = { address: requestsNeeded(ALL_CASES, ALL_CASES).address, user: Object.values(AREA_USER_REQUESTS).reduce((n, a) => n + a, 0) };
      // The ordinary anonymous limit (60 an hour) holds a whole run, bad credentials included.
      expect(stated.address).toBeLessThanOrEqual(ADDRESS_BUDGET);
      console.log(`independent server: ${summary.durationMs} ms; spent against the address ${address}, users[0] ${spent["user:ada"]}; counts ${JSON.stringify(server!.counts)}`);
      expect(address).toBeLessThanOrEqual(stated.address);
      expect(spent["user:ada"]).toBeLessThanOrEqual(stated.user);
    },
    ceiling(90_000),
  );
});

describe("from an empty decisions block", () => {
  it(
    "one run suggests exactly the profile's decisions",
    async () => {
      const summary = await run({});
      const suggested = Object.fromEntries(suggestedEntries(summary).map((e) => [e.id, e.setting]));
      const sorted = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
      expect(sorted(suggested), lines(summary)).toEqual(sorted(DECISIONS));
      // And no seed rule failed on the way: the departures are all the contract's.
      expect(summary.rules?.filter((r) => r.level === "seed" && r.status === "failed").map((r) => r.id), lines(summary)).toEqual([]);
    },
    ceiling(90_000),
  );
});

describe("every decision switched off", () => {
  it(
    "crashes no case and fails no seed rule",
    async () => {
      const off = Object.fromEntries(ruleTable(ALL_CASES).filter((r) => r.id.startsWith("D-")).map((r) => [r.id, "off" as const]));
      const summary = await run(off);
      const all = lines(summary);
      expect(summary.results.filter((r) => /unexpected error/.test(r.failure?.message ?? "")).map(resultLine), all).toEqual([]);
      expect(summary.rules?.filter((r) => r.level === "seed" && r.status === "failed").map((r) => `${r.id}: ${r.failures[0]?.message}`), all).toEqual([]);
      expect(summary.results.filter((r) => r.status === "failed").map(resultLine), all).toEqual([]);
      // Every seed rule a case names got checked: a switched-off decision skipped only its own assertions.
      expect(summary.rules?.filter((r) => r.level === "seed" && r.status !== "passed").map((r) => `${r.id}: ${r.status}`), all).toEqual([]);
    },
    ceiling(90_000),
  );
});

describe("the two-factor case run twice on one server", () => {
  it(
    "passes both times: the second waits for a fresh time step when the first spent the current one",
    async () => {
      server = await startIndependentServer();
      const profile = independentProfile(server);
      const once = () => runSuite({ baseUrl: server!.api, authUrl: server!.auth, profile, only: "OAUTH-NONWEB-002", timeoutMs: ceiling(20_000) });
      const first = await once();
      const second = await once();
      expect([first, second].map((s) => s.results.map(resultLine))).toEqual([["OAUTH-NONWEB-002 passed"], ["OAUTH-NONWEB-002 passed"]]);
    },
    ceiling(60_000),
  );
});
