/**
 * Compares two JSON Schemas (2020-12, as OpenAPI 3.1 uses them) and says, for each difference,
 * whether the new schema lets a writer send more (`widen`), less (`narrow`), something else
 * (`both`) or only documents differently (`none`). Who that breaks depends on the message's
 * direction and is decided in change.ts; here it is only about the set of values each accepts.
 *
 * `$ref`s are followed on both sides before anything is compared, so a schema moved to another
 * file, a `$ref` replaced by the same schema written inline, reordered keys and changed
 * descriptions, titles or examples are no difference at all. Results are memoized per pair of
 * nodes (a contract's `User` is compared once however often it is used) and a pair met again
 * inside itself (a recursive schema) counts as equal.
 */
import { ANNOTATIONS, child, isObject, type Contract, type Json, type JsonObject, type Location } from "./documents.ts";
import type { Effect, Finding } from "./change.ts";
import { canonical, compareLeaves, LEAF_KEYWORDS } from "./schema-keywords.ts";
import { normalize, placeOf, type Side } from "./schema-normalize.ts";

/** Keywords compared with their own rule below; everything else that is not an annotation is compared whole. */
const HANDLED = new Set([
  ...LEAF_KEYWORDS,
  "properties",
  "required",
  "additionalProperties",
  "unevaluatedProperties",
  "items",
  "prefixItems",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "contentSchema",
  "$defs",
  "definitions",
  "then",
  "else",
  "contains",
  "propertyNames",
  "if",
  "patternProperties",
  "dependentSchemas",
]);
/** Subschemas whose widening widens the whole. (`then` and `else` too, when both sides have the same `if`.) */
const CARRYING = ["contains", "propertyNames"];
/** Maps of subschemas: a member added restricts (narrow), one removed frees (widen). */
const SCHEMA_MAPS = ["patternProperties", "dependentSchemas"];

type Pair = { node: Json; loc: Location };

function asSchema(node: Json): JsonObject {
  if (node === true || node === undefined) return {};
  if (node === false) return { not: {} };
  return isObject(node) ? node : {};
}

function invert(effect: Effect): Effect {
  return effect === "widen" ? "narrow" : effect === "narrow" ? "widen" : effect;
}

export class SchemaDiff {
  private readonly memo = new WeakMap<object, Map<object, Finding[]>>();
  private readonly active = new WeakMap<object, Set<object>>();
  /** Each side's reader, with where the nodes a normalization moved were written (schema-normalize.ts). */
  private readonly bSide: Side;
  private readonly hSide: Side;

  constructor(
    private readonly base: Contract,
    private readonly head: Contract,
  ) {
    this.bSide = { version: base.version, deref: (n, l) => base.deref(n, l), origins: new WeakMap() };
    this.hSide = { version: head.version, deref: (n, l) => head.deref(n, l), origins: new WeakMap() };
  }

  /** The differences between the schema `b` (in the base contract, at `bLoc`) and `h` (in the head). */
  compare(b: Json, bLoc: Location, h: Json, hLoc: Location): Finding[] {
    const bb = this.base.deref(b, placeOf(this.bSide, b, bLoc));
    const hh = this.head.deref(h, placeOf(this.hSide, h, hLoc));
    const bn = bb.node;
    const hn = hh.node;
    if (!isObject(bn) || !isObject(hn)) return this.compareNodes(bb, hh);
    const seen = this.memo.get(bn)?.get(hn);
    if (seen) return seen;
    const running = this.active.get(bn);
    if (running?.has(hn)) return [];
    if (running) running.add(hn);
    else this.active.set(bn, new Set([hn]));
    const found = dedupe(this.compareNodes(bb, hh));
    this.active.get(bn)!.delete(hn);
    let row = this.memo.get(bn);
    if (!row) this.memo.set(bn, (row = new Map()));
    row.set(hn, found);
    return found;
  }

