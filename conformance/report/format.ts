/**
 * Shared wording of results for every reporter: how an expected or actual value is printed (as
 * JSON, so 200 and "200" differ on the page as they do on the wire), durations, the summary
 * line, and the area grouping — so the console, JUnit and HTML reports say the same thing.
 */
import type { Area, CaseResult, LevelCounts, RuleResult, RunSummary, Status } from "../core/types.ts";
import { rulesOf } from "../run/rule-results.ts";

/** Report order of areas; areas a run does not know come last, alphabetically. */
export const AREA_ORDER: readonly Area[] = ["contract", "oauth", "feeds", "issue-events", "hooks", "webhooks", "robustness", "receiver", "oauth-client"];

export function formatValue(value: unknown, maxLength = Infinity): string {
  const text = value === undefined ? "(nothing)" : typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value, null, 2) ?? String(value));
  return text.length > maxLength ? `${text.slice(0, maxLength)}… (${text.length - maxLength} more characters)` : text;
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function summaryLine(summary: RunSummary): string {
  const { passed, failed, skipped } = summary.counts;
  const total = passed + failed + skipped;
  return `${total} ${total === 1 ? "case" : "cases"}: ${passed} passed, ${failed} failed, ${skipped} skipped in ${formatDuration(summary.durationMs)}`;
}

export interface AreaGroup {
  area: string;
  results: CaseResult[];
  counts: Record<Status, number>;
}

export function groupByArea(results: readonly CaseResult[]): AreaGroup[] {
  const groups = new Map<string, CaseResult[]>();
  for (const r of results) groups.set(r.area, [...(groups.get(r.area) ?? []), r]);
  const rank = (area: string) => {
    const i = (AREA_ORDER as readonly string[]).indexOf(area);
    return i < 0 ? AREA_ORDER.length : i;
  };
  return [...groups]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([area, rs]) => {
      const counts: Record<Status, number> = { passed: 0, failed: 0, skipped: 0 };
      for (const r of rs) counts[r.status]++;
      return { area, results: rs, counts };
    });
}

export function countsText(counts: Record<Status, number>): string {
  return `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
}

/**
 * The two levels in one line each: seed conformance (the seed's rules, which every target must
 * keep) and contract conformance (this contract's own decisions, which a profile may switch off).
 */
export function levelLines(summary: RunSummary): string[] {
  const { levels } = rulesOf(summary);
  const line = (name: string, c: LevelCounts, offWord: string) => {
    const total = c.passed + c.failed + c.off + c.unchecked;
    const parts = [`${c.passed} passed`, `${c.failed} failed`];
    if (c.unchecked > 0) parts.push(`${c.unchecked} not checked`);
    if (c.off > 0) parts.push(`${c.off} ${offWord}`);
    return `${name}: ${c.failed > 0 ? "FAILS" : c.passed > 0 ? "passes" : "nothing checked"} — ${total} ${total === 1 ? "rule" : "rules"}: ${parts.join(", ")}`;
  };
  return [line("Seed conformance (S- rules)", levels.seed, "switched off"), line("Contract conformance (D- rules)", levels.contract, "switched off in the profile")];
}

/** The failed rules, level by level: what each reporter lists under the levels. */
export function failedRules(summary: RunSummary): { seed: RuleResult[]; contract: RuleResult[] } {
  const failed = rulesOf(summary).rules.filter((r) => r.status === "failed");
  return { seed: failed.filter((r) => r.level === "seed"), contract: failed.filter((r) => r.level === "contract") };
}
