/**
 * The console reporter: one line per case the moment it finishes (so a long run shows it is
 * moving), then the run grouped by area, every failure with its message, expected vs actual, the
 * JSON pointer and a curl command that reproduces the request that showed it (a case that went on
 * past failed decisions lists each), the skipped cases with their
 * reasons, and one summary line. Colour only on a terminal, and never with NO_COLOR set.
 */
import type { CaseResult, RunSummary } from "../core/types.ts";
import type { ProgressEvent } from "../run/runner.ts";
import { inert } from "../core/inert-text.ts";
import { countsText, failedRules, formatDuration, formatValue, groupByArea, levelLines, summaryLine } from "./format.ts";
import { failuresOf, ruleOfFailure } from "../run/rule-results.ts";

export interface ConsoleOptions {
  write: (text: string) => void;
  color?: boolean;
  /** Longest expected/actual value printed (the JSON and HTML reports keep everything). */
  maxValueLength?: number;
}

const CODES = { red: [31, 39], green: [32, 39], yellow: [33, 39], dim: [2, 22], bold: [1, 22] } as const;
type Style = keyof typeof CODES;

const MARK: Record<CaseResult["status"], { mark: string; style: Style }> = {
  passed: { mark: "✓", style: "green" },
  failed: { mark: "✗", style: "red" },
  skipped: { mark: "-", style: "yellow" },
};

/** Continuation lines under the first; control characters from the target cannot reach the terminal. */
function indent(text: string, prefix: string): string {
  return clean(text).split("\n").join(`\n${prefix}`);
}

function clean(text: string): string {
  return inert(text);
}

/** How a case notes what it made and could not remove (conformance/cases: hooks, tokens, authorizations). */
const LEFT_BEHIND = "left behind:";

export class ConsoleReporter {
  private readonly paint: (style: Style, text: string) => string;
  private readonly max: number;

  constructor(private readonly options: ConsoleOptions) {
    this.paint = options.color ? (style, text) => `\u001b[${CODES[style][0]}m${text}\u001b[${CODES[style][1]}m` : (_s, text) => text;
    this.max = options.maxValueLength ?? 2000;
  }

  /** Pass to runSuite's onProgress. */
  readonly onProgress = (event: ProgressEvent): void => {
    if (event.type === "start") {
      this.options.write(`Conformance run against ${clean(event.target.baseUrl)} (web host ${clean(event.target.authUrl)}): ${event.total} ${event.total === 1 ? "case" : "cases"}\n`);
    } else if (event.type === "case") {
      const width = String(event.total).length;
      const { mark, style } = MARK[event.result.status];
      const r = event.result;
      const tail = r.status === "skipped" ? this.paint("dim", `skipped: ${inert(r.reason ?? "", { oneLine: true })}`) : this.paint("dim", `(${formatDuration(r.durationMs)})`);
      this.options.write(`[${String(event.index + 1).padStart(width)}/${event.total}] ${this.paint(style, mark)} ${clean(r.id)}  ${clean(r.title)}  ${tail}\n`);
    }
  };

  /** The grouped report and the summary line, after the run. */
  report(summary: RunSummary): void {
    const out: string[] = ["", this.paint("bold", "Results by area")];
    for (const group of groupByArea(summary.results)) {
      const style = group.counts.failed > 0 ? "red" : "green";
      out.push(`  ${this.paint(style, group.area.padEnd(14))} ${countsText(group.counts)}`);
    }
    for (const group of groupByArea(summary.results)) {
      const failed = group.results.filter((r) => r.status === "failed");
      const skipped = group.results.filter((r) => r.status === "skipped");
      if (failed.length === 0 && skipped.length === 0) continue;
      out.push("", this.paint("bold", `${group.area}`));
      for (const r of failed) out.push(...this.failure(r));
      for (const r of skipped) out.push(`  ${this.paint("yellow", "-")} ${r.id}  ${r.title}\n      ${this.paint("dim", `skipped: ${clean(r.reason ?? "no reason given")}`)}`);
    }
    // What the run could not clean up, whichever case made it and however it ended: the target's
    // owner has to remove it by hand, so it is said once, in one place, not only beside failures.
    const left = summary.results.flatMap((r) => r.notes.filter((n) => n.startsWith(LEFT_BEHIND)).map((n) => `  ${this.paint("yellow", "!")} ${r.id}  ${indent(n.slice(LEFT_BEHIND.length).trim(), "      ")}`));
    if (left.length > 0) out.push("", this.paint("bold", "Left on the target (not removed by the run)"), ...left);
    out.push("", this.paint("bold", "Rules by level"));
    const failed = failedRules(summary);
    for (const [text, level] of levelLines(summary).map((t, i) => [t, i === 0 ? failed.seed : failed.contract] as const)) {
      out.push(`  ${this.paint(level.length > 0 ? "red" : "green", text)}`);
      for (const r of level) out.push(`    ${this.paint("red", "✗")} ${r.id}  ${clean(r.failures.map((f) => f.case).filter((c, i, all) => all.indexOf(c) === i).join(", "))}${r.failures.length > 1 ? this.paint("dim", ` (${r.failures.length} failures)`) : ""}`);
    }
    if (summary.decisions?.off.length) out.push(`  ${this.paint("dim", `switched off in the profile: ${summary.decisions.off.join(", ")}`)}`);
    const declared = Object.entries(summary.decisions?.declared ?? {});
    if (declared.length > 0) out.push(`  ${this.paint("dim", clean(`declared: ${declared.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ")}`))}`);
    const line = summaryLine(summary);
    out.push("", this.paint(summary.counts.failed > 0 ? "red" : "green", line), "");
    this.options.write(out.join("\n"));
  }

  private failure(r: CaseResult): string[] {
    const all = failuresOf(r);
    const lines = [`  ${this.paint("red", "✗")} ${this.paint("bold", r.id)}  ${r.title}${all.length > 1 ? this.paint("dim", `  (${all.length} failures)`) : ""}`, `      seed:     ${r.seed}`];
    all.forEach((f, i) => {
      if (all.length > 1) lines.push(`      ${this.paint("dim", `— ${i + 1} of ${all.length}${f.fatal ? " (the case stopped here)" : ""}`)}`);
      const rule = ruleOfFailure(r, f);
      if (rule) lines.push(`      rule:     ${clean(rule)} (${rule.startsWith("S-") ? "seed" : "contract decision"})`);
      lines.push(`      failure:  ${indent(f.message ?? "failed", "                ")}`);
      if (f.expected !== undefined || f.actual !== undefined) {
        lines.push(`      expected: ${indent(formatValue(f.expected, this.max), "                ")}`);
        lines.push(`      actual:   ${indent(formatValue(f.actual, this.max), "                ")}`);
      }
      // A pointer can name the target's own keys (an unexpected property): its text too.
      if (f.pointer !== undefined) lines.push(`      pointer:  ${clean(f.pointer || "/")}`);
      if (f.curl) lines.push(`      curl:     ${clean(f.curl)}`);
    });
    for (const note of r.notes) lines.push(`      note:     ${indent(note, "                ")}`);
    return lines;
  }
}
