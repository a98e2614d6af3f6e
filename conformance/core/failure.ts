/**
 * How a case says what went wrong: `CaseFailure` carries expected vs actual and the JSON pointer,
 * which the reporters print beside the curl line of the request that showed it. `SkipCase` is a
 * need the target cannot meet. `check` helpers throw CaseFailure; they are all a case uses, so
 * every failure reads the same way.
 */
import { isDeepStrictEqual } from "node:util";

export class CaseFailure extends Error {
  override name = "CaseFailure";
  constructor(
    message: string,
    readonly detail: { expected?: unknown; actual?: unknown; pointer?: string } = {},
  ) {
    super(message);
  }
}

export class SkipCase extends Error {
  override name = "SkipCase";
}

const checks = {
  /** `actual === expected` (deep for objects). */
  equal(actual: unknown, expected: unknown, message: string, pointer?: string): void {
    if (!isDeepStrictEqual(actual, expected)) throw new CaseFailure(message, { expected, actual, pointer });
  },
  notEqual(actual: unknown, unexpected: unknown, message: string, pointer?: string): void {
    if (isDeepStrictEqual(actual, unexpected)) throw new CaseFailure(message, { expected: `anything but ${JSON.stringify(unexpected)}`, actual, pointer });
  },
  ok(condition: unknown, message: string, detail: { expected?: unknown; actual?: unknown; pointer?: string } = {}): asserts condition {
    if (!condition) throw new CaseFailure(message, detail);
  },
  status(actual: number, expected: number | readonly number[], message = "status"): void {
    const allowed = typeof expected === "number" ? [expected] : expected;
    if (!allowed.includes(actual)) throw new CaseFailure(message, { expected: allowed.length === 1 ? allowed[0] : allowed, actual, pointer: "/status" });
  },
  matches(actual: string | null | undefined, pattern: RegExp, message: string, pointer?: string): void {
    if (actual === null || actual === undefined || !pattern.test(actual)) throw new CaseFailure(message, { expected: String(pattern), actual, pointer });
  },
  fail(message: string, detail: { expected?: unknown; actual?: unknown; pointer?: string } = {}): never {
    throw new CaseFailure(message, detail);
  },
};

/** Typed explicitly so `check.ok` can narrow (TS2775: assertion calls need a declared type). */
export const check: typeof checks = checks;
