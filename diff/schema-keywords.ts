/**
 * The keywords of a schema that hold no subschema — type, enum and const, bounds, pattern and
 * format, uniqueItems, default, deprecated — each compared with its own rule: which way a change
 * moves the set of values a writer may send (see change.ts for whom that breaks).
 */
import { isObject, type Json, type JsonObject } from "./documents.ts";
import type { Effect } from "./change.ts";
import { accepts, VALUE_KEYWORDS } from "./values.ts";
import { compareLanguages, type Regex } from "./patterns.ts";
import { formatRegex } from "./format-languages.ts";

const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"];
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"];
/**
 * Keywords that only narrow when added and only widen when removed. Replaced by another value:
 * a format or media type by another admits other values (both sides); a `pattern` is compared
 * by the strings it accepts (patterns.ts: equal, wider, narrower or both, with a string that
 * shows it; "unknown" only where that cannot be decided); `multipleOf` is decided by divisibility.
 */
const RESTRICTIONS = ["pattern", "format", "multipleOf", "contentMediaType", "contentEncoding"];
/** Every keyword compareLeaves looks at. */
export const LEAF_KEYWORDS = [...LOWER_BOUNDS, ...UPPER_BOUNDS, ...RESTRICTIONS, "type", "enum", "const", "uniqueItems", "nullable", "default", "deprecated", "readOnly", "writeOnly", "discriminator"];

/** `requestEffect`: the effect when the schema is part of a request, where it differs; `reason`: why an `unknown` one cannot be decided. */
export type Add = (kind: string, effect: Effect, message: string, requestEffect?: Effect, reason?: string) => void;

/** Canonical JSON (sorted keys), for comparing values such as enum members. */
export function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

function show(value: Json): string {
  return typeof value === "string" ? quote(value) : canonical(value);
}

