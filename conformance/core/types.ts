/**
 * The conformance suite's vocabulary. A case is a stable ID (`AREA-TOPIC-NNN`), a one-line
 * title, the seed section it enforces, what it needs from the profile, and a `run` that talks to
 * the target over HTTP through `CaseContext`. Cases register in a table per area
 * (conformance/cases/<area>/index.ts); the runner (conformance/run/) selects, runs and reports.
 */
import type { TriggerMade } from "../run/trigger-made.ts";
import type { Profile } from "./profile.ts";
import type { HttpClient } from "./http.ts";
import type { Receiver } from "./receiver.ts";
import type { RuleChecks } from "./failure.ts";
import type { Decisions } from "./decisions.ts";

export type Area = "contract" | "oauth" | "feeds" | "issue-events" | "hooks" | "webhooks" | "robustness" | "receiver" | "oauth-client";

/** What a case needs the profile (or the run) to provide; unmet needs skip the case with a reason. */
export type Need =
  | "user" // profile.users[0] with a token (scopes as listed in the profile)
  | "second-user" // profile.users[1], a user without access to the private repository
  | "app" // profile.app: client id, secret, callback URL
  | "authorize" // a way through the authorize page (browser or form driver)
  | "org" // profile.org
  | "public-repo"
  | "private-repo"
  | "issue" // profile.issue: a number in the public repository
  | "trigger" // profile.triggers: a way to make events happen
  | "receiver" // the built-in webhook receiver, reachable from the target
  | "hook-admin" // users[0] administers the public repository (may create hooks)
  | "basic" // users[0]'s password, for the non-web flow's Basic authentication
  | "other-app" // profile.otherApp: a second application's credentials
  | "two-factor" // profile.twoFactor: a two-factor user and its TOTP secret
  | "service-hook"; // profile.serviceHook: where a service hook may be installed, and which

export interface CaseMeta {
  /** Stable: `OAUTH-REDIRECT-004`. Never renumber; retire instead. */
  id: string;
  title: string;
  area: Area;
  /** The seed section enforced, e.g. "Web application flow › Redirect URLs". */
  seed: string;
  /**
   * The IDs of the rules the case enforces: `S-…` from spec/seed-rules.yaml, `D-…` from
   * spec/DECISIONS.md. Every registered case names at least one (test/conformance/rule-table.test.ts);
   * the rule table (conformance/rules) is built from these. Optional for a user's own cases.
   */
  rules?: readonly string[];
  needs?: readonly Need[];
  /**
   * The least time the case needs, whatever `--case-timeout` says: a case that must wait for the
   * target's clock (a fresh two-factor time step, 30 s each) would otherwise fail on time, and
   * its clean-up be cut off, for a reason that is not the target's.
   */
  minTimeoutMs?: number;
}

export interface Case extends CaseMeta {
  run(ctx: CaseContext): Promise<void>;
}

/** A case made by a factory before its rules are declared (`withRules`). */
export type CaseDraft = Case;

/**
 * Declares the rules of factory-made cases in one table beside them, keyed by case ID; a case
 * missing from the table keeps no rule, which the rule-table test reports.
 */
export function withRules(table: Readonly<Record<string, readonly string[]>>, drafts: readonly CaseDraft[]): Case[] {
  return drafts.map((c) => ({ ...c, rules: c.rules ?? table[c.id] ?? [] }));
}

