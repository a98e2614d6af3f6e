/**
 * The proof that the suite catches defects (issues 7 and 15): broken variants of a correct
 * server, made on the wire by the fault proxy (test/conformance/fault-proxy) in front of one
 * reference server for the whole file. Each variant breaks one rule; the cases written for that
 * rule (run through the real runner with `only`, as `--only` selects them) must fail — the
 * variant's listed cases at least — and the same cases must all pass through the unbroken proxy,
 * so it is the defect that fails them, not the proxy. The reference itself carries no fault code.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunSummary } from "../../conformance/core/types.ts";
import { startReferenceTarget, type ReferenceTarget } from "../../conformance/reference-profile.ts";
import type { Fault } from "./fault-proxy/proxy.ts";
import type { DecisionSetting } from "../../conformance/core/decisions.ts";
import { VARIANTS } from "./fault-proxy/variants.ts";
import { ruleTable } from "../../conformance/rules/table.ts";
import { ALL_CASES } from "../../conformance/cases/index.ts";
import { ceiling } from "../ceilings.ts";
import { LOOPBACK_DELIVERY_MS, resultLine, runThroughFaultProxy } from "./fault-proxy/run.ts";

const RUN_TIMEOUT_MS = ceiling(90_000);

let target: ReferenceTarget;

beforeAll(async () => {
  target = await startReferenceTarget();
}, ceiling(60_000));

afterAll(async () => {
  await target?.close();
});

const throughProxy = (fault: Fault | undefined, only: string, decisions?: Record<string, DecisionSetting>) =>
  runThroughFaultProxy(target, fault, { only, deliveryTimeoutMs: LOOPBACK_DELIVERY_MS, ...(decisions ? { decisions: { ...target.profile.decisions, ...decisions } } : {}) });
const line = resultLine;

describe("the variants", () => {
  it("cover every class of rule the suite used to miss, each naming its rule", () => {
    const classes = new Set(VARIANTS.map((v) => v.class));
    for (const c of ["value", "fail-not-note", "order", "conditional-presence", "path-never-taken", "redirect"]) expect(classes, c).toContain(c);
    expect(new Set(VARIANTS.map((v) => v.name)).size).toBe(VARIANTS.length);
    // Each variant breaks a rule of the table, and a case it must fail is one the table maps to that rule.
    const rules = new Map(ruleTable(ALL_CASES).map((r) => [r.id, r]));
    for (const v of VARIANTS) {
      expect(v.fails.length, v.name).toBeGreaterThan(0);
      expect(v.fails.some((id) => rules.get(v.rule)?.cases.includes(id)), `${v.name}: at least one case it must fail names ${v.rule}`).toBe(true);
    }
  });
});

describe("the unbroken proxy", () => {
  it(
    "passes every case the variants are judged by (skips only where the profile cannot meet a need)",
    async () => {
      const summary = await throughProxy(undefined, [...new Set(VARIANTS.flatMap((v) => v.only.split(",")))].join(","));
      expect(summary.results.filter((r) => r.status !== "passed").map(line), summary.results.map(line).join("\n")).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );
});

describe("each broken variant fails the cases written for its rule", () => {
  for (const variant of VARIANTS) {
    it(
      `${variant.name} (${variant.class}, ${variant.rule}) fails ${variant.fails.join(", ")}`,
      async () => {
        const summary = await throughProxy(variant.fault(target.profile), variant.only, variant.decisions);
        const failed = summary.results.filter((r) => r.status === "failed");
        expect(failed.map((r) => r.id), summary.results.map(line).join("\n")).toEqual(expect.arrayContaining(variant.fails));
        for (const r of failed) {
          expect(r.failure?.message, r.id).toBeTruthy();
          expect(r.failure?.curl, `${r.id} has a curl line`).toMatch(/^curl /);
        }
      },
      RUN_TIMEOUT_MS,
    );
  }
});
