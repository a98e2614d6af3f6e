/**
 * The rule table: every rule (seed and decisions, conformance/rules/load.ts) with the cases that
 * name it, where the reference implements it, or why it cannot be checked from outside — built
 * from the case declarations and the two spec files each time, never kept by hand. `problems`
 * lists what keeps the table from proving coverage (a rule with neither case nor reason, a case
 * naming no rule or an unknown one, a DECISIONS entry without an ID, a coverage entry for no
 * rule, a duplicate ID); test/conformance/rule-table.test.ts fails on any of them, and
 * `service-contract conformance --list` prints the table.
 */
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { PACKAGE_ROOT, packageFile } from "../../generators/package-files.ts";
import type { CaseMeta } from "../core/types.ts";
import { DECLARABLE } from "../core/decisions.ts";
import { allRules, coverage, decisionEntries, type Coverage, type Rule } from "./load.ts";

export interface RuleRow extends Rule, Coverage {
  cases: string[];
}

export function ruleTable(cases: readonly Pick<CaseMeta, "id" | "rules">[]): RuleRow[] {
  const where = coverage();
  return allRules().map((rule) => ({ ...rule, ...where[rule.id], cases: cases.filter((c) => c.rules?.includes(rule.id)).map((c) => c.id) }));
}

/** Every rule by ID: for reports that show a case's rules with their text. */
export function rulesById(): Map<string, Rule> {
  return new Map(allRules().map((r) => [r.id, r]));
}

// The reference's sources ship in a clone, not in the installed package (which holds dist/): the
// coverage file's source paths can be checked only where they are.
const SOURCES_HERE = existsSync(packageFile("reference", "server.ts"));

export function problems(cases: readonly Pick<CaseMeta, "id" | "rules">[], root = pathToFileURL(`${PACKAGE_ROOT}/`), checkSources = SOURCES_HERE): string[] {
  const out: string[] = [];
  const rules = allRules();
  const ids = new Set<string>();
  for (const r of rules) {
    if (ids.has(r.id)) out.push(`${r.id}: two rules share this ID`);
    ids.add(r.id);
  }
  for (const e of decisionEntries()) if (!e.id) out.push(`spec/DECISIONS.md:${e.line}: the entry has no rule ID (start it with "[D-SOME-NAME] ")`);
  for (const c of cases) {
    if (!c.rules || c.rules.length === 0) out.push(`${c.id}: the case names no rule (rules: […] on the case)`);
    for (const id of c.rules ?? []) if (!ids.has(id)) out.push(`${c.id}: names ${id}, which is no rule of spec/seed-rules.yaml or spec/DECISIONS.md`);
  }
  const where = coverage();
  for (const [id, entry] of Object.entries(where)) {
    if (!ids.has(id)) out.push(`spec/rule-coverage.yaml: ${id} is no rule`);
    if (checkSources) for (const ref of entry.ref ?? []) if (!existsSync(new URL(ref.split("#")[0]!, root))) out.push(`spec/rule-coverage.yaml: ${id}: ${ref} does not exist`);
  }
  for (const row of ruleTable(cases)) {
    if (row.cases.length === 0 && !row.unchecked && !row.gap) out.push(`${row.id}: no case enforces it and spec/rule-coverage.yaml gives no reason (unchecked: … or gap: …)`);
    if (row.cases.length > 0 && (row.unchecked || row.gap)) out.push(`${row.id}: has cases (${row.cases.join(", ")}), so spec/rule-coverage.yaml must not call it unchecked or a gap`);
    if (row.unchecked && row.gap) out.push(`${row.id}: either unchecked (cannot be) or a gap (not yet), not both`);
    if (row.parent && !ids.has(row.parent)) out.push(`${row.id}: split from ${row.parent}, which is no decision`);
  }
  return out;
}

/** How a profile switches a decision (`decisions:` in the profile): off, or a declared value for some. */
export function switchOf(id: string): string {
  const declarable = (DECLARABLE as Record<string, { describe: string; example: string }>)[id];
  return declarable ? `decisions: { ${id}: off } — or declare the value: ${declarable.describe}; e.g. ${declarable.example}` : `decisions: { ${id}: off }`;
}

/** The table as text, for `conformance --list`: one block per rule. */
export function formatRuleTable(rows: readonly RuleRow[]): string {
  const lines: string[] = [];
  for (const r of rows) {
    lines.push(`${r.id}  [${r.source === "seed" ? "seed" : "DECISIONS"} › ${r.section}]${r.parent ? `  (split from ${r.parent}: a profile that switches ${r.parent} off and does not name ${r.id} switches it off too)` : ""}`);
    lines.push(`  ${r.text.length > 220 ? `${r.text.slice(0, 217)}…` : r.text}`);
    lines.push(`  cases: ${r.cases.length > 0 ? r.cases.join(", ") : r.unchecked ? `none — not checkable from outside: ${r.unchecked}` : r.gap ? `none yet — GAP: ${r.gap}` : "none — NO REASON GIVEN"}`);
    if (r.ref && r.ref.length > 0) lines.push(`  reference: ${r.ref.join(", ")}`);
    if (r.source === "decisions" && r.cases.length > 0) lines.push(`  switch: ${switchOf(r.id)}`);
  }
  const checked = rows.filter((r) => r.cases.length > 0).length;
  const gaps = rows.filter((r) => r.cases.length === 0 && r.gap).length;
  const switchable = rows.filter((r) => r.source === "decisions" && r.cases.length > 0).length;
  lines.push("", `Seed rules (S-) are checked as the seed states them on every target; the ${switchable} decisions (D-) that cases enforce can each be switched off in the profile's decisions map, where the target chose otherwise.`);
  lines.push("", `${rows.length} rules: ${checked} enforced by cases, ${rows.length - checked - gaps} not checkable from outside (with the reason), ${gaps} gaps (checkable, no case yet)`);
  return lines.join("\n");
}