  private sub(b: Json, bLoc: Location, h: Json, hLoc: Location, path: (string | number)[]): Finding[] {
    return this.compare(b, bLoc, h, hLoc).map((f) => ({ ...f, path: [...path, ...f.path] }));
  }

  private compareNodes(bp: Pair, hp: Pair): Finding[] {
    const b = normalize(this.bSide, asSchema(bp.node), bp.loc);
    const h = normalize(this.hSide, asSchema(hp.node), hp.loc);
    const at = this.head.shown(hp.loc);
    // `X` → `anyOf: [X, {type: null}]` (and back) is the common way to make a value nullable:
    // X is compared with its branch, and the other branches count as added or removed.
    for (const kw of ["anyOf", "oneOf"] as const) {
      if (Array.isArray(h[kw]) && onlyComposition(h, kw) && !hasComposition(b)) return this.branches(kw, [bp], listOf(this.hSide, h[kw] as Json[], hp.loc, kw));
      if (Array.isArray(b[kw]) && onlyComposition(b, kw) && !hasComposition(h)) return this.branches(kw, listOf(this.bSide, b[kw] as Json[], bp.loc, kw), [hp], true);
    }
    const out: Finding[] = [];
    const add = (kind: string, effect: Effect, message: string, path: (string | number)[] = [], source = at) => out.push({ kind, effect, message, path, source });

    compareLeaves(b, h, (kind, effect, message, requestEffect, reason) => out.push({ kind, effect, message, path: [], source: at, ...(requestEffect ? { requestEffect } : {}), ...(reason ? { reason } : {}) }));

    out.push(...this.compareObjects(bp, hp, b, h, at));
    out.push(...this.compareArrays(bp, hp, b, h));
    out.push(...this.compareCompositions(bp, hp, b, h, at));
    if (b.not !== undefined || h.not !== undefined) {
      // What `not` excludes grows when its schema widens, so its effects turn around.
      for (const f of this.sub(b.not ?? { not: {} }, child(bp.loc, "not"), h.not ?? { not: {} }, child(hp.loc, "not"), ["not"])) out.push({ ...f, effect: invert(f.effect) });
    }
    if (b.contentSchema !== undefined || h.contentSchema !== undefined) {
      out.push(...this.sub(b.contentSchema ?? {}, child(bp.loc, "contentSchema"), h.contentSchema ?? {}, child(hp.loc, "contentSchema"), ["contentSchema"]));
    }
    for (const kw of CARRYING) {
      if (b[kw] === undefined && h[kw] === undefined) continue;
      out.push(...this.sub(b[kw] ?? {}, child(bp.loc, kw), h[kw] ?? {}, child(hp.loc, kw), [kw]));
    }
    // `then`/`else` mean nothing without an `if` (JSON Schema ignores them).
    if (b.if !== undefined && h.if !== undefined) {
      // Another condition moves which values each branch governs: neither side can tell more from less.
      const found = this.sub(b.if, child(bp.loc, "if"), h.if, child(hp.loc, "if"), ["if"]);
      if (found.length > 0) add("condition-changed", "both", `the if condition changed (${found.map((f) => f.message).join("; ")})`, ["if"]);
      else {
        // The same condition: what each branch allows carries to the whole.
        for (const kw of ["then", "else"]) {
          if (b[kw] === undefined && h[kw] === undefined) continue;
          out.push(...this.sub(b[kw] ?? {}, child(bp.loc, kw), h[kw] ?? {}, child(hp.loc, kw), [kw]));
        }
      }
    } else if (h.if !== undefined && (h.then !== undefined || h.else !== undefined)) {
      // A condition added only ever requires more of the values it selects: it narrows, as one
      // change (its branches' properties are constraints on properties, not properties added).
      add("condition-added", "narrow", `a condition (if/then/else) added: ${conditionText(h)}`, ["if"]);
    } else if (b.if !== undefined && (b.then !== undefined || b.else !== undefined)) {
      add("condition-removed", "widen", `a condition (if/then/else) removed: ${conditionText(b)}`, ["if"]);
    }
    for (const kw of SCHEMA_MAPS) {
      const bm = isObject(b[kw]) ? b[kw] : {};
      const hm = isObject(h[kw]) ? h[kw] : {};
      for (const key of [...new Set([...Object.keys(bm), ...Object.keys(hm)])].sort()) {
        if (!(key in hm)) add(`${kw}-removed`, "widen", `${kw} ${key} removed`, [kw, key]);
        else if (!(key in bm)) add(`${kw}-added`, "narrow", `${kw} ${key} added`, [kw, key]);
        else out.push(...this.sub(bm[key], child(bp.loc, kw, key), hm[key], child(hp.loc, kw, key), [kw, key]));
      }
    }
    // Anything else that constrains (dependentRequired, xml, …) is compared whole.
    const others = new Set([...Object.keys(b), ...Object.keys(h)].filter((k) => !HANDLED.has(k) && !ANNOTATIONS.has(k) && !k.startsWith("x-") && k !== "$ref"));
    for (const kw of [...others].sort()) {
      if (canonical(b[kw]) !== canonical(h[kw])) add("keyword-changed", "both", `${kw} changed`, [kw]);
    }
    return out;
  }

