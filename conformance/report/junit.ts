/**
 * JUnit XML, the format every CI system shows as a test report: one <testsuite> per area, one
 * <testcase> per case (classname `conformance.<area>`, name `ID title`), <failure> with the
 * message as its attribute and expected/actual/pointer/curl as its text, <skipped> with the
 * reason. Built with fast-xml-parser's XMLBuilder, which does the escaping; characters XML 1.0
 * cannot carry at all (most control characters, which a robustness case may well echo) are
 * replaced first.
 */
import { XMLBuilder } from "fast-xml-parser";
import type { CaseResult, RunSummary } from "../core/types.ts";
import { formatValue, groupByArea } from "./format.ts";
import { failuresOf, ruleOfFailure, rulesOf } from "../run/rule-results.ts";

/** Characters outside XML 1.0's Char production. */
const NOT_XML = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

function xmlText(text: string): string {
  return text.replace(NOT_XML, "\ufffd");
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Every failure of the case, one block each (a case that went on past failed decisions has several). */
function failureText(r: CaseResult): string {
  const all = failuresOf(r);
  const blocks = all.map((f, i) => {
    const lines = [all.length > 1 ? `[${i + 1} of ${all.length}${f.fatal ? ", the case stopped here" : ""}] ${f.message}` : f.message, `seed: ${r.seed}`];
    const rule = ruleOfFailure(r, f);
    if (rule) lines.push(`rule: ${rule}`);
    if (f.expected !== undefined || f.actual !== undefined) lines.push(`expected: ${formatValue(f.expected)}`, `actual: ${formatValue(f.actual)}`);
    if (f.pointer !== undefined) lines.push(`pointer: ${f.pointer || "/"}`);
    if (f.curl) lines.push(`curl: ${f.curl}`);
    return lines.join("\n");
  });
  return xmlText(blocks.join("\n\n"));
}

function failureMessage(r: CaseResult): string {
  const all = failuresOf(r);
  return all.length > 1 ? `${all.length} failures; the first: ${all[0]!.message}` : (r.failure?.message ?? "failed");
}

function testcase(r: CaseResult): Record<string, unknown> {
  const node: Record<string, unknown> = {
    "@_classname": `conformance.${r.area}`,
    "@_name": xmlText(`${r.id} ${r.title}`),
    "@_time": seconds(r.durationMs),
  };
  if (r.status === "failed") node.failure = { "@_message": xmlText(failureMessage(r)), "@_type": "CaseFailure", "#text": failureText(r) };
  if (r.status === "skipped") node.skipped = { "@_message": xmlText(r.reason ?? "skipped") };
  if (r.notes.length > 0) node["system-out"] = xmlText(r.notes.join("\n"));
  return node;
}

/**
 * The two levels as two more suites, one <testcase> per rule: `rules.seed` (seed conformance) and
 * `rules.contract` (the contract's decisions; switched-off ones skipped), so a CI page shows
 * which level failed beside the cases.
 */
function ruleSuites(summary: RunSummary): Record<string, unknown>[] {
  const { rules } = rulesOf(summary);
  return (["seed", "contract"] as const).filter((level) => rules.some((r) => r.level === level)).map((level) => {
    const these = rules.filter((r) => r.level === level);
    return {
      "@_name": `rules.${level}`,
      "@_tests": these.length,
      "@_failures": these.filter((r) => r.status === "failed").length,
      "@_errors": 0,
      "@_skipped": these.filter((r) => r.status === "off" || r.status === "unchecked").length,
      "@_time": "0.000",
      testcase: these.map((r) => {
        const node: Record<string, unknown> = { "@_classname": `conformance.rules.${level}`, "@_name": r.id, "@_time": "0.000" };
        if (r.status === "failed") node.failure = { "@_message": xmlText(r.failures[0]?.message ?? "failed"), "@_type": "RuleFailure", "#text": xmlText(r.failures.map((f) => `${f.case}: ${f.message}`).join("\n")) };
        if (r.status === "off") node.skipped = { "@_message": "switched off in the profile (the target chose otherwise)" };
        if (r.status === "unchecked") node.skipped = { "@_message": "no case got to check it" };
        return node;
      }),
    };
  });
}

export function junitXml(summary: RunSummary): string {
  const groups = groupByArea(summary.results);
  const document = {
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    testsuites: {
      "@_name": "service-contract conformance",
      "@_tests": summary.results.length,
      "@_failures": summary.counts.failed,
      "@_errors": 0,
      "@_skipped": summary.counts.skipped,
      "@_time": seconds(summary.durationMs),
      "@_timestamp": summary.startedAt,
      testsuite: groups.map((g) => ({
        "@_name": g.area,
        "@_tests": g.results.length,
        "@_failures": g.counts.failed,
        "@_errors": 0,
        "@_skipped": g.counts.skipped,
        "@_time": seconds(g.results.reduce((t, r) => t + r.durationMs, 0)),
        properties: { property: [{ "@_name": "baseUrl", "@_value": summary.target.baseUrl }, { "@_name": "authUrl", "@_value": summary.target.authUrl }] },
        testcase: g.results.map(testcase),
      })).concat(ruleSuites(summary) as never[]),
    },
  };
  const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", format: true, suppressEmptyNode: true });
  return builder.build(document) as string;
}
