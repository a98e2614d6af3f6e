/**
 * The runner: selects cases (`--only` / `--skip`), skips those whose needs the profile does not
 * meet, runs the rest one at a time — each with its own HttpClient, a time limit and a scope
 * (core/case-scope.ts) where its failed decisions are recorded while it goes on — and turns every
 * outcome into a CaseResult: CaseFailure and SkipCase as the case meant them, any other error as
 * a failure carrying its message; every failure (a case may have several: each failed decision,
 * then what stopped it) with the curl line of the request that showed it. One case at a time
 * keeps the target's state (rate limits, feeds, hooks) what each case expects, and keeps the
 * curl line tied to the case that printed it.
 */
import { performance } from "node:perf_hooks";
import type { Case, CaseMeta, CaseResult, FailureDetail, RunSummary, Status } from "../core/types.ts";
import type { Profile } from "../core/profile.ts";
import type { Receiver } from "../core/receiver.ts";
import { CaseFailure, SkipCase } from "../core/failure.ts";
import { inCaseScope, type CaseScope, type RecordedFailure } from "../core/case-scope.ts";
import { curlOf, type HttpClient } from "../core/http.ts";
import { createAuthorizer, type Authorizer } from "../authorize/index.ts";
import { startReceiver } from "../receiver/server.ts";
import { caseContext, type Finding, type RunResources } from "./context.ts";
import { Decisions } from "../core/decisions.ts";
import { applyFindings, levelCounts, ruleResults } from "./rule-results.ts";
import { jsonSafe } from "./json-safe.ts";
import { boundedFinding, boundedResult } from "./result-bounds.ts";
import { needsReceiver, unmetNeed, type RunFacilities } from "./needs.ts";
import { selectCases } from "./select.ts";
import { secretRedactor } from "../core/secret-redact.ts";
import { IssuedTokens } from "../core/issued-tokens.ts";
import { profileSecrets } from "../core/credentials-home.ts";
import { suggestionOf } from "./suggest.ts";
import { shuffled } from "./shuffle.ts";
import { planBudget, type Budget } from "./rate-budget.ts";

export const DEFAULT_CASE_TIMEOUT_MS = 30_000;

export type ProgressEvent =
  | { type: "start"; total: number; target: RunSummary["target"] }
  | { type: "case"; result: CaseResult; index: number; total: number }
  | { type: "end"; summary: RunSummary };

export interface SuiteOptions {
  baseUrl: string;
  authUrl: string;
  profile: Profile;
  /** The cases to choose from; default: every registered case (conformance/cases). */
  cases?: readonly Case[];
  /** Comma-separated glob patterns over case IDs or area names. */
  only?: string | readonly string[];
  skip?: string | readonly string[];
  /** Per case; default 30 s. */
  timeoutMs?: number;
  /** Per request, from sending it to the end of its body; default 10 s. */
  requestTimeoutMs?: number;
  /** The most one answer's body may weigh, decoded, so it bounds decompression too; default 8 MB. */
  maxResponseBytes?: number;
  /** Where the built-in webhook receiver listens (default 127.0.0.1); false: no receiver. */
  receiverHost?: string | false;
  /** A receiver to use instead of starting one (the caller closes it). */
  receiver?: Receiver;
  /** A way through the authorize page instead of the profile's driver (tests). */
  authorizer?: Authorizer;
  onProgress?: (event: ProgressEvent) => void;
  fetch?: typeof fetch;
  /** Run the selected cases in the order this seed draws (run/shuffle.ts); default: the registered order. */
  shuffle?: number;
  /** What the target's rate limits had left before the run (run/rate-budget.ts readBudget): cases that would go past it are skipped. */
  budget?: Budget;
  /** Told once, before the first case, when the budget skips cases. */
  onBudget?: (line: string) => void;
}

/** The selection is empty or names something that does not exist: a usage error, not a result. */
export class SelectionError extends Error {
  override name = "SelectionError";
}

class CaseTimeout extends Error {
  override name = "CaseTimeout";
}

function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new CaseTimeout(`the case did not finish within ${ms} ms`));
    }, ms);
  });
  // A timed-out case is abandoned (its requests aborted through onTimeout); its eventual
  // rejection must not crash the process.
  work.catch(() => undefined);
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

