/**
 * Issue 41: a value a target made deep is kept without a stack overflow. A 2 MB answer nested a
 * million deep ended the run with exit 4 (a RangeError out of JSON.stringify here, or out of the
 * recursive walks after it); now it is a one-line note, and a value deeper than DEPTH_LIMIT is
 * kept as an excerpt of its JSON text, which no later walk has to descend.
 */
import { describe, expect, it } from "vitest";
import { DEPTH_LIMIT, excerpt, jsonSafe } from "../../conformance/run/json-safe.ts";

const nested = (depth: number): unknown => JSON.parse("[".repeat(depth) + "]".repeat(depth));

describe("jsonSafe and excerpt on deep values", () => {
  it("a million deep: a one-line note, not a RangeError", () => {
    const deep = nested(1_000_000);
    expect(jsonSafe(deep)).toBe("(a value nested too deeply to write as JSON; not kept)");
    expect(excerpt(deep)).toBe("(a value nested too deeply to write as JSON; not kept)");
    expect(jsonSafe({ body: deep })).toMatch(/^\(a value nested too deeply/);
  });

  it("deeper than DEPTH_LIMIT: its JSON text, a string", () => {
    const depth = DEPTH_LIMIT + 1;
    expect(jsonSafe(nested(depth))).toBe("[".repeat(depth) + "]".repeat(depth));
  });

  it("within DEPTH_LIMIT: the value itself, brackets inside strings not counted", () => {
    expect(jsonSafe(nested(DEPTH_LIMIT))).toEqual(nested(DEPTH_LIMIT));
    const text = { a: "[".repeat(500) };
    expect(jsonSafe(text)).toEqual(text);
  });
});
