/**
 * The runner: selects cases (`--only` / `--skip`), skips those whose needs the profile does not
 * meet, runs the rest one at a time — each with its own HttpClient and a time limit — and turns
 * every outcome into a CaseResult: CaseFailure and SkipCase as the case meant them, any other
 * error as a failure carrying its message, a failure always with the curl line of the case's
 * last request. One case at a time keeps the target's state (rate limits, feeds, hooks) what
 * each case expects, and keeps the curl line tied to the case that printed it.
 */
import { performance } from "node:perf_hooks";
import type { Case, CaseMeta, CaseResult, FailureDetail, RunSummary, Status } from "../core/types.ts";
import type { Profile } from "../core/profile.ts";
import type { Receiver } from "../core/receiver.ts";
import { CaseFailure, SkipCase } from "../core/failure.ts";
import { curlOf, type HttpClient } from "../core/http.ts";
import { createAuthorizer, type Authorizer } from "../authorize/index.ts";
import { startReceiver } from "../receiver/server.ts";
import { caseContext, type Finding, type RunResources } from "./context.ts";
import { Decisions } from "../core/decisions.ts";
import { applyFindings, levelCounts, ruleResults } from "./rule-results.ts";
import { jsonSafe } from "./json-safe.ts";
import { needsReceiver, unmetNeed, type RunFacilities } from "./needs.ts";
import { selectCases } from "./select.ts";
import { secretRedactor } from "../core/secret-redact.ts";

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
  // The last request sent, answered or not: for a request that hung, that one, not the one before.
  const last = http.lastSent;
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

/**
 * One case of any suite — the server suite here, the consumer suites (conformance/consumers)
 * with their own contexts: `start` builds the case's context for its abort signal and notes and
 * returns the run and the HttpClient whose last request is the failure's curl line.
 */
export async function runCase(meta: CaseMeta, timeoutMs: number, start: (signal: AbortSignal, notes: string[]) => { http: HttpClient; run: () => Promise<void> }, decisions?: Decisions): Promise<CaseResult> {
  const notes: string[] = [];
  const abandon = new AbortController();
  const { http, run } = start(abandon.signal, notes);
  const started = performance.now();
  let outcome: Pick<CaseResult, "status" | "reason" | "failure">;
  try {
    await withTimeout(Promise.resolve().then(run), timeoutMs, () => abandon.abort(new CaseTimeout("the case's time is up")));
    outcome = { status: "passed" };
  } catch (error) {
    outcome = isSkip(error) ? { status: "skipped", reason: error.message } : { status: "failed", failure: failureOf(error, http, timeoutMs) };
    // A failure of a decision the profile switches off is no failure: the case stopped at an
    // assertion the target need not keep, so what came after it was not checked.
    const rule = outcome.failure?.rule ?? meta.rules?.[0];
    if (outcome.status === "failed" && rule && decisions?.off(rule)) outcome = { status: "skipped", reason: `not checked past ${rule}, which the profile switches off (${outcome.failure!.message})` };
  }
  return { ...metaOf(meta), ...outcome, durationMs: Math.round(performance.now() - started), notes };
}

/** A case all of whose rules are decisions the profile switches off has nothing left to check. */
function switchedOff(c: CaseMeta, decisions: Decisions): string | undefined {
  const rules = c.rules ?? [];
  if (rules.length === 0 || !rules.every((id) => decisions.off(id))) return undefined;
  return `not checked: the profile switches off ${rules.join(", ")} (the target chose otherwise)`;
}

async function runOne(c: Case, run: RunResources, facilities: RunFacilities, timeoutMs: number, decisions: Decisions): Promise<CaseResult> {
  const reason = switchedOff(c, decisions) ?? unmetNeed(c.needs, run.profile, facilities);
  if (reason) return { ...metaOf(c), status: "skipped", durationMs: 0, reason, notes: [] };
  return runCase(
    c,
    timeoutMs,
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

export async function runSuite(options: SuiteOptions): Promise<RunSummary> {
  const cases = options.cases ?? (await import("../cases/index.ts")).ALL_CASES;
  const { selected, unmatched } = selectCases(cases, options.only, options.skip);
  if (unmatched.length > 0) throw new SelectionError(`--only ${unmatched.join(",")} matches no case`);
  if (selected.length === 0) throw new SelectionError(cases.length === 0 ? "no cases are registered" : "the selection is empty (every case is excluded by --skip)");

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
  const authorizer = options.authorizer ?? createAuthorizer(options.profile, target.authUrl);
  const decisions = new Decisions(options.profile.decisions);
  const findings: Finding[] = [];
  const run: RunResources = { profile: options.profile, ...target, receiver, authorizer, fetch: options.fetch, requestTimeoutMs: options.requestTimeoutMs, maxResponseBytes: options.maxResponseBytes ?? options.profile.limits?.maxResponseBytes, decisions, findings };

  const results: CaseResult[] = [];
  const redact = secretRedactor(options.profile);
  options.onProgress?.({ type: "start", total: selected.length, target });
  try {
    for (const [index, c] of selected.entries()) {
      // The profile's secrets leave no result (its failure, curl line, notes): redacted as it is made.
      const result = redact(await runOne(c, run, facilities, timeoutMs, decisions));
      results.push(result);
      options.onProgress?.({ type: "case", result, index, total: selected.length });
    }
  } finally {
    if (!options.authorizer) await authorizer.close().catch(() => undefined);
    await ownReceiver?.close();
  }

  const summary = summarize(target, startedAt, performance.now() - started, results, findings.map(redact), decisions);
  options.onProgress?.({ type: "end", summary });
  return summary;
}