function isFailure(error: unknown): error is CaseFailure {
  return error instanceof CaseFailure || (error instanceof Error && error.name === "CaseFailure" && "detail" in error);
}

function isSkip(error: unknown): error is SkipCase {
  return error instanceof SkipCase || (error instanceof Error && error.name === "SkipCase");
}

function failureOf(error: unknown, http: HttpClient, timeoutMs: number): FailureDetail {
  // The request that showed the failure: the case's last when the failure was made (a clean-up
  // in a `finally` may have sent more since); else the last sent, answered or not — for a
  // request that hung, that one, not the one before.
  const last = (isFailure(error) ? error.sent : undefined) ?? http.lastSent;
  const curl = last ? curlOf(last) : undefined;
  if (isFailure(error)) {
    const { expected, actual, pointer, rule } = error.detail;
    return { message: error.message, expected: jsonSafe(expected), actual: jsonSafe(actual), pointer, curl, ...(rule ? { rule } : {}) };
  }
  if (error instanceof CaseTimeout) return { message: error.message, expected: `done within ${timeoutMs} ms`, actual: "still running", curl };
  const message = error instanceof Error ? `unexpected error: ${error.name}: ${error.message}` : `unexpected error: ${String(error)}`;
  return { message, curl };
}

function metaOf(c: CaseMeta): Omit<CaseResult, "status" | "durationMs" | "notes"> {
  return { id: c.id, title: c.title, area: c.area, seed: c.seed, ...(c.rules ? { rules: [...c.rules] } : {}), ...(c.needs ? { needs: [...c.needs] } : {}) };
}

/** How many decision failures one case lists, in all and per rule; more are counted in a note (a loop over many items could record hundreds). */
export const MAX_RECORDED_FAILURES = 50;
export const MAX_RECORDED_PER_RULE = 5;

/** Collects a case's decision failures and the rules whose assertions held, for the case's scope. */
function recorder(meta: CaseMeta, http: HttpClient) {
  const failures: FailureDetail[] = [];
  const held = new Set<string>();
  const dropped = new Map<string, number>();
  const scope: CaseScope = {
    lastSent: () => http.lastSent,
    record(f: RecordedFailure) {
      // The same assertion failing again (a loop over items) is one departure.
      if (failures.some((x) => x.rule === f.rule && x.message === f.message && x.pointer === f.pointer)) return;
      if (failures.length >= MAX_RECORDED_FAILURES || failures.filter((x) => x.rule === f.rule).length >= MAX_RECORDED_PER_RULE) return void dropped.set(f.rule, (dropped.get(f.rule) ?? 0) + 1);
      failures.push({ message: f.message, expected: jsonSafe(f.expected), actual: jsonSafe(f.actual), pointer: f.pointer, rule: f.rule, ...(f.sent ? { curl: curlOf(f.sent) } : {}) });
    },
    held(rule) {
      const id = rule ?? meta.rules?.[0];
      if (id) held.add(id);
    },
  };
  return { scope, failures: () => [...failures], held: () => [...held], dropped: () => [...dropped] };
}

/** The case's rules minus those that failed in it (and, given `only`, among those). */
function heldRules(meta: CaseMeta, failures: readonly FailureDetail[], only?: readonly string[]): string[] {
  const failed = new Set(failures.map((f) => f.rule ?? meta.rules?.[0]));
  return (only ?? meta.rules ?? []).filter((id, i, all) => all.indexOf(id) === i && !failed.has(id));
}

/**
 * One case of any suite — the server suite here, the consumer suites (conformance/consumers)
 * with their own contexts: `start` builds the case's context for its abort signal and notes and
 * returns the run and the HttpClient whose last request is the failure's curl line.
 *
 * The case runs in its own scope (core/case-scope.ts): a decision's failed assertion is recorded
 * there and the case goes on, so it ends "failed" with every decision failure it met (and the
 * seed or unexpected failure that stopped it, if one did). A thrown failure of a decision the
 * profile switches off (a premise the target does not keep) stops the case with what followed
 * not checked; the rules whose assertions held before it still count as passed.
 */