/** A string as a JSON literal with everything outside printable ASCII escaped: a witness made from a stranger's pattern reaches a terminal inert. */
export function quote(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

export function compareLeaves(b: JsonObject, h: JsonObject, add: Add): void {
  if (valueSet(b) !== undefined || valueSet(h) !== undefined) {
    // One side is a finite list of values: decided value by value, whatever keywords the other uses.
    compareFinite(b, h, add);
  } else {
    compareTypes(b, h, add);
    for (const kw of LOWER_BOUNDS) compareBound(kw, b[kw], h[kw], "narrow", add);
    for (const kw of UPPER_BOUNDS) compareBound(kw, b[kw], h[kw], "widen", add);
    // Pattern and format together, as the strings they accept, where both are regular languages.
    const strings = stringLanguages(b, h);
    if (strings) compareStrings(b, h, strings, add);
    for (const kw of RESTRICTIONS) {
      if (canonical(b[kw]) === canonical(h[kw])) continue;
      if (strings && (kw === "pattern" || (kw === "format" && strings.withFormat))) continue;
      if (b[kw] === undefined) add(`${kw}-added`, "narrow", `${kw} ${show(h[kw])} added`);
      else if (h[kw] === undefined) add(`${kw}-removed`, "widen", `${kw} ${show(b[kw])} removed`);
      else if (kw === "multipleOf" && typeof b[kw] === "number" && typeof h[kw] === "number") add("multipleOf-changed", multipleEffect(b[kw] as number, h[kw] as number), `multipleOf changed from ${show(b[kw])} to ${show(h[kw])}`);
      else add(`${kw}-changed`, "both", `${kw} changed from ${show(b[kw])} to ${show(h[kw])}`);
    }
    if (Boolean(b.uniqueItems) !== Boolean(h.uniqueItems)) {
      add("unique-items-changed", h.uniqueItems ? "narrow" : "widen", h.uniqueItems ? "items must now be unique" : "items need no longer be unique");
    }
  }
  if (Boolean(b.nullable) !== Boolean(h.nullable)) add("nullable-changed", h.nullable ? "widen" : "narrow", h.nullable ? "null is now allowed" : "null is no longer allowed");
  if (canonical(b.default) !== canonical(h.default)) {
    // For a request, an omitted field now means something else: that is the client's (see change.ts).
    add("default-changed", "none", b.default === undefined ? `default ${show(h.default)} added` : h.default === undefined ? `default ${show(b.default)} removed` : `default changed from ${show(b.default)} to ${show(h.default)}`, "narrow");
  }
  for (const kw of ["deprecated", "readOnly", "writeOnly"]) {
    if (Boolean(b[kw]) !== Boolean(h[kw])) add(`${kw}-changed`, "none", h[kw] ? `now ${kw}` : `no longer ${kw}`);
  }
  const bDisc = isObject(b.discriminator) ? b.discriminator.propertyName : undefined;
  const hDisc = isObject(h.discriminator) ? h.discriminator.propertyName : undefined;
  // A discriminator only added or dropped is a hint to tools, not a change of what is valid: the
  // contract's files carry none and our tools infer it from the variants' `type` constants
  // (generators/discriminators.ts), so the source and its bundle differ only there. A renamed
  // property is a change.
  if (bDisc !== undefined && hDisc !== undefined && bDisc !== hDisc) add("discriminator-changed", "both", `discriminator property changed from ${show(bDisc)} to ${show(hDisc)}`);
}

interface StringLanguages {
  base: Regex[];
  head: Regex[];
  /** Whether the formats are part of the languages (both regular) rather than compared keyword by keyword. */
  withFormat: boolean;
}

/**
 * Each side's pattern, with its format's expression where the format is one (format-languages.ts),
 * when the pattern or a regular format changed; undefined when neither did, or a pattern is no string.
 */
function stringLanguages(b: JsonObject, h: JsonObject): StringLanguages | undefined {
  const patternOk = (p: Json) => p === undefined || typeof p === "string";
  if (!patternOk(b.pattern) || !patternOk(h.pattern)) return undefined;
  const formatOf = (f: Json) => (typeof f === "string" ? formatRegex(f) : undefined);
  const formatRegular = (f: Json) => f === undefined || formatOf(f) !== undefined;
  const withFormat = formatRegular(b.format) && formatRegular(h.format);
  const patternChanged = b.pattern !== h.pattern;
  const formatChanged = canonical(b.format) !== canonical(h.format);
  if (!patternChanged && !(withFormat && formatChanged)) return undefined;
  const side = (s: JsonObject): Regex[] => [
    ...(typeof s.pattern === "string" ? [{ source: s.pattern, flags: "u" }] : []),
    ...(withFormat && typeof s.format === "string" ? [formatOf(s.format)!] : []),
  ];
  return { base: side(b), head: side(h), withFormat };
}

/**
 * A pattern (or a regular format) added, removed or replaced, judged by the strings each side
 * accepts (neither: every string), with a string that shows each difference: a pattern added
 * that accepts everything, a rewrite into the same language (`[0-9]` → `\d`), or a format
 * replaced by a pattern of the same strings, is no change.
 */
function compareStrings(b: JsonObject, h: JsonObject, langs: StringLanguages, add: Add): void {
  const parts: string[] = [];
  if (b.pattern !== h.pattern) parts.push(b.pattern === undefined ? `pattern ${show(h.pattern)} added` : h.pattern === undefined ? `pattern ${show(b.pattern)} removed` : `pattern changed from ${show(b.pattern)} to ${show(h.pattern)}`);
  const formatChanged = langs.withFormat && canonical(b.format) !== canonical(h.format);
  if (formatChanged) parts.push(b.format === undefined ? `format ${show(h.format)} added` : h.format === undefined ? `format ${show(b.format)} removed` : `format changed from ${show(b.format)} to ${show(h.format)}`);
  const kw = b.pattern !== h.pattern ? "pattern" : "format";
  const [bv, hv] = [b[kw], h[kw]];
  const kind = bv === undefined ? `${kw}-added` : hv === undefined ? `${kw}-removed` : `${kw}-changed`;
  const unchangedFormat = !formatChanged && langs.withFormat && typeof h.format === "string" ? ` (with format ${show(h.format)})` : "";
  const what = parts.join(" and ") + unchangedFormat;
  const found = compareLanguages(langs.base, langs.head);
  if ("unknown" in found) return add(kind, "unknown", `${what}: compatibility unknown, ${found.unknown}`, undefined, found.unknown);
  const { onlyHead, onlyBase } = found;
  if (onlyHead !== undefined && onlyBase !== undefined) add(kind, "both", `${what}: neither accepts all the other does (${quote(onlyHead)} only now, ${quote(onlyBase)} only before)`);
  else if (onlyHead !== undefined) add(kind, "widen", `${what}: it accepts more (${quote(onlyHead)}, refused before)`);
  else if (onlyBase !== undefined) add(kind, "narrow", `${what}: it accepts less (${quote(onlyBase)}, accepted before, is now refused)`);
}

function compareTypes(b: JsonObject, h: JsonObject, add: Add): void {
  const bt = typeSet(b.type);
  const ht = typeSet(h.type);
  if (bt === undefined && ht === undefined) return;
  if (bt === undefined) return add("type-narrowed", "narrow", `type restricted to ${[...ht!].join(", ")}`);
  if (ht === undefined) return add("type-widened", "widen", `type restriction ${[...bt].join(", ")} removed`);
  const wider = [...bt].every((t) => covers(ht, t));
  const narrower = [...ht].every((t) => covers(bt, t));
  if (wider && narrower) return;
  const from = [...bt].join(", ");
  const to = [...ht].join(", ");
  if (wider) add("type-widened", "widen", `type widened from ${from} to ${to}`);
  else if (narrower) add("type-narrowed", "narrow", `type narrowed from ${from} to ${to}`);
  else add("type-changed", "both", `type changed from ${from} to ${to}`);
}

/** `multipleOf` b → h: every multiple of h is one of b when h is a multiple of b (fewer values). */
function multipleEffect(b: number, h: number): Effect {
  const isMultiple = (x: number, of: number) => Math.abs(x / of - Math.round(x / of)) < 1e-9;
  if (isMultiple(h, b)) return "narrow";
  if (isMultiple(b, h)) return "widen";
  return "both";
}

/**
 * At least one side is a finite set (`enum`, `const`). Its values that its own other keywords
 * refuse are dropped, then each is asked of the other side's keywords: inclusion is decided
 * exactly, so an enum replaced by a pattern all its values match is a widening, not a widening
 * plus a narrowing.
 */
function compareFinite(b: JsonObject, h: JsonObject, add: Add): void {
  // The common case, the same list on both sides: nothing to ask Ajv.
  if (VALUE_KEYWORDS.every((k) => b[k] === h[k] || canonical(b[k]) === canonical(h[k]))) return;
  const own = (schema: JsonObject) => {
    const values = [...(valueSet(schema) ?? new Map()).entries()].filter(([, v]) => accepts(schema, v.value) !== false);
    return new Map(values);
  };
  const list = (values: { shown: string }[]) => values.map((v) => v.shown).join(", ");
  const bv = valueSet(b) === undefined ? undefined : own(b);
  const hv = valueSet(h) === undefined ? undefined : own(h);
  if (bv && hv) {
    const added = [...hv.keys()].filter((k) => !bv.has(k)).map((k) => hv.get(k)!);
    const removed = [...bv.keys()].filter((k) => !hv.has(k)).map((k) => bv.get(k)!);
    if (added.length > 0) add("enum-value-added", "widen", `value${added.length > 1 ? "s" : ""} ${list(added)} added`);
    if (removed.length > 0) add("enum-value-removed", "narrow", `value${removed.length > 1 ? "s" : ""} ${list(removed)} removed`);
    return;
  }
  // One side finite, the other (of infinitely many values, or of keywords only) not.
  const finite = (bv ?? hv)!;
  const other = bv ? h : b;
  const verdicts = [...finite.values()].map((v) => ({ ...v, ok: accepts(other, v.value) }));
  const refused = verdicts.filter((v) => v.ok === false);
  const undecided = verdicts.find((v) => typeof v.ok === "string")?.ok as string | undefined;
  const rest = describe(other);
  if (bv) {
    if (undecided !== undefined) add("enum-removed", "unknown", `value restriction (${list(verdicts)}) replaced by ${rest}: compatibility unknown, ${undecided}`, undefined, undecided);
    else if (refused.length === 0) add("enum-removed", "widen", `value restriction (${list(verdicts)}) removed${rest ? ` (now ${rest}, which each of them meets)` : ""}`);
    else add("enum-removed", "both", `value restriction (${list(verdicts)}) replaced by ${rest}, which refuses ${list(refused)}`);
  } else {
    if (undecided !== undefined) add("enum-added", "unknown", `values restricted to ${list(verdicts)} (was ${rest}): compatibility unknown, ${undecided}`, undefined, undecided);
    else if (refused.length === 0) add("enum-added", "narrow", `values restricted to ${list(verdicts)}`);
    else add("enum-added", "both", `values restricted to ${list(verdicts)}, of which ${list(refused)} were not accepted before`);
  }
}

/** A schema's own constraints in a few words (`type string, pattern "^[a-z]+$"`), for a message. */
function describe(schema: JsonObject): string {
  return ["type", ...LOWER_BOUNDS, ...UPPER_BOUNDS, ...RESTRICTIONS]
    .filter((k) => schema[k] !== undefined)
    .map((k) => `${k} ${show(schema[k])}`)
    .join(", ");
}

function typeSet(type: Json): Set<string> | undefined {
  if (typeof type === "string") return new Set([type]);
  if (Array.isArray(type)) return new Set(type.map(String));
  return undefined;
}

/** Whether the type set admits every value of type `t` (an integer is a number). */
function covers(set: Set<string>, t: string): boolean {
  return set.has(t) || (t === "integer" && set.has("number"));
}

function valueSet(schema: JsonObject): Map<string, { value: Json; shown: string }> | undefined {
  const values = schema.const !== undefined ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  return values === undefined ? undefined : new Map(values.map((v) => [canonical(v), { value: v, shown: show(v) }]));
}

/** `growing` says which way a bound that grows moves the set of values (a growing minimum narrows). */
function compareBound(kw: string, b: Json, h: Json, growing: Effect, add: Add): void {
  if (b === h) return;
  const shrinking: Effect = growing === "narrow" ? "widen" : "narrow";
  if (b === undefined) add(`${kw}-added`, "narrow", `${kw} ${String(h)} added`);
  else if (h === undefined) add(`${kw}-removed`, "widen", `${kw} ${String(b)} removed`);
  else if (typeof b === "number" && typeof h === "number") add(`${kw}-changed`, h > b ? growing : shrinking, `${kw} changed from ${b} to ${h}`);
  else add(`${kw}-changed`, "both", `${kw} changed from ${String(b)} to ${String(h)}`);
}
