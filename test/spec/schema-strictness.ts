/**
 * Where is our schema stricter than someone else's? A structural comparison of two JSON Schemas
 * (ours: 2020-12 files with relative `$ref`s; theirs: one draft-07 document with
 * `#/definitions/…`), used by the cross-check against `@octokit/webhooks-schemas`.
 *
 * Each schema is expanded into alternatives, each a conjunction of plain schema objects: `allOf`
 * multiplies, `anyOf`/`oneOf` add alternatives (a value needs to match one, so a rule counts only
 * when every alternative has it), and an `if`/`then`/`else` whose condition the other side does
 * not settle splits into worlds (both are enforced, each on its own data, so a rule counts when it
 * holds in any world: this is what finds "closed_at must be null while state is open").
 * `dependentSchemas`/`dependentRequired` are worlds too ("when the key is present").
 * Reported, per JSON pointer: a field we require that they do not, a type (null included) they
 * allow and we refuse, and a string enum narrower than theirs. Fields they have and we do not are
 * never reported; formats, patterns and bounds are not compared.
 */
import { expand, noFacts, obj, PRESENT, product, type Alt, type Facts, type Node, type Resolver, type Schema } from "./schema-alternatives.ts";

export { documentResolver, expand, fileResolver, noFacts } from "./schema-alternatives.ts";

export interface Finding {
  pointer: string;
  kind: "requires" | "null" | "type" | "enum";
  detail: string;
  /** The condition under which we are stricter (`when …`), empty when always. */
  when: string;
}

const TYPES = ["null", "boolean", "object", "array", "string", "integer", "number"] as const;

/** What their top-level object settles (its `action`, which properties it declares). */
export function rootFacts(theirs: Alt[], resolver: Resolver): Facts {
  return factsOf(view(theirs), resolver);
}

type TypeSet = Set<string>;

function typesOf(conj: Node[]): TypeSet {
  let set = new Set<string>(TYPES);
  for (const { s } of conj) {
    if (s === false) return new Set();
    const o = obj(s);
    if (o.type !== undefined) {
      const listed = new Set(Array.isArray(o.type) ? (o.type as string[]) : [o.type as string]);
      if (listed.has("number")) listed.add("integer");
      set = new Set([...set].filter((t) => listed.has(t)));
    }
    const values = "const" in o ? [o.const] : Array.isArray(o.enum) ? (o.enum as unknown[]) : undefined;
    if (values) {
      const vt = new Set<string>(values.map((v) => (v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v)));
      if (vt.has("integer")) vt.add("number");
      set = new Set([...set].filter((t) => vt.has(t)));
    }
  }
  return set;
}

/** String values allowed by a conjunction: undefined = any string. */
function stringValues(conj: Node[]): Set<string> | undefined {
  let values: Set<string> | undefined;
  for (const { s } of conj) {
    const o = obj(s);
    const listed = "const" in o ? [o.const] : Array.isArray(o.enum) ? (o.enum as unknown[]) : undefined;
    if (!listed) continue;
    const strings = new Set(listed.filter((v): v is string => typeof v === "string"));
    values = values ? new Set([...values].filter((v) => strings.has(v))) : strings;
  }
  return values;
}

interface View {
  types: TypeSet;
  /** Allowed string values; undefined = any. */
  strings: Set<string> | undefined;
  required: Set<string>;
  /** Property name → one schema per object alternative (undefined: unconstrained there). */
  props: Map<string, (Node[] | undefined)[]>;
  items: (Node[] | undefined)[];
  objectAlts: number;
}

/** The union view of some alternatives. */
function view(alts: Alt[]): View {
  const types = new Set<string>();
  let strings: Set<string> | undefined = new Set();
  let required: Set<string> | undefined;
  const objectAlts = alts.filter((a) => typesOf(a.conj).has("object"));
  const props = new Map<string, (Node[] | undefined)[]>();
  const items: (Node[] | undefined)[] = [];
  for (const a of alts) {
    const t = typesOf(a.conj);
    for (const x of t) types.add(x);
    if (t.has("string")) {
      const v = stringValues(a.conj);
      strings = v === undefined || strings === undefined ? undefined : new Set([...strings, ...v]);
    }
    if (t.has("array")) {
      const its = a.conj.flatMap((n) => (obj(n.s).items !== undefined && typeof obj(n.s).items !== "boolean" ? [{ s: obj(n.s).items as Schema, base: n.base }] : []));
      items.push(its.length ? its : undefined);
    }
  }
  const names = new Set<string>();
  for (const a of objectAlts) for (const n of a.conj) for (const k of Object.keys((obj(n.s).properties as object) ?? {})) names.add(k);
  for (const a of objectAlts) {
    const req = new Set(a.conj.flatMap((n) => (obj(n.s).required as string[] | undefined) ?? []));
    required = required ? new Set([...required].filter((r) => req.has(r))) : req;
  }
  for (const name of names) {
    props.set(
      name,
      objectAlts.map((a) => {
        const subs = a.conj.flatMap((n) => {
          const p = (obj(n.s).properties as Record<string, Schema> | undefined)?.[name];
          return p === undefined ? [] : [{ s: p, base: n.base }];
        });
        return subs.length ? subs : undefined;
      }),
    );
  }
  if (!types.has("string")) strings = undefined;
  return { types, strings, required: required ?? new Set(), props, items, objectAlts: objectAlts.length };
}

