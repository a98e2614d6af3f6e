/**
 * `conformance --suggest-decisions`: from one run to a profile. After a run, the `decisions:`
 * block that would make the contract level pass — every decision that failed switched `off`, or,
 * for the few with a natural value (core/decisions.ts DECLARABLE), declared with the value the
 * run saw when its evidence shows one (token errors answered 400: `D-OAUTH-TOKEN-ERROR-STATUS:
 * 400`; other hourly limits: `D-RATE-RESET: { authenticated: 1000, anonymous: 100 }`) — merged
 * with what the profile already says, each new line with the evidence that made
 * it (`# evidence: <case>: <message>`), for a team to review and paste. Since a failed decision
 * no longer ends its case (every departure shows in one run), the block is meant to take an
 * empty `decisions:` to a passing profile in one run plus one confirming run.
 *
 * Pure: from the run's summary and the profile's decisions to text (and the same as entries for
 * results.json); the CLI prints it, nothing here reads or writes files.
 */
import { DECLARABLE, type DecisionSetting } from "../core/decisions.ts";
import type { CaseResult, FailureDetail, RunSummary, SuggestedDecisions } from "../core/types.ts";
import { failuresOf, ruleOfFailure, rulesOf } from "./rule-results.ts";
import { TRIGGER_FAILURE } from "./trigger.ts";

export type SuggestedEntry = SuggestedDecisions["entries"][number];

/** One failure of a decision with the case it came from. */
interface Evidence {
  case: string;
  detail: Pick<FailureDetail, "message" | "pointer" | "actual" | "expected">;
}

/** The value a declarable decision's failures show the target chose, when they show one. */
const INFER: Record<string, (evidence: readonly Evidence[], current: DecisionSetting | undefined) => DecisionSetting | undefined> = {
  // Only the hourly limits differ (X-RateLimit-Limit, the two checks of CONTRACT-RATE-001): those the run saw.
  "D-RATE-RESET": (evidence, current) => {
    if (evidence.length === 0 || evidence.some((e) => e.detail.pointer !== "/headers/x-ratelimit-limit" || typeof e.detail.actual !== "number")) return undefined;
    const limits = { ...DECLARABLE["D-RATE-RESET"].contract, ...(typeof current === "object" ? current : {}) } as Record<string, unknown>;
    for (const e of evidence) {
      const who = /anonymous/i.test(e.detail.message) ? "anonymous" : /authenticated/i.test(e.detail.message) ? "authenticated" : undefined;
      if (!who) return undefined;
      limits[who] = e.detail.actual;
    }
    return limits;
  },
  // Every token error answered with the same 4xx (the status checks and the schema's /status problems).
  "D-OAUTH-TOKEN-ERROR-STATUS": (evidence) => {
    const seen = new Set(evidence.filter((e) => e.detail.pointer === "/status").map((e) => e.detail.actual));
    const [status] = [...seen];
    return seen.size === 1 && typeof status === "number" && status >= 400 && status < 500 ? status : undefined;
  },
  // Ids that are not decimal digits: the weaker claim (any non-empty string, no order) is the one to declare.
  "D-ACTIVITY-ID": () => "opaque",
  // X-Hub-Signature carrying sha256=…: sha256 only; only X-Hub-Signature-256 missing: sha1 only.
  "D-SIGNATURE": (evidence) => {
    const headerValues = (name: string) => evidence.filter((e) => e.detail.pointer === `/headers/${name}` || e.detail.pointer === `/body/request/headers/${name === "x-hub-signature" ? "X-Hub-Signature" : "X-Hub-Signature-256"}`).map((e) => e.detail.actual);
    const first = headerValues("x-hub-signature");
    if (first.some((v) => typeof v === "string" && /^sha256=/.test(v))) return "sha256";
    if (first.length === 0 && headerValues("x-hub-signature-256").length > 0) return "sha1";
    return undefined;
  },
};

