/**
 * From case results to rule results: the two levels of a report. Each failure counts against one
 * rule — the failed assertion's, else the case's first — and a contract problem one case saw in a
 * response counts against its own rule's case (a finding), not against the case that read it.
 * Seed rules (`S-`) give seed conformance, the contract's decisions (`D-`) contract conformance;
 * a decision the profile switched off is reported as such, never as passed.
 */
import type { CaseResult, FailureDetail, LevelCounts, RuleResult, RunSummary } from "../core/types.ts";
import type { Decisions } from "../core/decisions.ts";
import type { Finding } from "./context.ts";
import { areaOf, sameArea } from "./finding-area.ts";

/** The rule a failed case counts against (its first failure's). */
export function failedRule(result: CaseResult): string | undefined {
  return result.failure?.rule ?? result.rules?.[0];
}

/** Every failure of a case: the decisions it recorded and went on past, and the one that stopped it. */
export function failuresOf(result: CaseResult): FailureDetail[] {
  if (result.status !== "failed") return [];
  return result.failures ?? (result.failure ? [result.failure] : [{ message: "failed" }]);
}

/** The rule one failure of `result` counts against: the assertion's, else the case's first. */
export function ruleOfFailure(result: CaseResult, failure: FailureDetail): string | undefined {
  return failure.rule ?? result.rules?.[0];
}

/** Whether `result` shows `rule` held: its own account (passedRules), else a passed case holds all its rules. */
function holds(result: CaseResult, rule: string): boolean {
  if (result.passedRules) return result.passedRules.includes(rule);
  return result.status === "passed" && (result.rules?.includes(rule) ?? false);
}

/**
 * Findings become failures of their rule's case: the first selected case naming the rule that
 * passed fails with the finding (its message says where the response was read); when none can
 * take it, the rule still fails, and the case that read the response carries a note.
 */
export function applyFindings(results: CaseResult[], findings: readonly Finding[]): void {
  // A finding stays in the area of the case that read the response (finding-area.ts).
  const byRule = new Map<string, { rule: string; area: string | undefined; list: Finding[] }>();
  for (const f of findings) {
    const area = areaOf(results, f.seenIn);
    const key = `${f.rule}\0${area ?? ""}`;
    const entry = byRule.get(key) ?? { rule: f.rule, area, list: [] };
    entry.list.push(f);
    byRule.set(key, entry);
  }
  for (const { rule, area, list } of byRule.values()) {
    const first = list[0]!;
    // A case of the reading case's area (finding-area.ts) that showed the rule held (passed, or
    // went on past failed decisions of other rules) takes it.
    const owner = results.find((r) => r.rules?.includes(rule) && holds(r, rule) && sameArea(r, area));
    if (owner) {
      const failure = { message: `${first.message} (seen in ${first.seenIn})`, pointer: first.pointer, actual: first.actual, curl: first.curl, rule, seenIn: first.seenIn };
      const before = failuresOf(owner);
      owner.status = "failed";
      owner.failures = [...before, failure];
      owner.failure = owner.failures[0];
      owner.passedRules = (owner.passedRules ?? owner.rules ?? []).filter((id) => id !== rule);
      if (list.length > 1) owner.notes.push(`${list.length - 1} more response(s) broke ${rule}, in ${[...new Set(list.slice(1).map((f) => f.seenIn))].join(", ")}`);
    }
    for (const seenIn of new Set(list.map((f) => f.seenIn))) {
      const reader = results.find((r) => r.id === seenIn);
      if (reader && reader !== owner) reader.notes.push(`a response read here breaks ${rule}; counted against that rule${owner ? ` (${owner.id})` : ""}, not this case`);
    }
  }
}

function emptyCounts(): LevelCounts {
  return { passed: 0, failed: 0, off: 0, unchecked: 0 };
}

export function ruleResults(results: readonly CaseResult[], findings: readonly Finding[], decisions?: Decisions): RuleResult[] {
  const ids = new Set<string>();
  for (const r of results) for (const id of r.rules ?? []) ids.add(id);
  // A failure may name a rule its case does not list (ctx.rule of another rule): it counts too.
  for (const r of results) for (const f of failuresOf(r)) if (ruleOfFailure(r, f)) ids.add(ruleOfFailure(r, f)!);
  for (const f of findings) ids.add(f.rule);
  const out: RuleResult[] = [];
  for (const id of [...ids].sort()) {
    const cases = results.filter((r) => r.rules?.includes(id));
    const failures: RuleResult["failures"] = [];
    // Each failure of the rule counts: a case that went on past several failed decisions lists each.
    for (const r of results) for (const f of failuresOf(r)) if (ruleOfFailure(r, f) === id) failures.push({ case: r.id, message: f.message, ...(f.seenIn ? { seenIn: f.seenIn } : {}) });
    for (const f of findings) if (f.rule === id && !failures.some((x) => x.seenIn === f.seenIn)) failures.push({ case: f.seenIn, message: f.message, seenIn: f.seenIn });
    let status: RuleResult["status"];
    if (decisions?.off(id)) status = "off";
    else if (failures.length > 0) status = "failed";
    // Passed: some case showed its assertions held — a passed case, or one whose only failures were other rules' decisions.
    else if (results.some((r) => holds(r, id))) status = "passed";
    else status = "unchecked";
    out.push({ id, level: id.startsWith("S-") ? "seed" : "contract", status, cases: cases.map((r) => r.id), failures });
  }
  return out;
}

export function levelCounts(rules: readonly RuleResult[]): { seed: LevelCounts; contract: LevelCounts } {
  const levels = { seed: emptyCounts(), contract: emptyCounts() };
  for (const r of rules) levels[r.level][r.status]++;
  return levels;
}

/**
 * Which level failed, for the exit code: `seed` when a seed rule failed (or a case that names no
 * rule, which cannot be placed), `contract` when only the contract's decisions did.
 */
export function failedLevel(summary: RunSummary): "seed" | "contract" | undefined {
  const { levels } = rulesOf(summary);
  const unplaced = summary.results.some((r) => failuresOf(r).some((f) => !ruleOfFailure(r, f)));
  if (levels.seed.failed > 0 || unplaced) return "seed";
  if (levels.contract.failed > 0) return "contract";
  return undefined;
}

/** The summary's rule results, derived from its case results when it was built without them. */
export function rulesOf(summary: RunSummary): { rules: RuleResult[]; levels: NonNullable<RunSummary["levels"]> } {
  const rules = summary.rules ?? ruleResults(summary.results, []);
  return { rules, levels: summary.levels ?? levelCounts(rules) };
}