  private compareObjects(bp: Pair, hp: Pair, b: JsonObject, h: JsonObject, at: string): Finding[] {
    const out: Finding[] = [];
    const bProps = isObject(b.properties) ? b.properties : {};
    const hProps = isObject(h.properties) ? h.properties : {};
    const bReq = new Set(Array.isArray(b.required) ? (b.required as string[]) : []);
    const hReq = new Set(Array.isArray(h.required) ? (h.required as string[]) : []);
    const bClosed = b.additionalProperties === false || b.unevaluatedProperties === false;
    const hClosed = h.additionalProperties === false || h.unevaluatedProperties === false;
    const names = [...new Set([...Object.keys(bProps), ...Object.keys(hProps)])].sort();
    for (const name of names) {
      const path = ["properties", name];
      const inB = Object.hasOwn(bProps, name);
      const inH = Object.hasOwn(hProps, name);
      if (inB && !inH) {
        // Without the declaration the name may carry anything (more), unless the object is closed (less).
        const required = bReq.has(name) ? "required " : "";
        out.push({ kind: "property-removed", effect: hClosed ? "narrow" : "widen", requestEffect: "narrow", path, message: `${required}property ${name} removed`, source: this.base.shown(child(bp.loc, "properties", name)) });
      } else if (!inB && inH) {
        const source = this.head.shown(child(hp.loc, "properties", name));
        if (bClosed) out.push({ kind: "property-added", effect: "widen", path, message: `property ${name} added (the object allowed no other properties)`, source });
        else if (hReq.has(name)) out.push({ kind: "required-property-added", effect: "narrow", path, message: `required property ${name} added`, source });
        else out.push({ kind: "optional-property-added", effect: "none", path, message: `optional property ${name} added`, source });
      } else {
        out.push(...this.sub(bProps[name], child(bp.loc, "properties", name), hProps[name], child(hp.loc, "properties", name), path));
      }
    }
    for (const name of [...new Set([...bReq, ...hReq])].sort()) {
      // A property that came or went is reported above, with its required flag in the message.
      if (Object.hasOwn(bProps, name) !== Object.hasOwn(hProps, name)) continue;
      if (bReq.has(name) && !hReq.has(name)) out.push({ kind: "property-became-optional", effect: "widen", path: ["properties", name], message: `property ${name} is no longer required`, source: at });
      if (!bReq.has(name) && hReq.has(name)) out.push({ kind: "property-became-required", effect: "narrow", path: ["properties", name], message: `property ${name} is now required`, source: at });
    }
    for (const kw of ["additionalProperties", "unevaluatedProperties"]) {
      const bv = b[kw];
      const hv = h[kw];
      if (bv === false && hv !== false) out.push({ kind: "additional-properties-allowed", effect: "widen", path: [kw], message: "properties beyond the declared ones are now allowed", source: at });
      else if (bv !== false && hv === false) out.push({ kind: "additional-properties-refused", effect: "narrow", path: [kw], message: "properties beyond the declared ones are no longer allowed", source: at });
      else if (isObject(bv) || isObject(hv)) out.push(...this.sub(bv ?? {}, child(bp.loc, kw), hv ?? {}, child(hp.loc, kw), [kw]));
    }
    return out;
  }

