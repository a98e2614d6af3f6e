/**
 * Fair variants of the OAuth and contract areas (issue 21): a target that makes a choice the seed
 * allows, with a profile that declares it, passes; the same target with the reference's profile
 * (nothing declared) fails the declared decision's cases — so the declaration is what lets it
 * pass. One reference server for the file; each variant runs its `only` cases twice through the
 * fault proxy (test/conformance/fault-proxy/fair-variants-oauth.ts), once declared, once not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunSummary } from "../../conformance/core/types.ts";
import type { DecisionSetting } from "../../conformance/core/decisions.ts";
import { startReferenceTarget, type ReferenceTarget } from "../../conformance/reference-profile.ts";
import { ruleTable } from "../../conformance/rules/table.ts";
import { ALL_CASES } from "../../conformance/cases/index.ts";
import type { Fault } from "./fault-proxy/proxy.ts";
import { FAIR_VARIANTS } from "./fault-proxy/fair-variants-oauth.ts";
import { ceiling } from "../ceilings.ts";
import { LOOPBACK_DELIVERY_MS, resultLine, runThroughFaultProxy } from "./fault-proxy/run.ts";

const RUN_TIMEOUT_MS = ceiling(60_000);

let target: ReferenceTarget;

beforeAll(async () => {
  target = await startReferenceTarget();
}, ceiling(30_000));

afterAll(async () => {
  await target?.close();
});

const throughProxy = (fault: Fault, only: string, decisions?: Record<string, DecisionSetting>) =>
  runThroughFaultProxy(target, fault, { only, ...(decisions ? { decisions } : {}), deliveryTimeoutMs: LOOPBACK_DELIVERY_MS });
const line = resultLine;

describe("the fair variants", () => {
  it("each name a decision of the rule table that their failing cases enforce", () => {
    const rules = new Map(ruleTable(ALL_CASES).map((r) => [r.id, r]));
    expect(new Set(FAIR_VARIANTS.map((v) => v.name)).size).toBe(FAIR_VARIANTS.length);
    for (const v of FAIR_VARIANTS) {
      expect(v.decision, v.name).toMatch(/^D-/);
      expect(v.failsUndeclared.some((id) => rules.get(v.decision)?.cases.includes(id)), `${v.name}: a case it fails undeclared names ${v.decision}`).toBe(true);
    }
  });
});

describe("a target that chose otherwise where the seed allows", () => {
  for (const v of FAIR_VARIANTS) {
    it(
      `${v.name}: passes with ${v.decision}: ${JSON.stringify(v.setting)} declared, and fails ${v.failsUndeclared.join(", ")} without`,
      async () => {
        const declared = await throughProxy(v.fault(), v.only, { [v.decision]: v.setting });
        const all = declared.results.map(line).join("\n");
        expect(declared.results.filter((r) => r.status === "failed").map(line), all).toEqual([]);
        expect(declared.results.filter((r) => r.status === "passed").length, all).toBeGreaterThan(0);
        // No rule fails either, not even by a finding another case's response brought up.
        expect(declared.rules?.filter((r) => r.status === "failed").map((r) => `${r.id}: ${r.failures[0]?.message}`), all).toEqual([]);
        if (v.setting === "off") expect(declared.decisions?.off).toContain(v.decision);
        else expect(declared.decisions?.declared[v.decision]).toEqual(v.setting);
        const rule = declared.rules?.find((r) => r.id === v.decision);
        if (rule) expect(rule.status).toBe(v.setting === "off" ? "off" : "passed");

        const undeclared = await throughProxy(v.fault(), v.only);
        const again = undeclared.results.map(line).join("\n");
        const failed = undeclared.results.filter((r) => r.status === "failed");
        expect(failed.map((r) => r.id), again).toEqual(expect.arrayContaining(v.failsUndeclared));
        // The failures are the decision's, not the seed's: a fair choice never fails a seed rule.
        expect(undeclared.rules?.filter((r) => r.level === "seed" && r.status === "failed").map((r) => r.id), again).toEqual([]);
        expect(undeclared.rules?.find((r) => r.id === v.decision)?.status, again).toBe("failed");
        for (const id of v.passUndeclared ?? []) expect(undeclared.results.find((r) => r.id === id)?.status, `${id}\n${again}`).toBe("passed");
      },
      RUN_TIMEOUT_MS,
    );
  }
});
