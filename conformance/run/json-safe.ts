/**
 * The most of one expected or actual value a result keeps, as JSON text: a failure that read a
 * target's 40 MB answer keeps the beginning of it and says how long it was, so every report stays
 * small and a run against a huge answer still writes them.
 */
export const VALUE_LIMIT = 16 * 1024;
/** Any one string inside a kept value (a long body inside a small object). */
export const STRING_LIMIT = 4 * 1024;

/**
 * The deepest nesting a kept value may have. A target's answer can be nested a million deep in
 * 2 MB; JSON.stringify, JSON.parse's revival and every recursive walk after this one (the
 * secret redactor, the reporters) would exhaust the stack on it. A deeper value is kept as an
 * excerpt of its JSON text, a string; one too deep even to write as JSON, as a one-line note.
 */
export const DEPTH_LIMIT = 64;
const TOO_DEEP = "(a value nested too deeply to write as JSON; not kept)";

/** The deepest nesting of arrays and objects in JSON text: one pass, strings skipped. */
function depthOf(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/** JSON text back to a value, unless it is too deep to walk: then an excerpt of the text. */
function revive(text: string): unknown {
  return depthOf(text) > DEPTH_LIMIT ? cutText(text, VALUE_LIMIT) : (JSON.parse(text) as unknown);
}

/** A string cut to `limit` characters, saying how long it was. */
export function cutText(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}… (an excerpt: the first ${limit} of ${text.length} characters)` : text;
}

/**
 * `value` as a report may keep it: itself when small; long strings inside it cut; and when its
 * JSON is still over VALUE_LIMIT, an excerpt of that JSON as one string, saying its full length.
 */
export function excerpt(value: unknown): unknown {
  if (typeof value === "string") return cutText(value, STRING_LIMIT);
  if (value === null || typeof value !== "object") return value;
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_k, v: unknown) => (typeof v === "string" ? cutText(v, STRING_LIMIT) : typeof v === "bigint" ? v.toString() : v));
  } catch (error) {
    if (error instanceof RangeError) return TOO_DEEP;
    return value; // cyclic and the like: jsonSafe deals with those
  }
  if (text === undefined) return value;
  return text.length > VALUE_LIMIT ? cutText(text, VALUE_LIMIT) : revive(text);
}

/**
 * Expected and actual values come from cases and can be anything — a Buffer of raw webhook bytes,
 * a bigint, a Headers object, a cyclic structure. Results are written as JSON and embedded in
 * reports, so each value is turned into plain JSON once, here, where the result is made.
 */
export function jsonSafe(value: unknown): unknown {
  if (value === undefined) return undefined;
  const seen = new WeakSet<object>();
  let text: string | undefined;
  try {
    text = stringify(value, seen);
  } catch (error) {
    // Too deep for the stack: the value's fault, and a note says so. Anything else is ours.
    if (error instanceof RangeError) return TOO_DEEP;
    throw error;
  }
  if (text === undefined) return excerpt(String(value));
  return excerpt(revive(text));
}

function stringify(value: unknown, seen: WeakSet<object>): string | undefined {
  return JSON.stringify(value, function replacer(_key, v: unknown) {
    if (typeof v === "bigint") return v.toString();
    if (typeof v === "function" || typeof v === "symbol") return String(v);
    if (v instanceof RegExp) return String(v);
    if (v instanceof Error) return `${v.name}: ${v.message}`;
    if (v instanceof Map) return Object.fromEntries(v);
    if (v instanceof Set) return [...v];
    if (typeof Headers !== "undefined" && v instanceof Headers) return Object.fromEntries(v);
    if (v !== null && typeof v === "object" && (v as { type?: unknown }).type === "Buffer" && Array.isArray((v as { data?: unknown }).data)) {
      // Buffer.toJSON already ran: show the bytes as text, which is what a reader wants to see.
      return Buffer.from((v as { data: number[] }).data).toString("utf8");
    }
    if (v !== null && typeof v === "object") {
      if (seen.has(v)) return "[repeated reference]";
      seen.add(v);
    }
    return v;
  });
}
