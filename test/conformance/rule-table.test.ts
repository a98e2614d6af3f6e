/**
 * The rule table proves coverage (issue 15): every rule of the seed (spec/seed-rules.yaml) and
 * every entry of spec/DECISIONS.md has an ID, and either a registered case that names it or a
 * line in spec/rule-coverage.yaml saying why no case can check it (or that it is a known gap);
 * every case names at least one rule, and only rules that exist; every file the coverage names
 * exists. The checker itself is shown to catch each kind of problem on altered inputs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ALL_CASES } from "../../conformance/cases/index.ts";
import { TABLE_CASES } from "../../conformance/rules/cases.ts";
import { decisionEntries, allRules } from "../../conformance/rules/load.ts";
import { formatRuleTable, problems, ruleTable } from "../../conformance/rules/table.ts";

describe("the rule table", () => {
  it("has no problem: every rule enforced or explained, every case naming known rules", () => {
    expect(problems(TABLE_CASES)).toEqual([]);
  });

  it("has no gap: every rule checkable from outside has a case (the rest say why they cannot be checked)", () => {
    const rows = ruleTable(TABLE_CASES);
    expect(rows.filter((r) => r.gap).map((r) => `${r.id}: ${r.gap}`)).toEqual([]);
    expect(rows.filter((r) => r.cases.length === 0 && !r.unchecked).map((r) => r.id)).toEqual([]);
    expect(formatRuleTable(rows)).toMatch(/, 0 gaps \(checkable, no case yet\)/);
  });

  it("gives every DECISIONS.md entry an ID and every rule a section and text", () => {
    const entries = decisionEntries();
    expect(entries.length).toBeGreaterThan(100);
    expect(entries.filter((e) => !e.id).map((e) => e.line)).toEqual([]);
    for (const r of allRules()) {
      expect(r.id).toMatch(/^[SD]-[A-Z0-9]+(-[A-Z0-9]+)*$/);
      expect(r.section, r.id).toBeTruthy();
      expect(r.text.length, r.id).toBeGreaterThan(10);
    }
  });

  it("maps the rules the broken variants break to the cases that catch them", () => {
    const rows = new Map(ruleTable(ALL_CASES).map((r) => [r.id, r]));
    expect(rows.get("D-RATE-RESET")?.cases).toContain("CONTRACT-RATE-001");
    expect(rows.get("D-FEED-ORDER")?.cases).toEqual(expect.arrayContaining(["FEEDS-ORDER-001", "FEEDS-ORDER-002"]));
    expect(rows.get("D-DELIVERY-RETRIES")?.cases).toEqual(expect.arrayContaining(["WEBHOOK-RETRY-001", "WEBHOOK-RETRY-002"]));
    expect(rows.get("D-RATE-RESET")?.ref).toContain("reference/http/rate-limit.ts");
  });

  it("reports a case without rules, an unknown rule, and a rule with neither case nor reason", () => {
    const cases = ALL_CASES.map((c) => ({ id: c.id, rules: c.rules }));
    const [first, second] = cases;
    const altered = [{ ...first!, rules: [] }, { ...second!, rules: ["D-NO-SUCH-RULE"] }, ...cases.slice(2).map((c) => ({ ...c, rules: c.rules?.filter((r) => r !== "D-ETAG") }))];
    const found = problems(altered);
    expect(found).toContain(`${first!.id}: the case names no rule (rules: […] on the case)`);
    expect(found).toContain(`${second!.id}: names D-NO-SUCH-RULE, which is no rule of spec/seed-rules.yaml or spec/DECISIONS.md`);
    expect(found.some((p) => p.startsWith("D-ETAG: no case enforces it"))).toBe(true);
  });

  it("checks the coverage file's reference paths where the sources are, and not where they are not (an installed package)", () => {
    const empty = mkdtempSync(join(tmpdir(), "rule-table-"));
    try {
      const elsewhere = pathToFileURL(`${empty}/`);
      const missing = problems(TABLE_CASES, elsewhere, true);
      expect(missing.length).toBeGreaterThan(0);
      expect(missing.every((p) => /^spec\/rule-coverage\.yaml: \S+: \S+ does not exist$/.test(p))).toBe(true);
      expect(missing).toContain("spec/rule-coverage.yaml: D-RATE-RESET: reference/http/rate-limit.ts does not exist");
      expect(problems(TABLE_CASES, elsewhere, false)).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("reports a DECISIONS.md entry without an ID", () => {
    const entries = decisionEntries("## Whole API\n\n- [D-A] **A** — one.\n- **B** — two,\n  continued.\n");
    expect(entries.map((e) => [e.id, e.text])).toEqual([
      ["D-A", "**A** — one."],
      [undefined, "**B** — two, continued."],
    ]);
  });

  it("prints one block per rule with its cases or its reason", () => {
    const text = formatRuleTable(ruleTable(ALL_CASES));
    expect(text).toMatch(/^D-RATE-RESET {2}\[DECISIONS › Whole API\]\n {2}.+\n {2}cases: CONTRACT-RATE-001, CONTRACT-RATE-002\n {2}reference: reference\/http\/rate-limit.ts$/m);
    expect(text).toMatch(/^D-REF-HOOKS-SECRET-AT-REST .*\n.*\n {2}cases: none — not checkable from outside: /m);
  });
});

describe("the HTML report", () => {
  it("links each case to the text of its rules", async () => {
    const { htmlReport } = await import("../../conformance/report/html.ts");
    const html = htmlReport({
      target: { baseUrl: "http://127.0.0.1:1", authUrl: "http://127.0.0.1:2" },
      startedAt: "2026-11-25T00:00:00.000Z",
      durationMs: 5,
      counts: { passed: 1, failed: 0, skipped: 0 },
      results: [{ id: "CONTRACT-RATE-001", title: "t", area: "contract", seed: "Limits", rules: ["D-RATE-RESET"], status: "passed", durationMs: 1, notes: [] }],
    });
    expect(html).toContain('<a href="#rule-D-RATE-RESET"><code>D-RATE-RESET</code></a>');
    expect(html).toMatch(/<li id="rule-D-RATE-RESET" class="rule passed"><code>D-RATE-RESET<\/code> <span class="badge">passed<\/span> <span class="where">spec\/DECISIONS.md › Whole API<\/span><p><strong>Rate-limit reset and the exceeded response<\/strong> \(seed: not shown\) — <code>X-RateLimit-Reset<\/code> in UTC epoch seconds;/);
    expect(html).toContain('Cases: <a href="#case-CONTRACT-RATE-001">CONTRACT-RATE-001</a>');
  });
});
