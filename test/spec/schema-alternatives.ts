/**
 * A JSON Schema as alternatives, for schema-strictness.ts: `$ref`s resolved (ours: files by `$id`;
 * theirs: one document's `#/definitions/…`), `allOf` multiplied out, `anyOf`/`oneOf` as
 * alternatives, and each `if`/`then`/`else` (and `dependentSchemas`/`dependentRequired`) either
 * settled by what the other side pins there (`Facts`) or split into two worlds, labelled with
 * the condition, since both are enforced, each on its own data.
 */
export type Schema = Record<string, unknown> | boolean;
export interface Node {
  s: Schema;
  /** Base URI for resolving relative `$ref`s (ours); unused for theirs. */
  base: string;
}
export interface Alt {
  conj: Node[];
  /** The worlds this alternative belongs to: `if@ptr=then`, … (empty: every world). */
  worlds: string[];
}


export interface Resolver {
  resolve(ref: string, base: string): Node;
}


export function obj(s: Schema): Record<string, unknown> {
  return typeof s === "object" ? s : {};
}

/** A JSON pointer fragment inside a document. */
function pointerGet(doc: unknown, fragment: string): unknown {
  if (!fragment || fragment === "/") return doc;
  return fragment
    .slice(1)
    .split("/")
    .map((p) => decodeURIComponent(p).replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((cur, key) => (cur as Record<string, unknown>)?.[key], doc);
}

/** Resolves ours: `$ref`s relative to each file's `$id`, with optional `#/$defs/…` fragments. */
export function fileResolver(byId: Map<string, Record<string, unknown>>): Resolver {
  return {
    resolve(ref, base) {
      const url = new URL(ref, base);
      const fragment = decodeURIComponent(url.hash.slice(1));
      url.hash = "";
      const doc = byId.get(url.href);
      if (!doc) throw new Error(`unresolved $ref ${ref} from ${base}`);
      const s = pointerGet(doc, fragment) as Schema | undefined;
      if (s === undefined) throw new Error(`unresolved fragment ${ref} from ${base}`);
      return { s, base: url.href };
    },
  };
}

/** Resolves theirs: one document, `#/definitions/…` only. */
export function documentResolver(doc: Record<string, unknown>): Resolver {
  return {
    resolve(ref) {
      if (!ref.startsWith("#")) throw new Error(`external $ref ${ref}`);
      const s = pointerGet(doc, ref.slice(1)) as Schema | undefined;
      if (s === undefined) throw new Error(`unresolved $ref ${ref}`);
      return { s, base: "" };
    },
  };
}

/**
 * What the other side settles at this object: a required property with one allowed value (its
 * value), and a property they do not declare at all (the key `!name`: it is absent, since fields
 * they do not have never reach us). They settle our `if`s there.
 */
export interface Facts {
  values: Map<string, unknown>;
  declared: Set<string> | undefined;
}
export const PRESENT = Symbol("present");
export const noFacts: Facts = { values: new Map(), declared: undefined };
const absent = (facts: Facts, name: string) => facts.declared !== undefined && !facts.declared.has(name);

/** true / false when the facts settle the condition, undefined when they do not. */
function decide(cond: Schema, facts: Facts): boolean | undefined {
  if (typeof cond === "boolean") return cond;
  const keys = Object.keys(cond).filter((k) => !["description", "$comment"].includes(k));
  if (keys.some((k) => k !== "properties" && k !== "required")) return undefined;
  let result = true;
  for (const name of (cond.required as string[] | undefined) ?? []) {
    if (absent(facts, name)) return false;
    if (!facts.values.has(name)) return undefined;
  }
  for (const [name, sub] of Object.entries((cond.properties as Record<string, Schema> | undefined) ?? {})) {
    const s = obj(sub);
    const allowed = "const" in s ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined;
    const rest = Object.keys(s).filter((k) => !["const", "enum", "type", "description"].includes(k));
    if (absent(facts, name) || sub === true) continue; // a property constraint holds when it is absent
    if (!facts.values.has(name) || facts.values.get(name) === PRESENT) return undefined;
    if (!allowed || rest.length > 0) return undefined;
    const known = facts.values.get(name);
    const theirs = known instanceof Set ? [...known] : [known];
    if (theirs.every((v) => !allowed.includes(v))) result = false;
    else if (!theirs.every((v) => allowed.includes(v))) return undefined;
  }
  return result;
}

function describeCond(cond: Schema, negate: boolean): string {
  const c = obj(cond);
  const parts: string[] = [];
  for (const r of (c.required as string[] | undefined) ?? []) if (!c.properties || !(r in (c.properties as object))) parts.push(`${r} present`);
  for (const [name, sub] of Object.entries((c.properties as Record<string, Schema> | undefined) ?? {})) {
    const s = obj(sub);
    const values = "const" in s ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined;
    parts.push(values ? `${name} in ${JSON.stringify(values)}` : `${name} matches ${JSON.stringify(sub)}`);
  }
  const text = parts.join(" and ") || JSON.stringify(cond);
  return negate ? `not (${text})` : text;
}

export function product(a: Alt[], b: Alt[]): Alt[] {
  const out: Alt[] = [];
  for (const x of a) for (const y of b) out.push({ conj: [...x.conj, ...y.conj], worlds: [...x.worlds, ...y.worlds] });
  return out;
}

const MAX_ALTS = 256;

/** Expands a schema into alternatives of plain conjunctions (no $ref, allOf, anyOf, oneOf, if). */
export function expand(node: Node, resolver: Resolver, facts: Facts, depth = 0): Alt[] {
  if (depth > 40) throw new Error("schema expansion too deep");
  const s = node.s;
  if (typeof s === "boolean") return s ? [{ conj: [], worlds: [] }] : [{ conj: [node], worlds: [] }];
  let alts: Alt[] = [{ conj: [node], worlds: [] }];
  const sub = (x: Schema): Node => ({ s: x, base: node.base });
  if (typeof s.$ref === "string") alts = product(alts, expand(resolver.resolve(s.$ref, node.base), resolver, facts, depth + 1));
  for (const part of (s.allOf as Schema[] | undefined) ?? []) alts = product(alts, expand(sub(part), resolver, facts, depth + 1));
  for (const key of ["anyOf", "oneOf"]) {
    const branches = s[key] as Schema[] | undefined;
    if (branches) alts = product(alts, branches.flatMap((b) => expand(sub(b), resolver, facts, depth + 1)));
  }
  const conditionals: { cond: Schema; then?: Schema; else?: Schema }[] = [];
  if ("if" in s) conditionals.push({ cond: s.if as Schema, then: s.then as Schema | undefined, else: s.else as Schema | undefined });
  for (const [key, dep] of Object.entries((s.dependentSchemas as Record<string, Schema> | undefined) ?? {}))
    conditionals.push({ cond: { required: [key] }, then: dep });
  for (const [key, deps] of Object.entries((s.dependentRequired as Record<string, string[]> | undefined) ?? {}))
    conditionals.push({ cond: { required: [key] }, then: { required: deps } });
  for (const c of conditionals) {
    const verdict = decide(c.cond, facts);
    const thenAlts = c.then === undefined ? [{ conj: [], worlds: [] }] : expand(sub(c.then), resolver, facts, depth + 1);
    const elseAlts = c.else === undefined ? [{ conj: [], worlds: [] }] : expand(sub(c.else), resolver, facts, depth + 1);
    if (verdict === true) alts = product(alts, thenAlts);
    else if (verdict === false) alts = product(alts, elseAlts);
    else {
      const label = (negate: boolean) => `when ${describeCond(c.cond, negate)}`;
      alts = product(alts, [
        ...thenAlts.map((a) => ({ conj: a.conj, worlds: [...a.worlds, label(false)] })),
        ...elseAlts.map((a) => ({ conj: a.conj, worlds: [...a.worlds, label(true)] })),
      ]);
    }
  }
  if (alts.length > MAX_ALTS) throw new Error(`schema expands into ${alts.length} alternatives`);
  return alts;
}

