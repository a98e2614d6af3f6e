/**
 * The fair variants of issue 22's cases (fault-proxy/fair-variants-nonweb.ts): each target makes
 * a choice the seed allows and its profile declares it; every selected case passes or is skipped
 * as switched off. The broken variants of the same cases (broken-variants.test.ts) stay caught
 * with the reference profile.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReferenceTarget, type ReferenceTarget } from "../../conformance/reference-profile.ts";
import { FAIR_VARIANTS_NONWEB } from "./fault-proxy/fair-variants-nonweb.ts";
import { ceiling } from "../ceilings.ts";
import { resultLine, runThroughFaultProxy } from "./fault-proxy/run.ts";

const RUN_TIMEOUT_MS = ceiling(60_000);
let target: ReferenceTarget;

beforeAll(async () => {
  target = await startReferenceTarget({ history: false });
}, ceiling(30_000));

afterAll(async () => {
  await target?.close();
});

const line = resultLine;

describe("fair variants of the non-web flow, service hook and token cases", () => {
  for (const variant of FAIR_VARIANTS_NONWEB) {
    it(
      `${variant.name}: ${variant.choice}`,
      async () => {
        const summary = await runThroughFaultProxy(target, variant.fault(target.profile), { only: variant.only, decisions: variant.decisions });
        expect(summary.results.length).toBeGreaterThan(0);
        const bad = summary.results.filter((r) => r.status === "failed" || (r.status === "skipped" && !/not checked|switched off/.test(r.reason ?? "")));
        expect(bad.map(line), summary.results.map(line).join("\n")).toEqual([]);
        // The declared choice is the one made: the case ran and passed, not merely skipped.
        expect(summary.results.filter((r) => r.status === "passed").length, summary.results.map(line).join("\n")).toBeGreaterThan(0);
      },
      RUN_TIMEOUT_MS,
    );
  }

  it("no-get-or-create undeclared: the missing PUT counts against D-REF-NONWEB-GET-CREATE alone, and the application endpoints still pass", async () => {
    const variant = FAIR_VARIANTS_NONWEB.find((v) => v.name === "no-get-or-create")!;
    const summary = await runThroughFaultProxy(target, variant.fault(target.profile), { only: variant.only });
    const all = summary.results.map(line).join("\n");
    expect(summary.rules?.find((r) => r.id === "D-REF-NONWEB-GET-CREATE")?.status, all).toBe("failed");
    expect(summary.rules?.find((r) => r.id === "D-NONWEB-APP-TOKENS")?.status, all).toBe("passed");
    expect(summary.suggestedDecisions?.entries.map((e) => `${e.id}: ${String(e.setting)}`)).toEqual(["D-REF-NONWEB-GET-CREATE: off"]);
  }, RUN_TIMEOUT_MS);
});
