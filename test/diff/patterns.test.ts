/**
 * Patterns compared by the strings they accept (issue 42), and a stranger's pattern never run
 * with backtracking (issue 41): each comparison below is decided on automata, with a witness
 * string for each difference, and "unknown" only where the language is not regular or past the
 * stated bound. The hostile cases run with a short timeout, so code that backtracks or builds an
 * unbounded automaton fails here rather than hanging the suite.
 */
import { describe, expect, it } from "vitest";
import { comparePatterns, matches, MAX_PATTERN_LENGTH } from "../../diff/patterns.ts";
import { accepts } from "../../diff/values.ts";

describe("comparePatterns: the strings each side accepts", () => {
  it.each([
    ["[0-9]", "\\d"],
    ["^[0-9]+$", "^\\d+$"],
    ["^[0-9a-f]{64}$", "^[a-f0-9]{64}$"],
    ["^(a+)+$", "^a+$"],
    ["^a", "^a.*"],
    ["(?=a)[a-c]", "a"],
  ])("%s and %s accept the same strings: no difference", (b, h) => {
    expect(comparePatterns(b, h)).toEqual({});
  });

  it("a request name that may no longer start with a digit: the old side alone accepts \"0\"", () => {
    const found = comparePatterns("^[a-z0-9][a-z0-9_-]*$", "^[a-z][a-z0-9_-]*$");
    expect(found).toEqual({ onlyBase: expect.any(String) });
    const witness = (found as { onlyBase: string }).onlyBase;
    // The witness is real: the old expression matches it and the new one does not.
    expect(new RegExp("^[a-z0-9][a-z0-9_-]*$", "u").test(witness)).toBe(true);
    expect(new RegExp("^[a-z][a-z0-9_-]*$", "u").test(witness)).toBe(false);
  });

  it("a digest that may now be upper-case: the new side alone accepts a 64-character witness", () => {
    const found = comparePatterns("^[0-9a-f]{64}$", "^[0-9a-fA-F]{64}$") as { onlyHead?: string; onlyBase?: string };
    expect(found.onlyBase).toBeUndefined();
    expect(found.onlyHead).toMatch(/^[0-9a-fA-F]{64}$/);
    expect(found.onlyHead).not.toMatch(/^[0-9a-f]{64}$/);
  });

  it("incomparable patterns: a witness each way", () => {
    const found = comparePatterns("^[a-z]+$", "^[a-z0-9]{2}$") as { onlyHead?: string; onlyBase?: string };
    expect(found.onlyHead).toMatch(/^[a-z0-9]{2}$/);
    expect(found.onlyHead).not.toMatch(/^[a-z]+$/);
    expect(found.onlyBase).toMatch(/^[a-z]+$/);
    expect(found.onlyBase).not.toMatch(/^[a-z0-9]{2}$/);
  });

  it("no pattern is every string: `.*` added is nothing, `x` added refuses \"\"", () => {
    expect(comparePatterns(undefined, ".*")).toEqual({});
    expect(comparePatterns(undefined, "x")).toEqual({ onlyBase: "" });
    expect(comparePatterns("x", undefined)).toEqual({ onlyHead: "" });
  });

  it("a word boundary at the pattern's edge is decided; a backreference and a lookbehind are unknown, with the reason", () => {
    expect(comparePatterns("\\bfoo", "foo")).toEqual({ onlyHead: expect.stringMatching(/\wfoo/) });
    expect(comparePatterns("(a*)b\\1", "ab")).toEqual({ unknown: expect.stringMatching(/backreference/) });
    expect(comparePatterns("a", "(?<=x)a")).toEqual({ unknown: expect.stringMatching(/^head .*lookaround/) });
    expect(comparePatterns("[", "a")).toEqual({ unknown: expect.stringMatching(/not a valid regular expression/) });
  });

  it("a pattern built to blow up the automaton is unknown past the bound, not a hang", { timeout: 5_000 }, () => {
    // Determinizing (a|b)*a(a|b){20} needs 2^21 states; the bound is far below that.
    expect(comparePatterns("^(?:a|b)*a(?:a|b){20}$", "^[ab]+$")).toEqual({ unknown: expect.stringMatching(/exceeds 10000 states/) });
    expect(comparePatterns("a{50000}", "a")).toEqual({ unknown: expect.stringMatching(/exceeds 10000 states/) });
    expect(comparePatterns("a".repeat(MAX_PATTERN_LENGTH + 1), "a")).toEqual({ unknown: expect.stringMatching(/longer than 2000 characters/) });
  });
});

describe("a value against a stranger's pattern (issue 41): decided on the automaton, never by backtracking", () => {
  it("^(a+)+$ against 41 characters answers at once", { timeout: 5_000 }, () => {
    const evil = "a".repeat(40) + "b";
    expect(matches("^(a+)+$", evil)).toBe(false);
    expect(matches("^(a+)+$", "a".repeat(41))).toBe(true);
    expect(accepts({ type: "string", pattern: "^(a+)+$" }, evil)).toBe(false);
    expect(accepts({ type: "string", pattern: "^(a+)+$" }, "a".repeat(41))).toBe(true);
  });

  it("a pattern with no automaton leaves the value undecided, with the reason; pattern applies to strings only", () => {
    expect(accepts({ pattern: "^(a*)b\\1$" }, "aba")).toMatch(/backreference/);
    expect(accepts({ type: ["string", "integer"], pattern: "^a$" }, 3)).toBe(true);
    expect(accepts({ type: "string", pattern: "^a$" }, 3)).toBe(false);
  });
});
