/**
 * How a case says what went wrong: `CaseFailure` carries expected vs actual, the JSON pointer and
 * the rule the failed assertion belongs to, which the reporters print beside the curl line of the
 * request that showed it. `SkipCase` is a need the target cannot meet. `check` helpers throw
 * CaseFailure; they are all a case uses, so every failure reads the same way.
 *
 * A case may enforce several rules; `ctx.rule(id)` gives the same helpers for one of them (a
 * failure then counts against that rule only, and a decision the profile switches off makes them
 * no-ops). A plain `check` failure counts against the case's first rule.
 */
import { isDeepStrictEqual } from "node:util";

export interface FailureInfo {
  expected?: unknown;
  actual?: unknown;
  pointer?: string;
  /** The rule (`S-…` or `D-…`) the failed assertion belongs to; default: the case's first rule. */
  rule?: string;
}

export class CaseFailure extends Error {
  override name = "CaseFailure";
  constructor(
    message: string,
    readonly detail: FailureInfo = {},
  ) {
    super(message);
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
 * The helpers of one rule (`ctx.rule(id)`): `ok` does not narrow, since for a decision switched
 * off it asserts nothing.
 */
export type RuleChecks = Omit<Checks, "ok"> & { ok(condition: unknown, message: string, detail?: Detail): void };

/** The helpers, their failures counted against `rule` (undefined: the case's first rule). */
export function checksFor(rule?: string): Checks {
  const failure = (message: string, detail: Detail) => new CaseFailure(message, rule ? { ...detail, rule } : detail);
  return {
    equal(actual, expected, message, pointer) {
      if (!isDeepStrictEqual(actual, expected)) throw failure(message, { expected, actual, pointer });
    },
    notEqual(actual, unexpected, message, pointer) {
      if (isDeepStrictEqual(actual, unexpected)) throw failure(message, { expected: `anything but ${JSON.stringify(unexpected)}`, actual, pointer });
    },
    ok(condition, message, detail = {}) {
      if (!condition) throw failure(message, detail);
    },
    status(actual, expected, message = "status") {
      const allowed = typeof expected === "number" ? [expected] : expected;
      if (!allowed.includes(actual)) throw failure(message, { expected: allowed.length === 1 ? allowed[0] : allowed, actual, pointer: "/status" });
    },
    matches(actual, pattern, message, pointer) {
      if (actual === null || actual === undefined || !pattern.test(actual)) throw failure(message, { expected: String(pattern), actual, pointer });
    },
    fail(message, detail = {}) {
      throw failure(message, detail);
    },
  };
}

/**
 * The helpers of a decision the profile switches off: nothing is asserted. `ok` does not narrow
 * then, so a case must not rely on it for types (`fail` still ends the case: code after it would
 * run on a premise the target does not keep, so it is reported as not checked).
 */
export function uncheckedFor(rule: string): RuleChecks {
  const nothing = () => undefined;
  return {
    equal: nothing,
    notEqual: nothing,
    ok: nothing,
    status: nothing,
    matches: nothing,
    fail(message: string): never {
      throw new SkipCase(`not checked: ${rule} is switched off in the profile (${message})`);
    },
  };
}

/** Typed explicitly so `check.ok` can narrow (TS2775: assertion calls need a declared type). */
export const check: Checks = checksFor();
