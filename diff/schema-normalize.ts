/**
 * A schema rewritten, before comparing, into the form that says the same with fewer ways to say
 * it — so two schemas that accept the same values compare equal whatever keywords express them:
 *
 * - `allOf` members folded into the schema (their properties, `required`, `additionalProperties`,
 *   `type` and bounds merged with the schema's own), so `additionalProperties` moved into an
 *   `allOf` member is no change. `additionalProperties` of a member governs every property the
 *   member does not declare — the schema's declared ones included — so it is laid over those too.
 *   Two `pattern`s are merged into the narrower when one accepts a subset of the other's strings
 *   (patterns.ts), two `enum`s into their intersection, two `multipleOf`s into the one that is a
 *   multiple of the other: a member that repeats less strictly what another requires is then
 *   implied and no constraint of its own. A member that holds anything else (a `oneOf`, an `if`,
 *   a keyword both give values that cannot be reconciled) stays in `allOf`, compared as before.
 * - `maxItems` implied by `prefixItems` with no further items (`items: false`): a redundant
 *   `maxItems` beside them is no change.
 *
 * The result is a new object; nodes moved into it keep the place they were written (`origin`),
 * so their `$ref`s are followed from the right file and changes name the right source. Results
 * are memoized per node, so a schema compared again is the same object (the comparison's memo
 * and its guard against recursion work on identities).
 */
import { ANNOTATIONS, child, isObject, type Json, type JsonObject, type Location } from "./documents.ts";
import { canonical } from "./schema-keywords.ts";
import { comparePatterns } from "./patterns.ts";

export interface Side {
  /** The side's OpenAPI version: a 3.0 schema's `nullable` and boolean exclusive bounds are read as 3.1 says them. */
  version: "3.0" | "3.1";
  deref(node: Json, loc: Location): { node: Json; loc: Location };
  /** Where a node moved by a normalization was written. */
  origins: WeakMap<object, Location>;
}

/** Keywords a member may bring into the schema it is folded into, each with its merge below. */
const LOWER = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const UPPER = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];
/** Keywords whose meaning depends on the object's other keywords: a member holding one of these is merged only when nothing else must be reconciled. */
const OBJECT_SENSITIVE = ["patternProperties", "unevaluatedProperties", "unevaluatedItems", "propertyNames"];

const memo = new WeakMap<Side, WeakMap<object, JsonObject>>();

/**
 * Records where `node` and everything under it was written (a `$ref` in it resolves from that
 * file). Stops at nodes already recorded, so each subtree is walked once.
 */
function remember(side: Side, node: Json, loc: Location): void {
  if (node === null || typeof node !== "object" || side.origins.has(node)) return;
  side.origins.set(node, loc);
  if (Array.isArray(node)) node.forEach((v, i) => remember(side, v, child(loc, i)));
  else for (const [k, v] of Object.entries(node)) remember(side, v, child(loc, k));
}

/** Where a node was written: its recorded origin, or `loc` (where the caller found it). */
export function placeOf(side: Side, node: Json, loc: Location): Location {
  return (node !== null && typeof node === "object" && side.origins.get(node)) || loc;
}

export function normalize(side: Side, schema: JsonObject, loc: Location): JsonObject {
  let row = memo.get(side);
  if (!row) memo.set(side, (row = new WeakMap()));
  const seen = row.get(schema);
  if (seen) return seen;
  let out = side.version === "3.0" ? from30(schema) : schema;
  if (Array.isArray(out.allOf)) out = foldAllOf(side, out, loc);
  out = impliedMaxItems(out);
  row.set(schema, out);
  return out;
}

/**
 * A 3.0 Schema Object in 3.1's words: `nullable: true` beside a `type` → `null` among the types
 * (and among the `enum` values); `exclusiveMinimum: true` beside `minimum` → the number as
 * `exclusiveMinimum` (the same for the maximum). So two 3.0 documents are compared by the same
 * rules as two 3.1 ones.
 */