  private compareArrays(bp: Pair, hp: Pair, b: JsonObject, h: JsonObject): Finding[] {
    const out: Finding[] = [];
    if (b.items !== undefined || h.items !== undefined) out.push(...this.sub(b.items ?? {}, child(bp.loc, "items"), h.items ?? {}, child(hp.loc, "items"), ["items"]));
    const bPrefix = Array.isArray(b.prefixItems) ? b.prefixItems : [];
    const hPrefix = Array.isArray(h.prefixItems) ? h.prefixItems : [];
    for (let i = 0; i < Math.max(bPrefix.length, hPrefix.length); i++) {
      out.push(...this.sub(bPrefix[i] ?? {}, child(bp.loc, "prefixItems", i), hPrefix[i] ?? {}, child(hp.loc, "prefixItems", i), ["prefixItems", i]));
    }
    return out;
  }

  private compareCompositions(bp: Pair, hp: Pair, b: JsonObject, h: JsonObject, at: string): Finding[] {
    const out: Finding[] = [];
    for (const kw of ["oneOf", "anyOf", "allOf"] as const) {
      const bHas = Array.isArray(b[kw]);
      const hHas = Array.isArray(h[kw]);
      if (!bHas && !hHas) continue;
      if (!bHas) out.push({ kind: "composition-added", effect: kw === "allOf" ? "narrow" : "both", path: [kw], message: `${kw} added`, source: at });
      else if (!hHas) out.push({ kind: "composition-removed", effect: kw === "allOf" ? "widen" : "both", path: [kw], message: `${kw} removed`, source: at });
      else out.push(...this.branches(kw, listOf(this.bSide, b[kw] as Json[], bp.loc, kw), listOf(this.hSide, h[kw] as Json[], hp.loc, kw)));
    }
    return out;
  }

  /** The branches of a composition on each side; `wrappedHead`: the head is a plain schema standing for its only branch. */
  private branches(kw: "oneOf" | "anyOf" | "allOf", bList: Pair[], hList: Pair[], wrappedHead = false): Finding[] {
    const out: Finding[] = [];
    const { pairs, removed, added } = this.matchBranches(bList, hList);
    // One more branch of oneOf/anyOf admits more values; one more of allOf admits fewer.
    const more: Effect = kw === "allOf" ? "narrow" : "widen";
    const fewer: Effect = kw === "allOf" ? "widen" : "narrow";
    for (const i of removed) out.push({ kind: "branch-removed", effect: fewer, path: wrappedHead ? [] : [kw], message: `${kw} alternative ${this.branchName(this.base, bList[i]!)} removed`, source: this.base.shown(bList[i]!.loc) });
    for (const j of added) out.push({ kind: "branch-added", effect: more, path: [kw, j], message: `${kw} alternative ${this.branchName(this.head, hList[j]!)} added`, source: this.head.shown(hList[j]!.loc) });
    for (const [i, j] of pairs) out.push(...this.sub(bList[i]!.node, bList[i]!.loc, hList[j]!.node, hList[j]!.loc, wrappedHead ? [] : [kw, j]));
    return out;
  }

  private branchName(contract: Contract, branch: Pair): string {
    const resolved = contract.deref(branch.node, branch.loc).node;
    const title = isObject(resolved) && typeof resolved.title === "string" ? resolved.title : undefined;
    return title ?? canonical(resolved).slice(0, 60);
  }

