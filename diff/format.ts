/**
 * The three outputs of `diff`: JSON for programs (every change under `changes`, one per
 * operation or webhook it concerns), text for people and Markdown for a pull request comment.
 * Text and Markdown show a change made once in a shared schema (a field of `User`) once, with
 * every operation and webhook it reaches, rather than once per operation.
 *
 * Each change is at one of three levels for the audiences asked for (`--for`): breaking (it
 * breaks one of them), unknown (whether it does cannot be decided, and why) and safe. `--fail-on`
 * names the lowest level that fails the run; by default `unknown`, so nothing undecided passes a
 * pipeline in silence.
 */
import { AUDIENCES, type Audience, type Change, type Level } from "./change.ts";

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

/** The change's level for these audiences: one breaking only others is safe for them, and so is one that may break only others. */
export function levelFor(c: Change, audiences: readonly Audience[] = AUDIENCES): Level {
  if (breaksAny(c, audiences)) return "breaking";
  if (c.mayBreak?.some((a) => audiences.includes(a))) return "unknown";
  return "safe";
}

export type FailOn = "breaking" | "unknown" | "any" | "none";

/** Whether the report fails a run at `--fail-on` (the exit code 1). */
export function fails(report: Report, failOn: FailOn): boolean {
  const audiences = asked(report);
  switch (failOn) {
    case "none":
      return false;
    case "any":
      return report.changes.length > 0;
    case "breaking":
      return report.changes.some((c) => levelFor(c, audiences) === "breaking");
    case "unknown":
      return report.changes.some((c) => levelFor(c, audiences) !== "safe");
  }
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
  const level = levelFor(c, audiences);
  if (level === "breaking") return `BREAKING for ${c.for.join(", ")}`;
  if (level === "unknown") return `UNKNOWN, may break ${c.mayBreak!.join(", ")}`;
  if (c.breaking) return `safe for ${audiences.join(", ")}, breaking for ${c.for.join(", ")} only (not asked for)`;
  if (c.mayBreak) return `safe for ${audiences.join(", ")}, unknown for ${c.mayBreak.join(", ")} only (not asked for)`;
  return "safe";
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
  const rank = (c: Change) => ({ breaking: 0, unknown: 1, safe: c.breaking || c.mayBreak ? 2 : 3 })[levelFor(c, audiences)];
  return list.sort((a, b) => rank(a.change) - rank(b.change));
}

/**
 * `3 breaking changes (clients 2, servers 1), 1 unknown, 4 safe`; with `--for clients`: `2
 * breaking changes for clients, 0 unknown, 5 safe (1 breaking only servers)`.
 */
export function summary(changes: Change[], audiences: readonly Audience[] = AUDIENCES): string {
  if (changes.length === 0) return "no changes";
  const breaking = changes.filter((c) => levelFor(c, audiences) === "breaking");
  const counts = audiences
    .map((a) => [a, breaking.filter((c) => c.for.includes(a)).length] as const)
    .filter(([, n]) => n > 0)
    .map(([a, n]) => `${a} ${n}`);
  const unknown = changes.filter((c) => levelFor(c, audiences) === "unknown").length;
  const notAsked = changes.filter((c) => c.breaking && levelFor(c, audiences) === "safe").length;
  const safe = changes.length - breaking.length - unknown;
  const whom = audiences.length === AUDIENCES.length ? "" : ` for ${audiences.join(", ")}`;
  const detail = audiences.length > 1 && counts.length ? ` (${counts.join(", ")})` : "";
  const notAskedText = notAsked ? ` (${notAsked} breaking only ${AUDIENCES.filter((a) => !audiences.includes(a)).join(", ")})` : "";
  return `${breaking.length} breaking change${breaking.length === 1 ? "" : "s"}${whom}${detail}, ${unknown} unknown, ${safe} safe${notAskedText}`;
}

function concerns(g: Group): string {
  const parts: string[] = [];
  if (g.operations.length) parts.push(`operation${g.operations.length > 1 ? "s" : ""} ${g.operations.join(", ")}`);
  if (g.webhooks.length) parts.push(`webhook${g.webhooks.length > 1 ? "s" : ""} ${g.webhooks.join(", ")}`);
  return parts.join("; ");
}

export function formatJson(report: Report): string {
  const audiences = asked(report);
  // Each change's level is the one for the audiences asked for, the level the exit code judges.
  const changes = report.changes.map((c) => ({ ...c, level: levelFor(c, audiences) }));
  const count = (level: Level) => changes.filter((c) => c.level === level).length;
  return JSON.stringify({ base: report.base, head: report.head, for: audiences, breaking: count("breaking"), unknown: count("unknown"), safe: count("safe"), changes, notes: report.notes }, null, 2) + "\n";
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
    if (c.reason && levelFor(c, audiences) === "unknown") lines.push(`  why unknown: ${c.reason}`);
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
      const level = levelFor(c, audiences);
      const mark = level === "breaking" ? "**breaking**" : level === "unknown" ? "**unknown**" : c.breaking || c.mayBreak ? "safe (breaks only others)" : "safe";
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