function from30(schema: JsonObject): JsonObject {
  if (schema.nullable === undefined && typeof schema.exclusiveMinimum !== "boolean" && typeof schema.exclusiveMaximum !== "boolean") return schema;
  const out: JsonObject = { ...schema };
  if (out.nullable === true && out.type !== undefined) {
    const types = Array.isArray(out.type) ? out.type : [out.type];
    out.type = types.includes("null") ? types : [...types, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    delete out.nullable;
  } else if (out.nullable === false) delete out.nullable;
  for (const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (out[flag] === true && typeof out[bound] === "number") {
      out[flag] = out[bound];
      delete out[bound];
    } else if (typeof out[flag] === "boolean") delete out[flag];
  }
  return out;
}

function impliedMaxItems(schema: JsonObject): JsonObject {
  const noMore = schema.items === false || (isObject(schema.items) && isObject(schema.items.not) && Object.keys(schema.items.not).length === 0 && Object.keys(schema.items).length === 1);
  if (!noMore || !Array.isArray(schema.prefixItems)) return schema;
  const n = schema.prefixItems.length;
  if (typeof schema.maxItems === "number" && schema.maxItems <= n) return schema;
  return { ...schema, maxItems: n };
}

function foldAllOf(side: Side, schema: JsonObject, loc: Location): JsonObject {
  const { allOf, ...rest } = schema;
  let merged: JsonObject = { ...rest };
  // The schema's own subschemas keep their place when they move under a merged node.
  for (const [k, v] of Object.entries(rest)) remember(side, v, child(loc, k));
  const kept: Json[] = [];
  (allOf as Json[]).forEach((member, i) => {
    const r = side.deref(member, placeOf(side, member, child(loc, "allOf", i)));
    // A member with an allOf of its own is folded first (a payload that extends a schema that extends another).
    const m = isObject(r.node) ? normalize(side, r.node, r.loc) : r.node === true ? {} : undefined;
    if (m !== undefined && m !== r.node) remember(side, m, r.loc);
    const folded = m === undefined || Array.isArray(m.allOf) ? undefined : merge(side, merged, m, r.loc);
    if (folded) merged = folded;
    else {
      remember(side, member, child(loc, "allOf", i));
      kept.push(member);
    }
  });
  return kept.length > 0 ? { ...merged, allOf: kept } : merged;
}

/** Both: the values each accepts, as one schema (`allOf` of the two unless one is absent, or they are equal). */
function both(a: Json, b: Json): Json {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (a === false || b === false) return false;
  if (a === true) return b;
  if (b === true) return a;
  if (canonical(a) === canonical(b)) return a;
  return { allOf: [a, b] };
}

/** `into` with `member` (at `mLoc`) folded in, or undefined when the member cannot be folded exactly. */
function merge(side: Side, into: JsonObject, member: JsonObject, mLoc: Location): JsonObject | undefined {
  const keys = Object.keys(member).filter((k) => !ANNOTATIONS.has(k) && !k.startsWith("x-") && k !== "$defs" && k !== "definitions");
  const out: JsonObject = { ...into };
  for (const k of keys) {
    if (OBJECT_SENSITIVE.includes(k) || (OBJECT_SENSITIVE.some((o) => into[o] !== undefined) && ["properties", "additionalProperties"].includes(k))) return undefined;
    if (k === "properties" || k === "additionalProperties") continue;
    const mine = into[k];
    const theirs = member[k];
    if (mine === undefined) {
      out[k] = theirs;
      remember(side, theirs, child(mLoc, k));
    } else if (canonical(mine) === canonical(theirs)) continue;
    else if (k === "type") {
      const t = intersectTypes(mine, theirs);
      if (t === undefined) return undefined;
      out.type = t;
    } else if (k === "required" && Array.isArray(mine) && Array.isArray(theirs)) out.required = [...new Set([...mine, ...theirs])];
    else if (LOWER.includes(k) && typeof mine === "number" && typeof theirs === "number") out[k] = Math.max(mine, theirs);
    else if (UPPER.includes(k) && typeof mine === "number" && typeof theirs === "number") out[k] = Math.min(mine, theirs);
    else if (k === "pattern" && typeof mine === "string" && typeof theirs === "string") {
      // Two patterns are both required: when one accepts a subset of the other, it alone says it
      // (a member that repeats a pattern less strictly is implied, not a constraint of its own).
      const narrower = narrowerPattern(mine, theirs);
      if (narrower === undefined) return undefined;
      out.pattern = narrower;
    } else if (k === "enum" && Array.isArray(mine) && Array.isArray(theirs)) {
      // Both lists must admit a value: their intersection, exactly.
      const other = new Set(theirs.map(canonical));
      out.enum = mine.filter((v) => other.has(canonical(v)));
    } else if (k === "multipleOf" && typeof mine === "number" && typeof theirs === "number") {
      const isMultiple = (x: number, of: number) => Math.abs(x / of - Math.round(x / of)) < 1e-9;
      if (isMultiple(mine, theirs)) out.multipleOf = mine;
      else if (isMultiple(theirs, mine)) out.multipleOf = theirs;
      else return undefined;
    } else return undefined;
  }
  if (member.properties === undefined && member.additionalProperties === undefined) return out;
  // Properties: a name either side declares gets both sides' schema for it, where a side that
  // does not declare it contributes its additionalProperties (which then governs that name).
  const mineProps = isObject(into.properties) ? into.properties : {};
  const theirProps = isObject(member.properties) ? member.properties : {};
  for (const [k, v] of Object.entries(theirProps)) remember(side, v, child(mLoc, "properties", k));
  remember(side, member.additionalProperties, child(mLoc, "additionalProperties"));
  const props: JsonObject = {};
  for (const name of new Set([...Object.keys(mineProps), ...Object.keys(theirProps)])) {
    const a = Object.hasOwn(mineProps, name) ? mineProps[name] : into.additionalProperties;
    const b = Object.hasOwn(theirProps, name) ? theirProps[name] : member.additionalProperties;
    props[name] = both(a, b);
  }
  if (Object.keys(props).length > 0) out.properties = props;
  const additional = both(into.additionalProperties, member.additionalProperties);
  if (additional !== undefined) out.additionalProperties = additional;
  return out;
}

/** The pattern of the two that accepts a subset of the other's strings; undefined when neither does, or it cannot be decided. */
function narrowerPattern(a: string, b: string): string | undefined {
  const found = comparePatterns(a, b);
  if ("unknown" in found) return undefined;
  if (found.onlyHead === undefined) return b;
  if (found.onlyBase === undefined) return a;
  return undefined;
}

function intersectTypes(a: Json, b: Json): Json | undefined {
  const list = (t: Json) => (typeof t === "string" ? [t] : Array.isArray(t) ? t.map(String) : undefined);
  const la = list(a);
  const lb = list(b);
  if (!la || !lb) return undefined;
  const out = new Set<string>();
  for (const t of la) {
    if (lb.includes(t)) out.add(t);
    else if (t === "integer" && lb.includes("number")) out.add("integer");
    else if (t === "number" && lb.includes("integer")) out.add("integer");
  }
  const types = [...out];
  return types.length === 1 ? types[0] : types;
}
