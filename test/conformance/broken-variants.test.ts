/**
 * The proof that the suite catches defects (issue 7): the reference server started with one
 * deliberate fault at a time (reference/faults.ts) must fail at least one of the cases written
 * for the rule it breaks, and the same cases must all pass against the unbroken server. Cases
 * are picked from the registered suite by ID (or, for the webhook cases, by what they are
 * about), and run by the real runner through `runReference`, exactly as
 * `conformance --reference` runs them. A fault whose cases are not written yet is a todo.
 */
import { describe, expect, it } from "vitest";
import type { Case, CaseResult, RunSummary } from "../../conformance/core/types.ts";
import { ALL_CASES } from "../../conformance/cases/index.ts";
import { runReference } from "../../conformance/reference-profile.ts";
import { FAULTS, type Fault } from "../../reference/faults.ts";

interface Variant {
  fault: Fault;
  /** The cases written for the rule the fault breaks. */
  cases: string;
  select(c: Case): boolean;
}

const aboutWebhooks = (c: Case, topic: RegExp) => (c.area === "webhooks" || c.area === "hooks") && topic.test(`${c.id} ${c.title}`);

const VARIANTS: Variant[] = [
  { fault: "etag-ignored", cases: "FEEDS-ETAG-*", select: (c) => c.id.startsWith("FEEDS-ETAG-") },
  { fault: "redirect-prefix", cases: "OAUTH-REDIRECT-*", select: (c) => c.id.startsWith("OAUTH-REDIRECT-") },
  { fault: "pagination-past-300", cases: "FEEDS-PAGE-*, FEEDS-LINK-*", select: (c) => /^FEEDS-(PAGE|LINK)-/.test(c.id) },
  { fault: "private-leak", cases: "FEEDS-VIS-*", select: (c) => c.id.startsWith("FEEDS-VIS-") },
  { fault: "signature-reserialized", cases: "webhook cases about signatures", select: (c) => aboutWebhooks(c, /signature/i) },
  { fault: "ping-missing", cases: "webhook cases about the ping", select: (c) => aboutWebhooks(c, /\bping/i) },
];

const RUN_TIMEOUT_MS = 300_000;

function casesOf(variant: Variant): Case[] {
  return ALL_CASES.filter((c) => variant.select(c));
}

function line(r: CaseResult): string {
  return `${r.id} ${r.status}${r.reason ? ` (${r.reason})` : ""}${r.failure ? `: ${r.failure.message}` : ""}`;
}

function report(summary: RunSummary): string {
  return summary.results.map(line).join("\n");
}

describe("every fault has a variant here", () => {
  it("covers the faults the reference knows", () => {
    expect(VARIANTS.map((v) => v.fault).sort()).toEqual([...FAULTS].sort());
  });
});

const ready = VARIANTS.filter((v) => casesOf(v).length > 0);

/** One run of every selected case against the unbroken reference, shared by the tests below. */
let unbroken: Promise<RunSummary> | undefined;
function baseline(): Promise<RunSummary> {
  unbroken ??= runReference({ cases: [...new Set(ready.flatMap(casesOf))] });
  return unbroken;
}

describe("the unbroken reference passes every case the variants are judged by", () => {
  it.skipIf(ready.length === 0)(
    "no selected case fails (a skip is allowed only where the profile cannot meet a need)",
    async () => {
      const summary = await baseline();
      expect(summary.results.filter((r) => r.status === "failed").map(line), report(summary)).toEqual([]);
      for (const variant of ready) {
        const passed = summary.results.filter((r) => r.status === "passed" && casesOf(variant).some((c) => c.id === r.id));
        expect(passed.length, `${variant.cases}: at least one passes unbroken`).toBeGreaterThan(0);
      }
    },
    RUN_TIMEOUT_MS,
  );
});

describe("each broken variant fails the cases written for it", () => {
  for (const variant of VARIANTS) {
    const cases = casesOf(variant);
    if (cases.length === 0) {
      it.todo(`${variant.fault}: no ${variant.cases} registered yet`);
      continue;
    }
    it(
      `${variant.fault} fails ${variant.cases} (${cases.length} cases)`,
      async () => {
        const summary = await runReference({ cases, server: { faults: [variant.fault] } });
        const failed = summary.results.filter((r) => r.status === "failed");
        expect(failed.length, `no ${variant.cases} case failed against ${variant.fault}:\n${report(summary)}`).toBeGreaterThan(0);
        // It is the fault that fails them: each passes against the unbroken server.
        const passedUnbroken = new Set((await baseline()).results.filter((r) => r.status === "passed").map((r) => r.id));
        expect(failed.filter((r) => !passedUnbroken.has(r.id)).map(line), "cases failing here that also do not pass unbroken").toEqual([]);
        // A failure must say what went wrong and how to see it again.
        for (const r of failed) {
          expect(r.failure?.message, r.id).toBeTruthy();
          expect(r.failure?.curl, `${r.id} has a curl line`).toMatch(/^curl /);
        }
      },
      RUN_TIMEOUT_MS,
    );
  }
});