export async function runCase(meta: CaseMeta, timeoutMs: number, start: (signal: AbortSignal, notes: string[]) => { http: HttpClient; run: () => Promise<void> }, decisions?: Decisions): Promise<CaseResult> {
  const notes: string[] = [];
  const abandon = new AbortController();
  const { http, run } = start(abandon.signal, notes);
  const rec = recorder(meta, http);
  const started = performance.now();
  let outcome: Pick<CaseResult, "status" | "reason" | "failure" | "failures" | "passedRules">;
  let recorded: FailureDetail[] = [];
  try {
    await inCaseScope(rec.scope, () => withTimeout(Promise.resolve().then(run), timeoutMs, () => abandon.abort(new CaseTimeout("the case's time is up"))));
    recorded = rec.failures();
    outcome = recorded.length === 0 ? { status: "passed" } : { status: "failed", failures: recorded, passedRules: heldRules(meta, recorded) };
  } catch (error) {
    recorded = rec.failures();
    if (isSkip(error)) {
      outcome = recorded.length === 0 ? { status: "skipped", reason: error.message } : { status: "failed", failures: recorded, passedRules: [] };
      if (recorded.length > 0) notes.push(`then skipped: ${error.message}`);
    } else {
      const fatal: FailureDetail = { ...failureOf(error, http, timeoutMs), fatal: true };
      const rule = fatal.rule ?? meta.rules?.[0];
      if (rule && decisions?.off(rule)) {
        // A failure of a decision the profile switches off is no failure: the case stopped at a
        // premise the target need not keep, so what came after it was not checked.
        const past = `not checked past ${rule}, which the profile switches off (${fatal.message})`;
        const held = heldRules(meta, recorded, rec.held()).filter((id) => decisions.on(id));
        outcome = recorded.length === 0 ? { status: "skipped", reason: past, passedRules: held } : { status: "failed", failures: recorded, passedRules: held };
        if (recorded.length > 0) notes.push(past);
      } else {
        outcome = { status: "failed", failures: [...recorded, fatal], passedRules: [] };
        if (recorded.length > 0 && !isFailure(error) && !(error instanceof CaseTimeout)) {
          notes.push(`the case stopped with an unexpected error after its failed decision(s) ${[...new Set(recorded.map((f) => f.rule))].join(", ")}: code after a failed decision may rely on what it checked`);
        }
      }
    }
  }
  for (const [rule, n] of rec.dropped()) notes.push(`${n} more failure(s) of ${rule} not listed (at most ${MAX_RECORDED_PER_RULE} per rule and ${MAX_RECORDED_FAILURES} per case)`);
  if (outcome.passedRules && outcome.passedRules.length === 0 && outcome.status === "skipped") delete outcome.passedRules;
  return boundedResult({ ...metaOf(meta), ...outcome, durationMs: Math.round(performance.now() - started), notes });
}

/** A case all of whose rules are decisions the profile switches off has nothing left to check. */
function switchedOff(c: CaseMeta, decisions: Decisions): string | undefined {
  const rules = c.rules ?? [];
  if (rules.length === 0 || !rules.every((id) => decisions.off(id))) return undefined;
  return `not checked: the profile switches off ${rules.join(", ")} (the target chose otherwise)`;
}

async function runOne(c: Case, run: RunResources, facilities: RunFacilities, timeoutMs: number, decisions: Decisions, budgetSkip?: string): Promise<CaseResult> {
  const reason = switchedOff(c, decisions) ?? unmetNeed(c.needs, run.profile, facilities) ?? budgetSkip;
  if (reason) return { ...metaOf(c), status: "skipped", durationMs: 0, reason, notes: [] };
  return runCase(
    c,
    Math.max(timeoutMs, c.minTimeoutMs ?? 0),
    (signal, notes) => {
      const ctx = caseContext(run, notes, signal, c);
      return { http: ctx.http, run: () => c.run(ctx) };
    },
    decisions,
  );
}

/**
 * The run's totals, from its results: cases, and rule by rule at two levels (seed and contract),
 * after the findings — contract problems one case saw for another's rule — reach their rules.
 */
