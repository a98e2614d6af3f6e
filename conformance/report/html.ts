/**
 * The HTML report: one self-contained page (inline stylesheet and script, a Content-Security-
 * Policy that allows nothing else, so opening it never fetches anything) with the counts, filters
 * by status, area and text, and every case grouped by area — failures open, showing expected vs
 * actual, the JSON pointer and the curl command. Every value from the run is escaped: messages and
 * actual values come from the target, which may send anything, including markup.
 */
import { createHash } from "node:crypto";
import type { CaseResult, RunSummary, Status } from "../core/types.ts";
import { rulesById } from "../rules/table.ts";
import type { Rule } from "../rules/load.ts";
import { countsText, formatDuration, formatValue, groupByArea, levelLines } from "./format.ts";
import { failuresOf, ruleOfFailure, rulesOf } from "../run/rule-results.ts";
import type { RuleResult } from "../core/types.ts";
import { REPORT_CSS, REPORT_SCRIPT } from "./html-assets.ts";
import { renderRuleText } from "./markdown.ts";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

function hash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

const STATUSES: readonly Status[] = ["failed", "skipped", "passed"];

function row(term: string, value: string, pre = false): string {
  return `<dt>${escapeHtml(term)}</dt><dd>${pre ? `<pre>${escapeHtml(value)}</pre>` : escapeHtml(value)}</dd>`;
}

function ruleAnchor(id: string): string {
  return `rule-${id}`;
}

/** The case's rules as links to their text further down the page. */
function rulesRow(ids: readonly string[]): string {
  const links = ids.map((id) => `<a href="#${escapeHtml(ruleAnchor(id))}"><code>${escapeHtml(id)}</code></a>`).join(", ");
  return `<dt>Rules</dt><dd>${links}</dd>`;
}

const RULE_STATUS: Record<RuleResult["status"], string> = { passed: "passed", failed: "failed", off: "switched off", unchecked: "not checked" };

/**
 * Every rule of the run, seed rules first, each with its text (Markdown in the files, rendered
 * with raw HTML off: ./markdown.ts), its outcome and its cases: what the links of the cases point
 * at, and the two levels rule by rule.
 */
function rulesSection(results: readonly CaseResult[], ruled: readonly RuleResult[], known: ReadonlyMap<string, Rule>): string {
  if (ruled.length === 0) return "";
  const items = [...ruled]
    .sort((a, b) => (a.level === b.level ? a.id.localeCompare(b.id) : a.level === "seed" ? -1 : 1))
    .map((r) => {
      const rule = known.get(r.id);
      const where = rule ? `${rule.source === "seed" ? "seed" : "spec/DECISIONS.md"} › ${rule.section}` : "unknown rule";
      const cases = results.filter((c) => c.rules?.includes(r.id)).map((c) => `<a href="#case-${escapeHtml(c.id)}">${escapeHtml(c.id)}</a>`).join(", ");
      const failures = r.failures.map((f) => `<li>${escapeHtml(f.case)}: ${escapeHtml(f.message)}</li>`).join("");
      return `<li id="${escapeHtml(ruleAnchor(r.id))}" class="rule ${r.status}"><code>${escapeHtml(r.id)}</code> <span class="badge">${escapeHtml(RULE_STATUS[r.status])}</span> <span class="where">${escapeHtml(where)}</span><p>${renderRuleText(rule?.text ?? "")}</p>${failures ? `<ul class="rule-failures">${failures}</ul>` : ""}<p class="cases">Cases: ${cases || "none of this run"}</p></li>`;
    });
  return `<section class="rules"><h2>Rules</h2><ul>${items.join("\n")}</ul></section>`;
}