  /**
   * Pairs the branches of two compositions: first those that are the same `$ref` target or carry
   * the same title (schema files have one), then those with the same `const` properties (a
   * discriminator's value), then equal ones, then what is left in order.
   */
  private matchBranches(bList: Pair[], hList: Pair[]): { pairs: [number, number][]; removed: number[]; added: number[] } {
    const bRes = bList.map((p) => this.base.deref(p.node, p.loc));
    const hRes = hList.map((p) => this.head.deref(p.node, p.loc));
    const keys: ((r: Pair, c: Contract, own: Location) => string | undefined)[] = [
      (r, c, own) => (r.loc.url !== own.url || r.loc.pointer !== own.pointer ? `ref:${c.shown(r.loc)}` : undefined),
      (r) => (isObject(r.node) && typeof r.node.title === "string" ? `title:${r.node.title}` : undefined),
      (r) => constSignature(r.node),
      (r) => `json:${canonical(r.node)}`,
    ];
    const pairs: [number, number][] = [];
    const bFree = new Set(bList.keys());
    const hFree = new Set(hList.keys());
    for (const key of keys) {
      const byKey = new Map<string, number>();
      for (const j of hFree) {
        const k = key(hRes[j]!, this.head, hList[j]!.loc);
        if (k !== undefined && !byKey.has(k)) byKey.set(k, j);
      }
      for (const i of [...bFree]) {
        const k = key(bRes[i]!, this.base, bList[i]!.loc);
        const j = k === undefined ? undefined : byKey.get(k);
        if (j !== undefined && hFree.has(j)) {
          pairs.push([i, j]);
          bFree.delete(i);
          hFree.delete(j);
        }
      }
    }
    // What is left is paired in order only when both sides have the same number left: an edited branch.
    const bLeft = [...bFree];
    const hLeft = [...hFree];
    if (bLeft.length === hLeft.length) {
      bLeft.forEach((i, n) => pairs.push([i, hLeft[n]!]));
      return { pairs, removed: [], added: [] };
    }
    return { pairs, removed: bLeft, added: hLeft };
  }
}

/** `if {…} then {…}` shortened, for a message. */
function conditionText(schema: JsonObject): string {
  const part = (kw: string) => (schema[kw] === undefined ? "" : ` ${kw} ${canonical(schema[kw]).slice(0, 80)}`);
  return `${part("if")}${part("then")}${part("else")}`.trim();
}

function constSignature(node: Json): string | undefined {
  if (!isObject(node) || !isObject(node.properties)) return undefined;
  const consts = Object.entries(node.properties)
    .filter(([, p]) => isObject(p) && p.const !== undefined)
    .map(([k, p]) => `${k}=${canonical((p as JsonObject).const)}`)
    .sort();
  return consts.length > 0 ? `const:${consts.join("&")}` : undefined;
}

function onlyComposition(schema: JsonObject, kw: string): boolean {
  return Object.keys(schema).every((k) => k === kw || ANNOTATIONS.has(k) || k.startsWith("x-") || k === "discriminator");
}

function listOf(side: Side, items: Json[], loc: Location, kw: string): Pair[] {
  return items.map((node, i) => ({ node, loc: placeOf(side, node, child(loc, kw, i)) }));
}

function hasComposition(schema: JsonObject): boolean {
  return ["oneOf", "anyOf", "allOf"].some((k) => Array.isArray(schema[k]));
}

/** One finding per place it was made (kind, source, message), at the shortest path that reaches it. */
export function dedupe(findings: Finding[]): Finding[] {
  const best = new Map<string, Finding>();
  for (const f of findings) {
    const key = `${f.kind}|${f.source ?? ""}|${f.message}`;
    const seen = best.get(key);
    if (!seen || f.path.length < seen.path.length) best.set(key, f);
  }
  return [...best.values()];
}