export function summarize(target: RunSummary["target"], startedAt: Date, durationMs: number, results: CaseResult[], findings: readonly Finding[] = [], decisions?: Decisions): RunSummary {
  applyFindings(results, findings);
  const counts: Record<Status, number> = { passed: 0, failed: 0, skipped: 0 };
  for (const r of results) counts[r.status]++;
  const rules = ruleResults(results, findings, decisions);
  const summary: RunSummary = { target, startedAt: startedAt.toISOString(), durationMs: Math.round(durationMs), results, counts, rules, levels: levelCounts(rules) };
  if (decisions && (decisions.switchedOff().length > 0 || Object.keys(decisions.declared()).length > 0)) summary.decisions = { off: decisions.switchedOff(), declared: decisions.declared() };
  return summary;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/**
 * The case during which the target sent the receiver more than it keeps or answers gets a note
 * saying so (the receiver's own words, with the counts for the run so far): a flood is the
 * target's doing, and a delivery the case waited for may be among what was dropped.
 */
function withExcessNote(result: CaseResult, before: ReturnType<NonNullable<Receiver["excess"]>> | undefined, after: ReturnType<NonNullable<Receiver["excess"]>> | undefined): CaseResult {
  if (!after?.note || (before && before.dropped === after.dropped && before.refused === after.refused)) return result;
  return { ...result, notes: [...result.notes, after.note] };
}

export async function runSuite(options: SuiteOptions): Promise<RunSummary> {
  const cases = options.cases ?? (await import("../cases/index.ts")).ALL_CASES;
  const selection = selectCases(cases, options.only, options.skip);
  const { unmatched } = selection;
  if (unmatched.length > 0) throw new SelectionError(`--only ${unmatched.join(",")} matches no case`);
  if (selection.selected.length === 0) throw new SelectionError(cases.length === 0 ? "no cases are registered" : "the selection is empty (every case is excluded by --skip)");
  const selected = options.shuffle === undefined ? selection.selected : shuffled(selection.selected, options.shuffle);
  const plan = options.budget ? planBudget(selected, cases, options.budget) : undefined;
  if (plan?.line) options.onBudget?.(plan.line);

  const target = { baseUrl: trimSlash(options.baseUrl), authUrl: trimSlash(options.authUrl) };
  const startedAt = new Date();
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_CASE_TIMEOUT_MS;

  let receiver = options.receiver;
  let ownReceiver: Receiver | undefined;
  const facilities: RunFacilities = {};
  if (!receiver && needsReceiver(selected)) {
    if (options.receiverHost === false) facilities.noReceiver = "the run has no webhook receiver";
    else {
      const host = options.receiverHost ?? "127.0.0.1";
      try {
        receiver = ownReceiver = await startReceiver({ host });
      } catch (error) {
        facilities.noReceiver = `the webhook receiver cannot listen on ${host}: ${(error as Error).message}`;
      }
    }
  }
  const authorizer = options.authorizer ?? createAuthorizer(options.profile, target.authUrl, target.baseUrl);
  const decisions = new Decisions(options.profile.decisions);
  const findings: Finding[] = [];
  const issued = new IssuedTokens(new Set(profileSecrets(options.profile)));
  const run: RunResources = { profile: options.profile, ...target, receiver, authorizer, fetch: options.fetch, requestTimeoutMs: options.requestTimeoutMs, maxResponseBytes: options.maxResponseBytes ?? options.profile.limits?.maxResponseBytes, decisions, findings, issued };

  const results: CaseResult[] = [];
  // The profile's secrets and the tokens issued so far.
  const redact = secretRedactor(options.profile, issued);
  options.onProgress?.({ type: "start", total: selected.length, target });
  try {
    for (const [index, c] of selected.entries()) {
      // The profile's secrets leave no result (its failure, curl line, notes): redacted as it is made.
      const excessBefore = receiver?.excess?.();
      const result = redact(withExcessNote(await runOne(c, run, facilities, timeoutMs, decisions, plan?.skips.get(c.id)), excessBefore, receiver?.excess?.()));
      results.push(result);
      options.onProgress?.({ type: "case", result, index, total: selected.length });
    }
  } finally {
    if (!options.authorizer) await authorizer.close().catch(() => undefined);
    await ownReceiver?.close();
  }

  const summary = summarize(target, startedAt, performance.now() - started, results, findings.map((f) => redact(boundedFinding(f))), decisions);
  if (options.shuffle !== undefined) summary.order = { shuffle: options.shuffle };
  // What the profile's decisions would need for the contract level to pass (conformance --suggest-decisions).
  summary.suggestedDecisions = redact(suggestionOf(summary, options.profile.decisions ?? {}));
  options.onProgress?.({ type: "end", summary });
  return summary;
}
