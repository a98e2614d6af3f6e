/**
 * The three outputs of `diff`: JSON for programs (every change under `changes`, one per
 * operation or webhook it concerns), text for people and Markdown for a pull request comment.
 * Text and Markdown show a change made once in a shared schema (a field of `User`) once, with
 * every operation and webhook it reaches, rather than once per operation.
 */
import { AUDIENCES, type Audience, type Change } from "./change.ts";

export interface Report {
  base: string;
  head: string;
  /** Whom the run judges for (`--for`; all three by default): only changes breaking them count as breaking. */
  audiences?: readonly Audience[];
  changes: Change[];
  notes: string[];
}

/** Whether a change breaks one of the audiences asked for. */
export function breaksAny(c: Change, audiences: readonly Audience[] = AUDIENCES): boolean {
  return c.for.some((a) => audiences.includes(a));
}

function asked(report: Report): readonly Audience[] {
  return report.audiences ?? AUDIENCES;
}

/** `` (all three) or ` for clients` (what `--for` asked). */
function forWhom(report: Report): string {
  const list = asked(report);
  return list.length === AUDIENCES.length ? "" : ` for ${list.join(", ")}`;
}

function label(c: Change, audiences: readonly Audience[]): string {
  if (c.breaking && breaksAny(c, audiences)) return `BREAKING for ${c.for.join(", ")}`;
  if (c.breaking) return `breaking for ${c.for.join(", ")} only (not asked for)`;
  if (c.mayBreak) return `COMPATIBILITY UNKNOWN for ${c.mayBreak.join(", ")}`;
  return "not breaking";
}

interface Group {
  change: Change;
  operations: string[];
  webhooks: string[];
}

/** Changes that differ only in the operation or webhook they concern, together, breaking ones first. */
function groups(changes: Change[], audiences: readonly Audience[]): Group[] {
  const byKey = new Map<string, Group>();
  for (const c of changes) {
    const key = JSON.stringify([c.kind, c.breaking, c.for, c.mayBreak ?? [], c.message, c.source ?? c.pointer, c.rule ?? ""]);
    let g = byKey.get(key);
    if (!g) byKey.set(key, (g = { change: c, operations: [], webhooks: [] }));
    if (c.operation && !g.operations.includes(c.operation)) g.operations.push(c.operation);
    if (c.webhook && !g.webhooks.includes(c.webhook)) g.webhooks.push(c.webhook);
  }
  const list = [...byKey.values()];
  const rank = (c: Change) => (breaksAny(c, audiences) ? 0 : c.mayBreak ? 1 : c.breaking ? 2 : 3);
  return list.sort((a, b) => rank(a.change) - rank(b.change));
}

/**
 * `3 breaking changes (clients 2, servers 1), 4 others`; with `--for clients`: `2 breaking
 * changes for clients, 5 others (1 breaking only servers)`. Changes of unknown compatibility are
 * counted apart.
 */
export function summary(changes: Change[], audiences: readonly Audience[] = AUDIENCES): string {
  if (changes.length === 0) return "no changes";
  const breaking = changes.filter((c) => breaksAny(c, audiences));
  const counts = audiences
    .map((a) => [a, breaking.filter((c) => c.for.includes(a)).length] as const)
    .filter(([, n]) => n > 0)
    .map(([a, n]) => `${a} ${n}`);
  const unknown = changes.filter((c) => !c.breaking && c.mayBreak).length;
  const notAsked = changes.filter((c) => c.breaking && !breaksAny(c, audiences)).length;
  const others = changes.length - breaking.length - unknown;
  const whom = audiences.length === AUDIENCES.length ? "" : ` for ${audiences.join(", ")}`;
  const detail = audiences.length > 1 && counts.length ? ` (${counts.join(", ")})` : "";
  const notAskedText = notAsked ? ` (${notAsked} breaking only ${AUDIENCES.filter((a) => !audiences.includes(a)).join(", ")})` : "";
  const unknownText = unknown ? `, ${unknown} of unknown compatibility` : "";
  return `${breaking.length} breaking change${breaking.length === 1 ? "" : "s"}${whom}${detail}${unknownText}, ${others} other${others === 1 ? "" : "s"}${notAskedText}`;
}

function concerns(g: Group): string {
  const parts: string[] = [];
  if (g.operations.length) parts.push(`operation${g.operations.length > 1 ? "s" : ""} ${g.operations.join(", ")}`);
  if (g.webhooks.length) parts.push(`webhook${g.webhooks.length > 1 ? "s" : ""} ${g.webhooks.join(", ")}`);
  return parts.join("; ");
}

export function formatJson(report: Report): string {
  const audiences = asked(report);
  const breaking = report.changes.filter((c) => breaksAny(c, audiences)).length;
  const unknown = report.changes.filter((c) => !c.breaking && c.mayBreak).length;
  return JSON.stringify({ base: report.base, head: report.head, for: audiences, breaking, unknown, changes: report.changes, notes: report.notes }, null, 2) + "\n";
}

export function formatText(report: Report): string {
  const audiences = asked(report);
  const lines = [`${report.base} → ${report.head}: ${summary(report.changes, audiences)}`];
  if (audiences.length !== AUDIENCES.length) lines.push(`judged for ${audiences.join(", ")} (--for)`);
  for (const g of groups(report.changes, audiences)) {
    const c = g.change;
    lines.push("", `${label(c, audiences)}: ${c.message}`);
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
  const audiences = asked(report);
  const all = groups(report.changes, audiences);
  const contract = all.filter((g) => !g.change.rule);
  const rules = all.filter((g) => g.change.rule);
  const judged = audiences.length === AUDIENCES.length ? "" : ` Judged for ${audiences.join(", ")} only (\`--for\`).`;
  const out = [`### Contract changes${forWhom(report)}: ${summary(report.changes, audiences)}`, "", `Base \`${report.base}\`, head \`${report.head}\`.${judged}`];
  if (contract.length) {
    out.push("", "| | breaks | change | concerns | where |", "|---|---|---|---|---|");
    for (const g of contract) {
      const c = g.change;
      const mark = breaksAny(c, audiences) ? "**breaking**" : c.mayBreak ? "**unknown**" : c.breaking ? "breaking (not asked for)" : "—";
      out.push(`| ${mark} | ${c.for.join(", ") || (c.mayBreak ? `perhaps ${c.mayBreak.join(", ")}` : "nobody")} | ${cell(c.message)} | ${cell(concerns(g)) || "the contract"} | \`${cell(c.source ?? c.pointer)}\` |`);
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