export interface CaseContext {
  profile: Profile;
  /** Target API host and web host (OAuth pages, token exchange), no trailing slash. */
  baseUrl: string;
  authUrl: string;
  /** Every request a case makes goes through this: recorded (for the curl line) and validated. */
  http: HttpClient;
  /** The built-in webhook receiver, when the run has one. */
  receiver?: Receiver;
  /** Make `event` happen on the target as the profile describes (throws SkipCase when it cannot); what the target says it made. */
  trigger(event: string, params?: Record<string, string>): Promise<TriggerMade>;
  /**
   * Through the authorize page as users[0]: the final redirect Location to the callback. The
   * consent page's approve button is pressed unless `options.decision` is `deny`.
   */
  authorize(query: Record<string, string>, options?: { decision?: "approve" | "deny" }): Promise<URL>;
  /** The profile's `decisions`: which of the contract's choices the target keeps, and declared values. */
  decisions: Decisions;
  /**
   * The check helpers for one rule of the case: a failure counts against that rule, and when
   * the rule is a decision the profile switches off they assert nothing.
   */
  rule(id: string): RuleChecks;
  /** Skip this case with a reason (a need the target cannot meet, discovered while running). */
  skip(reason: string): never;
  /** Free-form notes shown with the result. */
  note(text: string): void;
}

export type Status = "passed" | "failed" | "skipped";

export interface FailureDetail {
  message: string;
  expected?: unknown;
  actual?: unknown;
  /** JSON pointer into the response (or the exchange) where it went wrong. */
  pointer?: string;
  /** A curl command reproducing the request that showed the failure (the case's last one when the failure was made). */
  curl?: string;
  /** The rule the failure counts against (the assertion's, else the case's first rule). */
  rule?: string;
  /** For a failure found in another case's exchange: that case. */
  seenIn?: string;
  /** The case stopped here (a seed check, an unexpected error, a time-out); what followed was not checked. A decision's failure is recorded and the case goes on. */
  fatal?: boolean;
}

export interface CaseResult extends CaseMeta {
  status: Status;
  durationMs: number;
  /** Why it was skipped. */
  reason?: string;
  /** The first failure (of `failures`). */
  failure?: FailureDetail;
  /** Every failure of a failed case, in order: the decisions it recorded and went on past, and the one that stopped it, if any. */
  failures?: FailureDetail[];
  /**
   * The rules this case showed held: all of them when it passed; when a decision's failure or a
   * decision switched off cut into it, those the case checked to its end (or whose assertions ran
   * before it stopped at the switched-off one) and that did not fail. Absent: derive from status.
   */
  passedRules?: string[];
  notes: string[];
}

/** How a rule fared in a run: `off` is a decision the profile switched off, `unchecked` one no case got to check. */
export type RuleStatus = "passed" | "failed" | "off" | "unchecked";

export interface RuleResult {
  id: string;
  /** `seed` for `S-` rules (the seed's own), `contract` for `D-` rules (the contract's decisions). */
  level: "seed" | "contract";
  status: RuleStatus;
  /** The selected cases that name the rule. */
  cases: string[];
  /** What failed it: the case, its message, and where a response broke it if another case read it. */
  failures: { case: string; message: string; seenIn?: string }[];
}

export interface LevelCounts {
  passed: number;
  failed: number;
  off: number;
  unchecked: number;
}

export interface RunSummary {
  target: { baseUrl: string; authUrl: string };
  startedAt: string;
  durationMs: number;
  results: CaseResult[];
  counts: Record<Status, number>;
  /** Rule by rule (summarize fills it; reporters derive it from `results` when absent): every rule a selected case names, and every rule a response was found to break. */
  rules?: RuleResult[];
  /** Seed conformance (`S-` rules) and contract conformance (`D-` rules), counted apart. */
  levels?: { seed: LevelCounts; contract: LevelCounts };
  /** The profile's switched-off decisions and declared values. */
  decisions?: { off: string[]; declared: Record<string, unknown> };
  /** The `decisions:` block that would make the contract level pass (run/suggest.ts), for a team to review. */
  suggestedDecisions?: SuggestedDecisions;
  /** How the cases were ordered: the seed of `--shuffle`, to run the same order again. */
  order?: { shuffle: number };
}

export interface SuggestedDecisions {
  /** The YAML block to paste into the profile, each new line with its evidence. */
  yaml: string;
  /** The same, one entry per decision: what the profile already says, and what this run suggests. */
  entries: { id: string; setting: unknown; source: "profile" | "suggested"; evidence?: { case: string; message: string } }[];
}