/** Groups our alternatives by world; unconditional alternatives belong to every world. */
function worldsOf(alts: Alt[]): { when: string; alts: Alt[] }[] {
  const keys = [...new Set(alts.filter((a) => a.worlds.length).map((a) => [...new Set(a.worlds)].sort().join(" and ")))];
  if (!keys.length) return [{ when: "", alts }];
  return keys.map((key) => ({ when: key, alts: alts.filter((a) => !a.worlds.length || [...new Set(a.worlds)].sort().join(" and ") === key) }));
}

/** Facts their side settles at an object: required properties with one allowed value. */
function factsOf(v: View, resolver: Resolver): Facts {
  const values = new Map<string, unknown>();
  for (const name of v.required) {
    const subs = v.props.get(name);
    if (!subs || subs.some((x) => !x)) continue;
    const alts = subs.flatMap((conj) => conj!.reduce<Alt[]>((acc, n) => product(acc, expand(n, resolver, noFacts)), [{ conj: [], worlds: [] }]));
    const allowed = view(alts).strings;
    if (allowed) values.set(name, allowed);
  }
  for (const name of v.required) if (!values.has(name)) values.set(name, PRESENT);
  // Only when they list properties at all: an object they leave open says nothing of absence.
  return { values, declared: v.props.size ? new Set(v.props.keys()) : undefined };
}

function subAlts(subs: (Node[] | undefined)[], resolver: Resolver, facts: Facts): Alt[] | undefined {
  if (subs.some((x) => !x)) return undefined; // some alternative leaves it unconstrained
  return subs.flatMap((conj) => conj!.reduce<Alt[]>((acc, n) => product(acc, expand(n, resolver, facts)), [{ conj: [], worlds: [] }]));
}

const escape = (k: string) => k.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * Everything ours refuses that theirs accepts, walking both side by side. `ours` and `theirs` are
 * the alternatives at `pointer`; `facts` are what their parent object pins (for our `if`s there).
 */
export function compare(
  ours: Alt[],
  theirs: Alt[],
  resolvers: { ours: Resolver; theirs: Resolver },
  pointer = "",
  seen = new Set<string>(),
): Finding[] {
  const findings: Finding[] = [];
  const t = view(theirs);
  for (const world of worldsOf(ours)) {
    const o = view(world.alts);
    const when = world.when;
    if (t.types.has("null") && !o.types.has("null")) findings.push({ pointer, kind: "null", detail: "they allow null, we refuse it", when });
    const missingTypes = [...t.types].filter((x) => x !== "null" && !o.types.has(x) && !(x === "integer" && o.types.has("number")));
    // "number" in theirs but only "integer" in ours is a real narrowing; all seven types = unconstrained.
    if (missingTypes.length && t.types.size < TYPES.length)
      findings.push({ pointer, kind: "type", detail: `they allow ${missingTypes.join(", ")}, we refuse it`, when });
    if (t.types.has("string") && o.types.has("string") && o.strings) {
      const lacking = t.strings ? [...t.strings].filter((v) => !o.strings!.has(v)) : undefined;
      if (!t.strings) findings.push({ pointer, kind: "enum", detail: `we allow only ${JSON.stringify([...o.strings].sort())}, they allow any string`, when });
      else if (lacking!.length) findings.push({ pointer, kind: "enum", detail: `they also allow ${JSON.stringify(lacking!.sort())}`, when });
    }
    if (t.objectAlts && o.objectAlts) {
      for (const r of [...o.required].sort())
        if (!t.required.has(r)) findings.push({ pointer: `${pointer}/${escape(r)}`, kind: "requires", detail: "we require it, they do not", when });
      for (const [name, theirSubs] of [...t.props].sort(([a], [b]) => (a < b ? -1 : 1))) {
        const ourSubs = o.props.get(name);
        if (!ourSubs) continue;
        const key = `${pointer}/${name}|${when}`;
        const theirAlts = subAlts(theirSubs, resolvers.theirs, noFacts);
        if (!theirAlts || seen.has(key)) continue;
        // What their object pins (issue.state "open" in `issues.reopened`) settles our `if`s inside it.
        const ourAlts = subAlts(ourSubs, resolvers.ours, factsOf(view(theirAlts), resolvers.theirs));
        if (!ourAlts) continue;
        const child = compare(ourAlts, theirAlts, resolvers, `${pointer}/${escape(name)}`, new Set([...seen, key]));
        findings.push(...child.map((f) => ({ ...f, when: [when, f.when].filter(Boolean).join("; ") })));
      }
    }
    if (t.types.has("array") && o.types.has("array")) {
      const theirAlts = subAlts(t.items, resolvers.theirs, noFacts);
      const ourAlts = theirAlts && subAlts(o.items, resolvers.ours, factsOf(view(theirAlts), resolvers.theirs));
      if (ourAlts && theirAlts && pointer.split("/").length < 12) {
        const child = compare(ourAlts, theirAlts, resolvers, `${pointer}/*`, seen);
        findings.push(...child.map((f) => ({ ...f, when: [when, f.when].filter(Boolean).join("; ") })));
      }
    }
  }
  // The same finding in several worlds is reported once.
  const unique = new Map<string, Finding>();
  for (const f of findings) {
    const key = `${f.pointer}|${f.kind}|${f.detail}`;
    const had = unique.get(key);
    if (!had || f.when.length < had.when.length) unique.set(key, f);
  }
  return [...unique.values()];
}
