/**
 * The hook management cases (conformance/cases/hooks) run by the real runner: against the
 * reference server through `runReference`, where every case passes, organization hooks and the
 * catalog included; against a sound fake hooks service (repository hooks and the catalog), where
 * the cases it can serve pass; and against fakes with one defect each — the secret echoed, the
 * wrong default events, `*` kept beside other names, a delete that leaves the hook, organization
 * events accepted on a repository hook, a second webhook on one URL — where the case written for that rule fails.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CaseResult, RunSummary } from "../../conformance/core/types.ts";
import { CASES } from "../../conformance/cases/hooks/index.ts";
import { runReference } from "../../conformance/reference-profile.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import { startFakeHooks, type FakeHooksOptions } from "./fake-webhook-targets.ts";
import { ceiling } from "../ceilings.ts";

const RUN_TIMEOUT_MS = ceiling(60_000);

function explain(r: CaseResult | undefined): string {
  return JSON.stringify(r && { id: r.id, status: r.status, reason: r.reason, failure: r.failure, notes: r.notes }, null, 2);
}

/** The cases named by `ids`, run by the runner against a fake with `options`; the fake's own contract problems beside them. */
async function againstFake(options: FakeHooksOptions, ids: readonly string[]): Promise<{ results: Record<string, CaseResult>; contractErrors: string[] }> {
  const fake = await startFakeHooks(options);
  try {
    const summary = await runSuite({ baseUrl: fake.url, authUrl: fake.url, profile: fake.profile, cases: CASES.filter((c) => ids.includes(c.id)) });
    return { results: Object.fromEntries(summary.results.map((r) => [r.id, r])), contractErrors: fake.contractErrors };
  } finally {
    await fake.close();
  }
}

describe("hook cases: the table", () => {
  it("has unique, well-formed IDs, one-line titles and seed sections", () => {
    const ids = CASES.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of CASES) {
      expect(c.id).toMatch(/^HOOKS-[A-Z]+-\d{3}$/);
      expect(c.area).toBe("hooks");
      expect(c.title).not.toMatch(/\n/);
      expect(c.seed.length).toBeGreaterThan(0);
    }
  });
});

describe("hook cases against the reference server", () => {
  let summary: RunSummary;
  beforeAll(async () => {
    summary = await runReference({ cases: CASES, server: { history: false } });
  }, RUN_TIMEOUT_MS);

  for (const c of CASES) {
    it(`${c.id} ${c.title}`, () => {
      const result = summary.results.find((r) => r.id === c.id);
      expect(result?.status, explain(result)).toBe("passed");
    });
  }
});

/**
 * Cases beyond what the fake hooks service implements (service hooks, delivery detail, POST
 * …/tests, organization hooks of an OAuth application): proven against the reference and by the
 * broken variants (test/conformance/cases-gap-rules.test.ts, broken-variants.test.ts).
 */
const BEYOND_THE_FAKE = new Set(["HOOKS-SERVICE-001", "HOOKS-SERVICE-002", "HOOKS-SERVICE-003", "HOOKS-NAME-001", "HOOKS-DELIVERY-001", "HOOKS-DELIVERY-002", "HOOKS-TESTS-001", "HOOKS-OWNERSHIP-001"]);
const FAKE_CASES = CASES.filter((c) => !BEYOND_THE_FAKE.has(c.id));
const REPO_CASES = FAKE_CASES.filter((c) => !c.id.startsWith("HOOKS-ORG-") && c.id !== "HOOKS-ADMIN-001" && c.id !== "HOOKS-CAP-001").map((c) => c.id);

describe("hook cases against a sound fake hooks service", () => {
  it("every repository hook case and the catalog case pass; organization cases are skipped (the profile has no org)", async () => {
    const { results, contractErrors } = await againstFake({}, FAKE_CASES.map((c) => c.id));
    expect(contractErrors, "the sound fake keeps to the contract").toEqual([]);
    for (const id of REPO_CASES) expect(results[id]?.status, explain(results[id])).toBe("passed");
    for (const c of CASES.filter((x) => x.id.startsWith("HOOKS-ORG-"))) expect(results[c.id]).toMatchObject({ status: "skipped", reason: "profile has no org" });
    // The fake's profile has no second user: who may not administer is proven against the reference.
    expect(results["HOOKS-ADMIN-001"]?.status).toBe("skipped");
    // The fake sets no limit on hooks: the cap case (D-REF-HOOKS-CAP) catches it.
    expect(results["HOOKS-CAP-001"]).toMatchObject({ status: "failed", failure: { message: "the repository took 21 more hooks beside its 0 without refusing one" } });
  });
});

describe("hook cases catch defects (fake hooks services with one defect each)", () => {
  // `schema`: the defect shows in the shape, so the fake's answers break the contract too (and
  // the case fails on the contract check); otherwise only the case's own checks can see it.
  const DEFECTS: { defect: string; options: FakeHooksOptions; fails: string[]; detail: RegExp; schema?: true }[] = [
    { defect: "the secret echoed as config.secret", options: { echoSecret: "config" }, fails: ["HOOKS-CREATE-001", "HOOKS-READ-001"], detail: /\/body\/config\/secret/, schema: true },
    { defect: "the secret echoed in another field", options: { echoSecret: "message" }, fails: ["HOOKS-CREATE-001", "HOOKS-READ-001"], detail: /the config secret is write-only and never returned/ },
    { defect: 'default events ["push", "issues"]', options: { defaultEvents: ["push", "issues"] }, fails: ["HOOKS-CREATE-002", "HOOKS-CATALOG-001"], detail: /push/ },
    { defect: "* kept beside other names", options: { wildcardReplaces: false }, fails: ["HOOKS-EDIT-002"], detail: /\/body\/events/, schema: true },
    { defect: "a delete that answers 204 and keeps the hook", options: { deleteKeeps: true }, fails: ["HOOKS-DELETE-001"], detail: /after the delete/ },
    { defect: "a second webhook on the same URL accepted", options: { acceptDuplicateUrls: true }, fails: ["HOOKS-CREATE-003"], detail: /second webhook.*422/ },
    { defect: "membership and repository accepted on a repository hook", options: { acceptOrgOnlyEvents: true }, fails: ["HOOKS-CREATE-004"], detail: /membership.*422/ },
    // No ping: the fake would post to the metadata address it accepted.
    { defect: "a hook at a cloud metadata address accepted", options: { acceptMetadataUrls: true, pingOnCreate: false }, fails: ["HOOKS-CREATE-006"], detail: /169\.254\.169\.254.*422/ },
  ];
  for (const { defect, options, fails, detail, schema } of DEFECTS) {
    it(`${defect} fails ${fails.join(", ")}`, async () => {
      const { results, contractErrors } = await againstFake(options, fails);
      expect(contractErrors.length > 0, contractErrors.join("\n")).toBe(schema === true);
      for (const id of fails) {
        const r = results[id];
        expect(r?.status, explain(r)).toBe("failed");
        expect(`${r!.failure!.message} ${r!.failure!.pointer ?? ""}`, explain(r)).toMatch(detail);
        expect(r!.failure!.curl, `${id} has a curl line`).toMatch(/^curl /);
      }
    });
  }
});