function caseArticle(r: CaseResult): string {
  const rows = [row("Seed", r.seed)];
  if (r.rules && r.rules.length > 0) rows.push(rulesRow(r.rules));
  if (r.needs && r.needs.length > 0) rows.push(row("Needs", r.needs.join(", ")));
  if (r.status === "skipped") rows.push(row("Skipped", r.reason ?? "no reason given"));
  // Every failure: a case that went on past failed decisions lists each, with its rule.
  const all = failuresOf(r);
  all.forEach((f, i) => {
    const rule = ruleOfFailure(r, f);
    const label = all.length > 1 ? `Failure ${i + 1} of ${all.length}${f.fatal ? " (stopped here)" : ""}` : "Failure";
    rows.push(row(label, rule && all.length > 1 ? `${rule}: ${f.message}` : f.message, true));
    if (f.expected !== undefined || f.actual !== undefined) rows.push(row("Expected", formatValue(f.expected), true), row("Actual", formatValue(f.actual), true));
    if (f.pointer !== undefined) rows.push(row("Pointer", f.pointer || "/"));
    if (f.curl) rows.push(row("curl", f.curl, true));
  });
  for (const note of r.notes) rows.push(row("Note", note));
  const search = `${r.id} ${r.title} ${r.seed}`.toLowerCase();
  const tail = r.status === "skipped" ? `<span class="reason">${escapeHtml(r.reason ?? "")}</span>` : `<span class="duration">${escapeHtml(formatDuration(r.durationMs))}</span>`;
  return `<article class="case ${r.status}" id="case-${escapeHtml(r.id)}" data-status="${r.status}" data-area="${escapeHtml(r.area)}" data-search="${escapeHtml(search)}">
<details${r.status === "failed" ? " open" : ""}><summary><span class="badge">${r.status}</span><code class="id">${escapeHtml(r.id)}</code><span class="title">${escapeHtml(r.title)}</span>${tail}</summary>
<dl class="detail">${rows.join("")}</dl>
</details>
</article>`;
}

export function htmlReport(summary: RunSummary): string {
  const groups = groupByArea(summary.results);
  const { rules: ruled } = rulesOf(summary);
  const levels = levelLines(summary).map((t) => `<li>${escapeHtml(t)}</li>`).join("");
  const off = summary.decisions?.off.length ? `<p class="decisions">Switched off in the profile: ${summary.decisions.off.map((id) => `<code>${escapeHtml(id)}</code>`).join(", ")}</p>` : "";
  const counts = STATUSES.map((s) => `<div class="count ${s}" data-count="${s}"><b>${summary.counts[s]}</b>${s}</div>`).join("");
  const statusFilters = STATUSES.map((s) => `<label><input type="checkbox" name="status" value="${s}" checked> ${s} (${summary.counts[s]})</label>`).join("");
  const areaOptions = groups.map((g) => `<option value="${escapeHtml(g.area)}">${escapeHtml(g.area)} (${g.results.length})</option>`).join("");
  const sections = groups
    .map((g) => `<section class="area" data-area="${escapeHtml(g.area)}"><h2>${escapeHtml(g.area)} <span class="counts-text">${escapeHtml(countsText(g.counts))}</span></h2>\n${g.results.map(caseArticle).join("\n")}\n</section>`)
    .join("\n");
  const csp = `default-src 'none'; style-src ${hash(REPORT_CSS)}; script-src ${hash(REPORT_SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance report: ${escapeHtml(summary.target.baseUrl)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>Conformance report</h1>
<p class="target">Target <code>${escapeHtml(summary.target.baseUrl)}</code>, web host <code>${escapeHtml(summary.target.authUrl)}</code> · started ${escapeHtml(summary.startedAt)} · ${escapeHtml(formatDuration(summary.durationMs))}</p>
<div class="counts">${counts}</div>
<ul class="levels">${levels}</ul>${off}
</header>
<nav class="filters" aria-label="Filters">
<fieldset><legend>Status</legend>${statusFilters}</fieldset>
<label>Area <select id="area-filter"><option value="">all areas</option>${areaOptions}</select></label>
<input type="search" id="text-filter" placeholder="Filter by ID, title or seed section" aria-label="Filter by text">
<span id="shown">${summary.results.length} of ${summary.results.length} shown</span>
</nav>
<main>
${sections}
${rulesSection(summary.results, ruled, rulesById())}
</main>
<footer>service-contract conformance · ${escapeHtml(countsText(summary.counts))}</footer>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}
