/**
 * The plain JSON Schema edition: one self-contained file per webhook event (`X-Service-Event`
 * name, plus `ping`) and per resource a response carries, each with every schema it uses under
 * `$defs` (2020-12) or `definitions` (draft-07), so a receiver in Python, Go or anything else
 * validates with its own library and no OpenAPI tooling. Built from the portable document
 * (components.schemas, refs `#/components/schemas/X`).
 *
 * draft-07 has no `prefixItems`, `dependentRequired`, `dependentSchemas` or `$defs`, and ignores
 * whatever sits beside a `$ref`: those become `items` + `additionalItems`, `dependencies`,
 * `definitions` and `allOf: [{$ref}]`. OpenAPI's `discriminator` and `example` are not JSON
 * Schema: `example` becomes `examples`, `discriminator` is dropped (the `oneOf` still decides).
 */
import { mapSchema, type SchemaNode } from "./schema-walk.ts";

type Json = unknown;
const COMPONENT = "#/components/schemas/";

export type Dialect = "2020-12" | "draft-07";
export const DIALECTS: readonly Dialect[] = ["2020-12", "draft-07"];
const META: Record<Dialect, string> = {
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
  "draft-07": "http://json-schema.org/draft-07/schema#",
};
const DEFS: Record<Dialect, string> = { "2020-12": "$defs", "draft-07": "definitions" };

export interface Entry {
  /** `webhooks/push`, `resources/hook`. */
  name: string;
  /** The component (schema title) at its root. */
  title: string;
  /** The schema file under spec/schemas/ it comes from (`webhooks/push`), to find its examples. */
  source: string;
}

const isObject = (v: Json): v is SchemaNode => v !== null && typeof v === "object" && !Array.isArray(v);

function refsIn(node: Json, out: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, out));
  else if (isObject(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith(COMPONENT)) out.add(v.slice(COMPONENT.length).split("/")[0]!);
      else if (k !== "example" && k !== "examples" && k !== "enum" && k !== "const") refsIn(v, out);
    }
  }
  return out;
}

/** Every component `title` uses, itself included, sorted. */
function closure(schemas: Record<string, Json>, title: string): string[] {
  const seen = new Set<string>([title]);
  const queue = [title];
  while (queue.length) for (const r of refsIn(schemas[queue.shift()!], new Set())) if (!seen.has(r)) (seen.add(r), queue.push(r));
  return [...seen].sort();
}

/**
 * A validator need not assert `format` (2020-12 makes it an annotation unless asked; Python's
 * jsonschema checks `date-time` only with an extra package, and draft-07 has no `uuid`), while
 * our validators do. So where the contract relies on one, the edition says it with a pattern too.
 */
export const FORMAT_PATTERNS: Record<string, string> = {
  "date-time": "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$",
  uuid: "^(urn:uuid:)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
};

function forDialect(node: SchemaNode, dialect: Dialect): SchemaNode {
  const out: SchemaNode = { ...node };
  const pattern = typeof out.format === "string" ? FORMAT_PATTERNS[out.format] : undefined;
  if (pattern && out.pattern === undefined) out.pattern = pattern;
  else if (pattern) out.allOf = [...((out.allOf as Json[]) ?? []), { pattern }];
  if (typeof out.$ref === "string" && out.$ref.startsWith(COMPONENT)) out.$ref = `#/${DEFS[dialect]}/${out.$ref.slice(COMPONENT.length)}`;
  delete out.discriminator;
  if ("example" in out) {
    if (!("examples" in out)) out.examples = [out.example];
    delete out.example;
  }
  if (dialect === "2020-12") return out;
  if (Array.isArray(out.prefixItems)) {
    const rest = out.items;
    out.items = out.prefixItems;
    delete out.prefixItems;
    if (rest !== undefined) out.additionalItems = isObject(rest) && Object.keys(rest).length === 1 && isObject(rest.not) && Object.keys(rest.not).length === 0 ? false : rest;
  }
  const dependencies: SchemaNode = { ...((out.dependentRequired as SchemaNode) ?? {}), ...((out.dependentSchemas as SchemaNode) ?? {}) };
  if (Object.keys(dependencies).length) out.dependencies = dependencies;
  delete out.dependentRequired;
  delete out.dependentSchemas;
  if (typeof out.$ref === "string" && Object.keys(out).length > 1) {
    const { $ref, ...rest } = out;
    return { ...rest, allOf: [{ $ref }, ...((rest.allOf as Json[]) ?? [])] };
  }
  return out;
}

/** One self-contained schema: the root component's keywords, and every component it uses under `$defs`/`definitions`. */
export function standaloneSchema(schemas: Record<string, Json>, title: string, dialect: Dialect): SchemaNode {
  const convert = (s: Json, at: string) => mapSchema(s, at, (n) => forDialect(n, dialect)) as SchemaNode;
  const defs = Object.fromEntries(closure(schemas, title).map((name) => [name, convert(schemas[name], `#/${DEFS[dialect]}/${name}`)]));
  // The root refers to its definition through allOf: draft-07 ignores whatever sits beside a `$ref`.
  return { $schema: META[dialect], title, allOf: [{ $ref: `#/${DEFS[dialect]}/${title}` }], [DEFS[dialect]]: defs };
}

/** Component names a response body or a webhook names: directly, as the items of an array, or as the alternatives of a oneOf/anyOf. */
export function rootsOf(schema: Json): string[] {
  if (!isObject(schema)) return [];
  if (typeof schema.$ref === "string") return schema.$ref.startsWith(COMPONENT) ? [schema.$ref.slice(COMPONENT.length)] : [];
  if (schema.type === "array" || "items" in schema) return rootsOf(schema.items);
  return [...((schema.oneOf as Json[]) ?? []), ...((schema.anyOf as Json[]) ?? [])].flatMap(rootsOf);
}
