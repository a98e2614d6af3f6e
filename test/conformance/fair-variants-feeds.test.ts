/**
 * Fair variants (issue 21) of the feeds, issue events, hooks and webhooks areas: the reference
 * made, on the wire by the fault proxy, into a target that chose otherwise where the seed allows
 * it (test/conformance/fault-proxy/fair-variants-feeds.ts). Through the real runner, with the
 * variant's profile `decisions`, no selected case may fail — the seed rules are checked no more
 * strictly than the seed, and a switched-off decision takes its assertions with it. A variant
 * that departs from a decision must still be caught without the declaration: its cases fail,
 * counted against that decision (a contract failure, not a seed one). One reference server for
 * the file; each run selects only the variant's cases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunSummary } from "../../conformance/core/types.ts";
import type { DecisionSetting } from "../../conformance/core/decisions.ts";
import { failedLevel, failedRule } from "../../conformance/run/rule-results.ts";
import { startReferenceTarget, type ReferenceTarget } from "../../conformance/reference-profile.ts";
import { ruleTable } from "../../conformance/rules/table.ts";
import { ALL_CASES } from "../../conformance/cases/index.ts";
import type { Fault } from "./fault-proxy/proxy.ts";
import { FAIR_VARIANTS } from "./fault-proxy/fair-variants-feeds.ts";
import { ceiling } from "../ceilings.ts";
import { LOOPBACK_DELIVERY_MS, resultLine, runThroughFaultProxy } from "./fault-proxy/run.ts";

const RUN_TIMEOUT_MS = ceiling(90_000);

let target: ReferenceTarget;

beforeAll(async () => {
  target = await startReferenceTarget();
}, ceiling(30_000));

afterAll(async () => {
  await target?.close();
});

const throughProxy = (fault: Fault, only: string, decisions: Record<string, DecisionSetting>) =>
  runThroughFaultProxy(target, fault, { only, decisions, deliveryTimeoutMs: LOOPBACK_DELIVERY_MS });
const line = resultLine;

describe("the fair variants", () => {
  it("each names cases of the table, and a departure names the decision its cases enforce", () => {
    expect(new Set(FAIR_VARIANTS.map((v) => v.name)).size).toBe(FAIR_VARIANTS.length);
    const rules = new Map(ruleTable(ALL_CASES).map((r) => [r.id, r]));
    for (const v of FAIR_VARIANTS) {
      for (const [id, decision] of Object.entries(v.without?.fails ?? {})) {
        expect(Object.keys(v.decisions), v.name).toContain(decision);
        expect(rules.get(decision)?.cases, `${v.name}: ${id} names ${decision}`).toContain(id);
      }
    }
  });
});

describe("a target making a choice the seed allows, declared in its profile, passes", () => {
  for (const variant of FAIR_VARIANTS) {
    it(
      `${variant.name}: ${variant.choice}`,
      async () => {
        const summary = await throughProxy(variant.fault(), variant.only, variant.decisions);
        const results = summary.results.map(line).join("\n");
        expect(summary.results.filter((r) => r.status === "failed").map(line), results).toEqual([]);
        // Something was checked: not every selected case skipped.
        expect(summary.results.some((r) => r.status === "passed"), results).toBe(true);
        for (const id of variant.passes ?? []) expect(summary.results.find((r) => r.id === id)?.status, `${id}: ${results}`).toBe("passed");
        expect(failedLevel(summary), results).toBeUndefined();
      },
      RUN_TIMEOUT_MS,
    );
  }
});

describe("the same target without the declaration fails the decision, not the seed", () => {
  for (const variant of FAIR_VARIANTS.filter((v) => v.without)) {
    const fails = variant.without!.fails;
    it(
      `${variant.name} without decisions fails ${Object.entries(fails).map(([id, rule]) => `${id} on ${rule}`).join(", ")}`,
      async () => {
        const summary = await throughProxy(variant.fault(), variant.without!.only, {});
        const results = summary.results.map(line).join("\n");
        const failed = summary.results.filter((r) => r.status === "failed");
        for (const [id, rule] of Object.entries(fails)) {
          const r = failed.find((x) => x.id === id);
          expect(r ? failedRule(r) : "not failed", `${id}: ${results}`).toBe(rule);
        }
        // Every failure is the contract's: the target keeps the seed.
        for (const r of failed) expect(failedRule(r), `${r.id}: ${results}`).toMatch(/^D-/);
        expect(failedLevel(summary), results).toBe("contract");
      },
      RUN_TIMEOUT_MS,
    );
  }
});
