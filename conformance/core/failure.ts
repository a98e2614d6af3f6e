/**
 * How a case says what went wrong: `CaseFailure` carries expected vs actual, the JSON pointer and
 * the rule the failed assertion belongs to, which the reporters print beside the curl line of the
 * request that showed it. `SkipCase` is a need the target cannot meet. `check` helpers throw
 * CaseFailure; they are all a case uses, so every failure reads the same way.
 *
 * A case may enforce several rules; `ctx.rule(id)` gives the same helpers for one of them (a
 * failure then counts against that rule only, and a decision the profile switches off makes them
 * no-ops). A plain `check` failure counts against the case's first rule.
 *
 * Seed checks (`check.*`, `ctx.rule("S-…")`) are fatal: the first failure ends the case. A
 * decision's (`ctx.rule("D-…")`) is not, in a run: it is recorded with the request that showed it
 * and the case goes on, so one run lists every departure from the contract's choices (the seed
 * assertions beside it still run, as they do with the decision switched off). Each helper of a
 * rule returns whether its assertion held (or was not checked), so a case can stop a branch
 * that needs the premise: `if (!api.status(res.status, 201, "…")) return;`.
 */
import { isDeepStrictEqual } from "node:util";
import { currentCase, type SentSnapshot } from "./case-scope.ts";
import { isDecision } from "./decisions.ts";

export interface FailureInfo {
  expected?: unknown;
  actual?: unknown;
  pointer?: string;
  /** The rule (`S-…` or `D-…`) the failed assertion belongs to; default: the case's first rule. */
  rule?: string;
}

export class CaseFailure extends Error {
  override name = "CaseFailure";
  /**
   * The case's last request when the failure was made: the one that showed it. The runner prints
   * this one's curl line, not whatever the case sent after (a clean-up DELETE in a `finally`).
   */
  readonly sent: SentSnapshot | undefined;
  constructor(
    message: string,
    readonly detail: FailureInfo = {},
  ) {
    super(message);
    this.sent = currentCase()?.lastSent();
  }
}

export class SkipCase extends Error {
  override name = "SkipCase";
}

type Detail = Omit<FailureInfo, "rule">;

export interface Checks {
  /** `actual === expected` (deep for objects). */
  equal(actual: unknown, expected: unknown, message: string, pointer?: string): void;
  notEqual(actual: unknown, unexpected: unknown, message: string, pointer?: string): void;
  ok(condition: unknown, message: string, detail?: Detail): asserts condition;
  status(actual: number, expected: number | readonly number[], message?: string): void;
  matches(actual: string | null | undefined, pattern: RegExp, message: string, pointer?: string): void;
  fail(message: string, detail?: Detail): never;
}

/**
 * The helpers of one rule (`ctx.rule(id)`): each returns whether its assertion held — false only
 * for a decision's failure, recorded while the case goes on. `ok` does not narrow, since for a
 * decision it may not hold. `fail` is typed `never` so the helpers fit `Checks`, but for a
 * decision in a run it records and returns: code after it runs (it must not rely on the premise;
 * every `fail` of a decision in the cases is an assertion with nothing depending on it).
 */
export type RuleChecks = {
  [K in Exclude<keyof Checks, "fail">]: (...args: Parameters<Checks[K]>) => boolean;
} & { fail(message: string, detail?: Detail): never };

/**
 * The helpers, their failures counted against `rule` (undefined: the case's first rule). A
 * failure throws, but a decision's inside a run (case-scope.ts) is recorded and the helper
 * returns false: the case goes on.
 */
export function checksFor(rule?: string): Checks & RuleChecks {
  const nonFatal = rule !== undefined && isDecision(rule);
  const failed = (message: string, detail: Detail): false => {
    const failure = new CaseFailure(message, rule ? { ...detail, rule } : detail);
    const scope = currentCase();
    if (!nonFatal || !scope) throw failure;
    scope.record({ message, ...detail, rule: rule!, sent: failure.sent });
    return false;
  };
  const held = (): true => {
    currentCase()?.held(rule);
    return true;
  };
  const helpers = {
    equal: (actual: unknown, expected: unknown, message: string, pointer?: string) => (isDeepStrictEqual(actual, expected) ? held() : failed(message, { expected, actual, pointer })),
    notEqual: (actual: unknown, unexpected: unknown, message: string, pointer?: string) =>
      !isDeepStrictEqual(actual, unexpected) ? held() : failed(message, { expected: `anything but ${JSON.stringify(unexpected)}`, actual, pointer }),
    ok: (condition: unknown, message: string, detail: Detail = {}) => (condition ? held() : failed(message, detail)),
    status(actual: number, expected: number | readonly number[], message = "status") {
      const allowed = typeof expected === "number" ? [expected] : expected;
      return allowed.includes(actual) ? held() : failed(message, { expected: allowed.length === 1 ? allowed[0] : allowed, actual, pointer: "/status" });
    },
    matches: (actual: string | null | undefined, pattern: RegExp, message: string, pointer?: string) =>
      actual !== null && actual !== undefined && pattern.test(actual) ? held() : failed(message, { expected: String(pattern), actual, pointer }),
    fail(message: string, detail: Detail = {}): never {
      return failed(message, detail) as never;
    },
  };
  return helpers as unknown as Checks & RuleChecks;
}

/**
 * The helpers of a decision the profile switches off: nothing is asserted, nothing stops. `fail`
 * returns too — the case goes on to the seed assertions after it, exactly as it does when the
 * decision is on and its assertion fails (a failure recorded), so switching a decision off skips
 * only what that decision owns.
 */
export function uncheckedFor(_rule: string): RuleChecks {
  const nothing = () => true;
  return {
    equal: nothing,
    notEqual: nothing,
    ok: nothing,
    status: nothing,
    matches: nothing,
    fail: (() => undefined) as () => never,
  };
}

/** Typed explicitly so `check.ok` can narrow (TS2775: assertion calls need a declared type). */
export const check: Checks = checksFor();
