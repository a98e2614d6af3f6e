/**
 * The suite against servers it has never seen (issue 40): two servers written blind — from the
 * seed alone, by someone who read neither the suite nor the contract, each choosing otherwise on
 * a list of axes (test/conformance/blind-prefixed/: fastify, the API under /api/v3, RFC 7807
 * errors, HTTP Basic everywhere, a relative sign-in redirect, strong content-hash ETags…;
 * test/conformance/blind-plain/: node:http, an error body of its own, weak ETags, opaque ids,
 * other statuses, a 429 rate limit…). Each keeps an ordinary anonymous limit of 60 requests an
 * hour, bad credentials counted against the address. For each:
 *
 * - one run from an empty `decisions:` fails no seed rule, and its `--suggest-decisions` block is
 *   the profile's (test/conformance/blind/*-decisions.ts, pasted from such a run);
 * - with that profile the run passes both levels (exit 0), leaves nothing behind (the server's
 *   own account, and no `left behind:` note), within the 60 anonymous requests; a second run
 *   straight after, on the same server, passes too, skipping (with the reason) what the
 *   anonymous requests left cannot hold;
 * - with every decision of the rule table off, every seed rule it keeps still passes, and no case
 *   stops on an unexpected error.
 *
 * Integration: each run takes 20–35 s (four per server).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { DecisionSetting } from "../../conformance/core/decisions.ts";
import type { Profile } from "../../conformance/core/profile.ts";
import type { RunSummary } from "../../conformance/core/types.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import { failedLevel } from "../../conformance/run/rule-results.ts";
import { readBudget } from "../../conformance/run/rate-budget.ts";
import { ruleTable } from "../../conformance/rules/table.ts";
import { ALL_CASES } from "../../conformance/cases/index.ts";
import { resultLine } from "./fault-proxy/run.ts";
import { ceiling } from "../ceilings.ts";
import { plainProfile, prefixedProfile, type BlindTarget } from "./blind/profiles.ts";
import { PREFIXED_DECISIONS } from "./blind/prefixed-decisions.ts";
import { PLAIN_DECISIONS } from "./blind/plain-decisions.ts";
import { start as startPrefixed } from "./blind-prefixed/server.ts";
import { start as startPlain } from "./blind-plain/server.ts";

interface Blind extends BlindTarget {
  anonymousSpent(): number;
  leftovers(): { hooks: string[]; tokens: string[]; grants: string[] };
  close(): Promise<void>;
}

const SERVERS: { name: string; start: () => Promise<Blind>; profile: (t: BlindTarget, d: Record<string, DecisionSetting>) => Profile; decisions: Record<string, DecisionSetting> }[] = [
  // Retries within a case's wait: the servers' own schedule (2, 6, 20 s; 1, 5, 30 s) shortened, as the reference's is for the suite.
  { name: "blind-prefixed", start: () => startPrefixed({ retryDelaysMs: [500, 1000, 2000] }) as Promise<Blind>, profile: prefixedProfile, decisions: PREFIXED_DECISIONS },
  { name: "blind-plain", start: () => startPlain({ retryDelaysMs: [500, 1000, 2000] }) as Promise<Blind>, profile: plainProfile, decisions: PLAIN_DECISIONS },
];

const RUN = ceiling(150_000);
const lines = (s: RunSummary) => s.results.map(resultLine).join("\n");
const leftBehind = (s: RunSummary) => s.results.flatMap((r) => r.notes.filter((n) => n.startsWith("left behind:")).map((n) => `${r.id}: ${n}`));
const failedSeed = (s: RunSummary) => (s.rules ?? []).filter((r) => r.level === "seed" && r.status === "failed").map((r) => `${r.id}: ${r.failures[0]?.message}`);

for (const server of SERVERS) {
  describe(`${server.name}, a server written blind`, () => {
    let target: Blind | undefined;
    const fresh = async () => {
      await target?.close();
      target = await server.start();
      return target;
    };
    afterEach(async () => {
      await target?.close();
      target = undefined;
    });
    // As the CLI runs it: what the rate limits have left read first, the cases past it skipped.
    const run = async (t: Blind, decisions: Record<string, DecisionSetting>) => {
      const profile = server.profile(t, decisions);
      const budget = await readBudget({ baseUrl: t.api, token: profile.users[0]!.token });
      return runSuite({ baseUrl: t.api, authUrl: t.auth, profile, budget });
    };

    it("from an empty decisions block: no seed rule fails, and --suggest-decisions gives the profile's block", async () => {
      const first = await run(await fresh(), {});
      expect(failedSeed(first), lines(first)).toEqual([]);
      const suggested = Object.fromEntries((first.suggestedDecisions?.entries ?? []).map((e) => [e.id, e.setting]));
      expect(suggested).toEqual(server.decisions);
      expect(first.suggestedDecisions?.yaml).not.toMatch(/^# not suggested/m);
      expect(leftBehind(first)).toEqual([]);
    }, RUN);

    it("with that profile: exit 0, nothing left behind, within 60 anonymous requests — and a second run straight after passes", async () => {
      const t = await fresh();
      for (const pass of ["first", "second"]) {
        const spentBefore = t.anonymousSpent();
        const summary = await run(t, server.decisions);
        const all = lines(summary);
        expect(summary.results.filter((r) => r.status === "failed").map(resultLine), `${pass}\n${all}`).toEqual([]);
        expect(failedLevel(summary), pass).toBeUndefined();
        // A run that passed by skipping would prove nothing.
        expect(summary.counts.passed, all).toBeGreaterThan(160);
        expect(summary.levels!.seed.passed, all).toBeGreaterThan(45);
        expect(leftBehind(summary), pass).toEqual([]);
        expect(t.leftovers(), pass).toEqual({ hooks: [], tokens: [], grants: [] });
        // The first run fits the server's 60 anonymous requests an hour whole; the second gets
        // what is left, and skips (never fails) the cases that would go past it.
        expect(t.anonymousSpent() - spentBefore, pass).toBeLessThanOrEqual(60);
        const budgetSkips = summary.results.filter((r) => r.status === "skipped" && /rate limit will not last this case/.test(r.reason ?? ""));
        if (pass === "first") expect(budgetSkips.map((r) => r.id)).toEqual([]);
      }
      expect(t.anonymousSpent()).toBeLessThanOrEqual(60);
    }, 2 * RUN);

    it("with every decision off, every seed rule it keeps passes and no case stops on an unexpected error", async () => {
      const off = Object.fromEntries(ruleTable(ALL_CASES).filter((r) => r.source === "decisions").map((r) => [r.id, "off" as const]));
      const t = await fresh();
      const summary = await run(t, off);
      expect(failedSeed(summary), lines(summary)).toEqual([]);
      expect(summary.results.filter((r) => r.failures?.some((f) => f.message.startsWith("unexpected error"))).map(resultLine)).toEqual([]);
      expect(summary.levels!.seed.passed).toBeGreaterThan(40);
      expect(t.leftovers()).toEqual({ hooks: [], tokens: [], grants: [] });
    }, RUN);
  });
}

describe("the blind servers are other teams' code", () => {
  it.each(["blind-prefixed", "blind-plain"])("%s imports nothing of the project", async (folder) => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const dir = new URL(`./${folder}/`, import.meta.url);
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      const imports = [...readFileSync(new URL(file, dir), "utf8").matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]!);
      expect(imports.filter((i) => !(i.startsWith("node:") || i === "fastify" || i === "vitest" || /^\.\/[\w-]+\.ts$/.test(i))), file).toEqual([]);
    }
  });
});