function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** YAML for a setting: `off`, a number, a plain word, or a flow mapping. */
function yamlValue(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return /^[A-Za-z0-9+._-]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

function evidenceOf(summary: RunSummary, rule: string): Evidence[] {
  const out: Evidence[] = [];
  for (const r of summary.results as CaseResult[]) for (const f of failuresOf(r)) if (ruleOfFailure(r, f) === rule) out.push({ case: r.id, detail: f });
  // A rule failed only by a finding no case of it could take: its message is the evidence.
  if (out.length === 0) for (const f of rulesOf(summary).rules.find((x) => x.id === rule)?.failures ?? []) out.push({ case: f.case, detail: { message: f.message } });
  return out;
}

/**
 * The decisions the profile would need: what it says now (kept, unless the run failed it), and
 * for each decision the run failed, `off` or the value its evidence shows.
 */
export function suggestedEntries(summary: RunSummary, profileDecisions: Readonly<Record<string, DecisionSetting>> = {}): SuggestedEntry[] {
  return suggestion(summary, profileDecisions).entries;
}

/**
 * A decision failed only where the profile's own trigger did not work (`trigger "x": … answered
 * 422`) shows nothing of the target's choices: switching it off would hide a profile to fix. It
 * is left out of the block, with a comment saying so.
 */
function suggestion(summary: RunSummary, profileDecisions: Readonly<Record<string, DecisionSetting>>): { entries: SuggestedEntry[]; notSuggested: string[] } {
  const entries = new Map<string, SuggestedEntry>();
  const notSuggested: string[] = [];
  for (const [id, setting] of Object.entries(profileDecisions)) if (setting !== "on") entries.set(id, { id, setting, source: "profile" });
  for (const rule of rulesOf(summary).rules) {
    if (rule.level !== "contract" || rule.status !== "failed") continue;
    const all = evidenceOf(summary, rule.id);
    const evidence = all.filter((e) => !TRIGGER_FAILURE.test(e.detail.message));
    if (evidence.length === 0 && all.length > 0) {
      notSuggested.push(`${rule.id} — failed only where the profile's trigger did not work (${all[0]!.case}: ${oneLine(all[0]!.detail.message, 160)}): fix the trigger and run again`);
      continue;
    }
    const inferred = INFER[rule.id]?.(evidence, profileDecisions[rule.id]);
    // A declared value the run still failed is not kept: the evidence's, else off.
    const setting = inferred !== undefined && JSON.stringify(inferred) !== JSON.stringify(profileDecisions[rule.id]) ? inferred : "off";
    const first = evidence[0];
    const more = evidence.length > 1 ? ` (and ${evidence.length - 1} more)` : "";
    entries.set(rule.id, { id: rule.id, setting, source: "suggested", ...(first ? { evidence: { case: first.case, message: `${oneLine(first.detail.message)}${more}` } } : {}) });
  }
  return { entries: [...entries.values()].sort((a, b) => a.id.localeCompare(b.id)), notSuggested };
}

/** The `decisions:` block to paste into the profile, each suggested line with its evidence. */
export function suggestDecisions(summary: RunSummary, profileDecisions: Readonly<Record<string, DecisionSetting>> = {}): string {
  const { entries, notSuggested } = suggestion(summary, profileDecisions);
  return formatSuggestion(entries, notSuggested);
}

export function formatSuggestion(entries: readonly SuggestedEntry[], notSuggested: readonly string[] = []): string {
  const head = "# The decisions that would make the contract level pass: review each line, paste into the profile, run again.";
  const tail = notSuggested.map((n) => `# not suggested: ${n}\n`).join("");
  if (entries.length === 0) return `${head}\ndecisions: {}\n${tail}`;
  const lines = entries.map((e) => {
    const line = `  ${e.id}: ${yamlValue(e.setting)}`;
    return e.source === "profile" ? `${line}  # from the profile` : `${line}  # evidence: ${e.evidence ? `${e.evidence.case}: ${e.evidence.message}` : "(none recorded)"}`;
  });
  return `${head}\ndecisions:\n${lines.join("\n")}\n${tail}`;
}

/** Both forms, for results.json. */
export function suggestionOf(summary: RunSummary, profileDecisions: Readonly<Record<string, DecisionSetting>> = {}): SuggestedDecisions {
  const { entries, notSuggested } = suggestion(summary, profileDecisions);
  return { yaml: formatSuggestion(entries, notSuggested), entries };
}
