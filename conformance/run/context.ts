/**
 * One case's CaseContext: a fresh HttpClient (its exchanges are this case's only, so the curl
 * line on failure is the case's own last request), the run's receiver and authorizer, the
 * profile's triggers and decisions. Built per case by the runner, with the case's abort signal:
 * every request of the case (its own, the authorize driver's, the triggers') has the run's
 * request time-out and is dropped when the case's time is up.
 *
 * Contract problems in the responses the case reads are judged here: a problem of one of the
 * case's own rules fails the case — a seed rule's ends it, a decision's is recorded (with this
 * exchange's curl line) and the case goes on; a problem of a decision the profile switches off
 * (or whose declared value the response keeps) is no problem; any other is a finding of its
 * rule, which the runner counts against that rule's case — never against this one.
 */
import type { CaseContext } from "../core/types.ts";
import type { Profile } from "../core/profile.ts";
import type { Receiver } from "../core/receiver.ts";
import { HttpClient, contractFailure, describeProblem, curlOf, type ContractJudge, type RuledViolation } from "../core/http.ts";
import { SkipCase, checksFor, uncheckedFor } from "../core/failure.ts";
import { Decisions, isDecision } from "../core/decisions.ts";
import { currentCase } from "../core/case-scope.ts";
import type { Authorizer } from "../authorize/index.ts";
import { runTrigger } from "./trigger.ts";
import { profileSecrets } from "../core/credentials-home.ts";
import type { IssuedTokens } from "../core/issued-tokens.ts";
import { jsonSafe } from "./json-safe.ts";

/** A contract problem seen in one case that counts against a rule of another. */
export interface Finding {
  rule: string;
  seenIn: string;
  message: string;
  pointer?: string;
  actual?: unknown;
  curl: string;
}

export interface RunResources {
  profile: Profile;
  baseUrl: string;
  authUrl: string;
  receiver?: Receiver;
  authorizer: Authorizer;
  fetch?: typeof fetch;
  /** Per request (default 10 s). */
  requestTimeoutMs?: number;
  /** The most one answer's body may weigh, decoded (default 8 MB). */
  maxResponseBytes?: number;
  decisions?: Decisions;
  /** Where findings go (the runner's list). */
  findings?: Finding[];
  /** The tokens the target issues during the run, redacted from every result (core/issued-tokens.ts). */
  issued?: IssuedTokens;
}

/** Whether a response keeps a value the profile declared for a decision the schema encodes otherwise. */
function keepsDeclaredValue(p: RuledViolation, decisions: Decisions): boolean {
  if (p.rule === "D-OAUTH-TOKEN-ERROR-STATUS") return p.path === "/status" && p.status === decisions.value("D-OAUTH-TOKEN-ERROR-STATUS");
  if (p.rule === "D-ACTIVITY-ID") return decisions.value("D-ACTIVITY-ID") === "opaque";
  // A recorded `X-Hub-Signature: sha256=…` is what a server that declared sha256 sends (the cases hold it to that).
  if (p.rule === "D-SIGNATURE") return decisions.value("D-SIGNATURE") === "sha256" && /^sha256=[0-9a-f]{64}$/.test(String(p.actual));
  return false;
}

export function contractJudge(caseId: string, caseRules: readonly string[], decisions: Decisions, findings: Finding[] | undefined): ContractJudge {
  return (problems, exchange) => {
    const live = problems.filter((p) => decisions.on(p.rule) && !keepsDeclaredValue(p, decisions));
    const own = live.filter((p) => caseRules.includes(p.rule));
    const curl = curlOf(exchange);
    const seen = new Set<string>();
    for (const p of live) {
      if (caseRules.includes(p.rule) || seen.has(p.rule)) continue;
      seen.add(p.rule);
      // Kept as plain JSON now, as a case's failures are (json-safe.ts): the target's value can be anything, a million deep.
      findings?.push({ rule: p.rule, seenIn: caseId, message: describeProblem(p), pointer: p.path, actual: jsonSafe(p.actual), curl });
    }
    // A case outside any run (no findings list) keeps the old strictness: the first problem fails it.
    if (!findings && live.length > 0) throw contractFailure(own.length > 0 ? own : live);
    const scope = currentCase();
    const fatal = scope ? own.filter((p) => !isDecision(p.rule)) : own;
    if (fatal.length > 0) throw contractFailure(fatal);
    // The case's own decisions: each rule broken here recorded once, with this exchange.
    for (const rule of new Set(own.map((p) => p.rule))) {
      const failure = contractFailure(own.filter((p) => p.rule === rule));
      scope!.record({ message: failure.message, pointer: failure.detail.pointer, actual: failure.detail.actual, rule, sent: exchange });
    }
  };
}

/** `signal` is aborted when the case is over, so requests it left unanswered are dropped. */
export function caseContext(run: RunResources, notes: string[], signal?: AbortSignal, meta: { id: string; rules?: readonly string[] } = { id: "?" }): CaseContext {
  const decisions = run.decisions ?? new Decisions(run.profile.decisions);
  const judge = contractJudge(meta.id, meta.rules ?? [], decisions, run.findings);
  const notImplemented = new Set(run.profile.notImplemented ?? []);
  const http = new HttpClient(run.baseUrl, run.authUrl, run.fetch, { timeoutMs: run.requestTimeoutMs, maxResponseBytes: run.maxResponseBytes, signal, judge, notImplemented, secrets: profileSecrets(run.profile), allowOrigins: run.profile.authorize?.allowOrigins, issued: run.issued });
  return {
    profile: run.profile,
    baseUrl: run.baseUrl,
    authUrl: run.authUrl,
    http,
    receiver: run.receiver,
    decisions,
    rule: (id) => (decisions.on(id) ? checksFor(id) : uncheckedFor(id)),
    trigger: (event, params) => runTrigger(event, params, { profile: run.profile, baseUrl: run.baseUrl, fetch: run.fetch, http }),
    authorize: (query, options) => run.authorizer.authorize(query, { ...options, http }),
    skip(reason: string): never {
      throw new SkipCase(reason);
    },
    note(text: string) {
      notes.push(text);
    },
  };
}
