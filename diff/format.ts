/**
 * The three outputs of `diff`: JSON for programs (every change under `changes`, one per
 * operation or webhook it concerns), text for people and Markdown for a pull request comment.
 * Text and Markdown show a change made once in a shared schema (a field of `User`) once, with
 * every operation and webhook it reaches, rather than once per operation.
 */
import type { Change } from "./change.ts";

export interface Report {
  base: string;
  head: string;
  changes: Change[];
  notes: string[];
}

interface Group {
  change: Change;
  operations: string[];
  webhooks: string[];
}

/** Changes that differ only in the operation or webhook they concern, together, breaking ones first. */
function groups(changes: Change[]): Group[] {
  const byKey = new Map<string, Group>();
  for (const c of changes) {
    const key = JSON.stringify([c.kind, c.breaking, c.for, c.message, c.source ?? c.pointer, c.rule ?? ""]);
    let g = byKey.get(key);
    if (!g) byKey.set(key, (g = { change: c, operations: [], webhooks: [] }));
    if (c.operation && !g.operations.includes(c.operation)) g.operations.push(c.operation);
    if (c.webhook && !g.webhooks.includes(c.webhook)) g.webhooks.push(c.webhook);
  }
  const list = [...byKey.values()];
  return [...list.filter((g) => g.change.breaking), ...list.filter((g) => !g.change.breaking)];
}

export function summary(changes: Change[]): string {
  const breaking = changes.filter((c) => c.breaking);
  if (changes.length === 0) return "no changes";
  const counts = (["clients", "servers", "receivers"] as const)
    .map((a) => [a, breaking.filter((c) => c.for.includes(a)).length] as const)
    .filter(([, n]) => n > 0)
    .map(([a, n]) => `${a} ${n}`);
  const others = changes.length - breaking.length;
  return `${breaking.length} breaking change${breaking.length === 1 ? "" : "s"}${counts.length ? ` (${counts.join(", ")})` : ""}, ${others} other${others === 1 ? "" : "s"}`;
}

function concerns(g: Group): string {
  const parts: string[] = [];
  if (g.operations.length) parts.push(`operation${g.operations.length > 1 ? "s" : ""} ${g.operations.join(", ")}`);
  if (g.webhooks.length) parts.push(`webhook${g.webhooks.length > 1 ? "s" : ""} ${g.webhooks.join(", ")}`);
  return parts.join("; ");
}

export function formatJson(report: Report): string {
  const breaking = report.changes.filter((c) => c.breaking).length;
  return JSON.stringify({ base: report.base, head: report.head, breaking, changes: report.changes, notes: report.notes }, null, 2) + "\n";
}

export function formatText(report: Report): string {
  const lines = [`${report.base} → ${report.head}: ${summary(report.changes)}`];
  for (const g of groups(report.changes)) {
    const c = g.change;
    const label = c.breaking ? `BREAKING for ${c.for.join(", ")}` : "not breaking";
    lines.push("", `${label}: ${c.message}`);
    const owner = concerns(g);
    if (owner) lines.push(`  ${owner}`);
    lines.push(`  at ${c.source ?? c.pointer}`);
    if (c.cases) lines.push(`  cases: ${c.cases.length ? c.cases.join(", ") : "none"}`);
  }
  for (const note of report.notes) lines.push("", `note: ${note}`);
  return lines.join("\n") + "\n";
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

export function formatMarkdown(report: Report): string {
  const all = groups(report.changes);
  const contract = all.filter((g) => !g.change.rule);
  const rules = all.filter((g) => g.change.rule);
  const out = [`### Contract changes: ${summary(report.changes)}`, "", `Base \`${report.base}\`, head \`${report.head}\`.`];
  if (contract.length) {
    out.push("", "| | breaks | change | concerns | where |", "|---|---|---|---|---|");
    for (const g of contract) {
      const c = g.change;
      out.push(`| ${c.breaking ? "**breaking**" : "—"} | ${c.for.join(", ") || "nobody"} | ${cell(c.message)} | ${cell(concerns(g)) || "the contract"} | \`${cell(c.source ?? c.pointer)}\` |`);
    }
  }
  if (rules.length) {
    out.push("", "#### Rule table", "", "| rule | change | breaks | judged by |", "|---|---|---|---|");
    for (const g of rules) {
      const c = g.change;
      out.push(`| \`${c.rule}\` | ${cell(c.message)} | ${c.for.join(", ") || "nobody"} | ${c.cases?.length ? c.cases.map((id) => `\`${id}\``).join(", ") : "no case"} |`);
    }
  }
  for (const note of report.notes) out.push("", `> ${note}`);
  return out.join("\n") + "\n";
}
