/**
 * The fast-check arbitraries of bad values, by what they replace: a path segment, a query value,
 * a property of a JSON body, a credential. They are written to be harmless on a live target:
 * a bad path value never reads (by any lenient parser: parseInt, Number, int()) as a small
 * positive integer — so a DELETE can never reach a real hook or authorization — and never
 * contains `/`, `\` or a dot segment that would move the request to another path. Raw values
 * (`raw: true`) go into the URL as they are (broken percent-encoding); the others are encoded.
 */
import fc from "fast-check";
import type { Schema } from "./operations.ts";

export interface PathValue {
  value: string;
  /** Put into the URL without encoding. */
  raw?: boolean;
}

/** Characters that no identifier of the service contains, each making a value unusable as a name. */
const NASTY = ["\u0000", "%", " ", '"', "'", "<", ">", "\u202e", "é", "😀", "\u0007", "?", "#", ";", "\ufeff", "\u0085", "{", "`"];

/** Percent-encoding that does not decode (or decodes to invalid UTF-8). */
const BROKEN_ENCODING = ["%", "%zz", "%E0%A4%A", "%C0%AF", "%FF%FE", "%ED%A0%80", "%00"];

/** Could move the request to another path once normalized, or read as a number. */
function unsafe(value: string): boolean {
  return value.includes("/") || value.includes("\\") || value.includes("..") || /^\.*$/.test(value);
}

const nastyString: fc.Arbitrary<string> = fc
  .tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...NASTY), fc.string({ unit: "grapheme", maxLength: 8 }))
  .map(([before, c, after]) => `${before}${c}${after}`);

const unicodeString: fc.Arbitrary<string> = fc.string({ unit: "grapheme", minLength: 1, maxLength: 24 }).filter((s) => /[^\x20-\x7e]/.test(s));

/** Long enough for any name column, or past a server's path parameter limit. */
const longString: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 256, max: 2000 }).map((n) => "robustness-".padEnd(n, "x")),
  fc.integer({ min: 2049, max: 6000 }).map((n) => "robustness-".padEnd(n, "y")),
);

/** A bad value for a string path parameter (a name, a client id, a token). */
export const badPathString: fc.Arbitrary<PathValue> = fc.oneof(
  nastyString.filter((s) => !unsafe(s)).map((value) => ({ value })),
  unicodeString.filter((s) => !unsafe(s)).map((value) => ({ value })),
  longString.map((value) => ({ value })),
  fc.constantFrom(...BROKEN_ENCODING).map((value) => ({ value, raw: true })),
);

/**
 * A bad value for an integer path parameter (an id). Values out of range of 32 and 64-bit
 * columns are valid integers naming nothing: the answer must still be a 4xx, not a database error.
 */
export const badPathInteger: fc.Arbitrary<PathValue> = fc.oneof(
  fc.constantFrom("0", "-1", "-0", "abc", "null", "NaN", "Infinity", "true", "[]", "0.5", "-2147483649").map((value) => ({ value })),
  fc.integer({ min: -1_000_000_000, max: -1 }).map((n) => ({ value: String(n) })),
  fc.constantFrom("2147483648", "4294967296", "9007199254740993", "9223372036854775808", "18446744073709551616").map((value) => ({ value })),
  fc.bigInt({ min: 10n ** 20n, max: 10n ** 40n }).map((n) => ({ value: n.toString() })),
  // A letter first: no parser reads a leading number out of it.
  fc.tuple(fc.constantFrom("a", "x", "z", "_", "~"), fc.string({ maxLength: 10 })).map(([a, b]) => a + b).filter((s) => !unsafe(s)).map((value) => ({ value })),
  nastyString.map((s) => `x${s}`).filter((s) => !unsafe(s)).map((value) => ({ value })),
  fc.constantFrom(...BROKEN_ENCODING).map((value) => ({ value: `x${value}`, raw: true })),
);

export function badPathValue(schema: Schema): fc.Arbitrary<PathValue> {
  return schema.type === "integer" || schema.type === "number" ? badPathInteger : badPathString;
}

/** A query value: one string, several (the key repeated), or absent. */
export type QueryValue = string | string[] | undefined;

/** A bad value for a query parameter of `schema` (page=0, 11, -1, "abc", 1e9, repeated…). */
export function badQueryValue(schema: Schema): fc.Arbitrary<QueryValue> {
  if (schema.type === "integer" || schema.type === "number") {
    const max = typeof schema.maximum === "number" ? schema.maximum : undefined;
    const min = typeof schema.minimum === "number" ? schema.minimum : undefined;
    const beyond: fc.Arbitrary<string>[] = [];
    if (max !== undefined) beyond.push(fc.constant(String(max + 1)), fc.integer({ min: max + 1, max: max + 1_000_000 }).map(String));
    if (min !== undefined) beyond.push(fc.constant(String(min - 1)), fc.integer({ min: min - 1_000_000, max: min - 1 }).map(String));
    return fc.oneof(
      fc.constantFrom("0", "-1", "abc", "1.5", "", "1e9", "1e400", "NaN", "true", "0x10", "999999999999999999999", "\u0000", "١"),
      ...beyond,
      fc.tuple(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 10 })).map(([a, b]) => [String(a), String(b)]),
      fc.string({ maxLength: 16 }),
      nastyString,
    );
  }
  return fc.oneof(fc.constant(undefined), fc.constant(""), nastyString, unicodeString, longString, fc.array(fc.string({ maxLength: 8 }), { minLength: 2, maxLength: 3 }));
}

/** A JSON value of another type than `schema` declares (any type when it declares none). */
export function wrongTypeValue(schema: Schema): fc.Arbitrary<unknown> {
  const declared = new Set<string>([schema.type].flat().filter((t): t is string => typeof t === "string"));
  if (declared.has("number")) declared.add("integer");
  const candidates: [string, fc.Arbitrary<unknown>][] = [
    ["integer", fc.integer()],
    ["number", fc.double({ noNaN: true, noDefaultInfinity: true })],
    ["boolean", fc.boolean()],
    ["null", fc.constant(null)],
    ["string", fc.oneof(fc.string({ maxLength: 20 }), unicodeString)],
    ["array", fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null)), { maxLength: 4 })],
    ["object", fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 6 })), { maxKeys: 3 })],
  ];
  const others = candidates.filter(([t]) => !declared.has(t)).map(([, a]) => a);
  return fc.oneof(...others);
}

/** Garbage where an OAuth token goes: never a real token. */
export const badToken: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_.~+=-]{1,60}$/).map((s) => `robustness${s}`),
  fc.integer({ min: 1000, max: 8000 }).map((n) => "t".repeat(n)),
  fc.constantFrom("robustness 0000", "robustness\tx", "null", "undefined", "robustness-é"),
);

/** Garbage where `Authorization: Basic …` goes; a user name, when there is one, names nobody. */
export const badBasic: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("!!!not-base64!!!", "", "=", "Og==", "cm9idXN0bmVzcw==", "robustness"),
  fc.stringMatching(/^[a-z0-9]{1,12}$/).map((s) => Buffer.from(`robustness-nobody-${s}:wrong-password`).toString("base64")),
);
