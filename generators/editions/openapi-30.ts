/**
 * The OpenAPI 3.0.3 edition of the contract, for tools that read only 3.0 (API gateways, older
 * generators, most of openapi-generator's targets). Built from the portable 3.1 document
 * (generators/portable-bundle.ts), schema node by schema node:
 *
 * - `type: [T, "null"]` and a `{type: "null"}` alternative → `nullable: true`
 *   (`{allOf: [{$ref}], nullable: true}` where the other alternative is a `$ref`, which 3.0
 *   reads without siblings);
 * - `const` → a one-value `enum`; numeric `exclusiveMinimum`/`exclusiveMaximum` → the bound
 *   with the boolean flag; `examples` → `example`;
 * - a tuple (`prefixItems`) → `items` of any of its member schemas, its length kept;
 * - `webhooks` → `x-webhooks`; `jsonSchemaDialect`, `info.summary`, `license.identifier` dropped.
 *
 * What 3.0 cannot say (`if`/`then`/`else`, `dependentRequired`, `dependentSchemas`, a tuple's
 * positions, `propertyNames`, …) is dropped from the schema and listed, with the JSON pointer
 * of each place, in the document's `x-not-expressible-in-3.0` (and in README).
 */
import { escape, mapSchema, type SchemaNode } from "./schema-walk.ts";

type Json = unknown;

export interface Loss {
  pointer: string;
  keyword: string;
  note: string;
}

/** Keywords 3.0's Schema Object does not have, and what dropping each one loses. */
const DROPPED: Record<string, string> = {
  if: "a condition (if/then/else): the fields required or forbidden in one case only",
  then: "",
  else: "",
  dependentRequired: "fields that must come together",
  dependentSchemas: "a schema that applies when a field is present",
  propertyNames: "a rule on the names of an object's keys",
  patternProperties: "schemas for keys matching a pattern",
  unevaluatedProperties: "a closed object across combined schemas",
  unevaluatedItems: "a closed array across combined schemas",
  contains: "an item the array must contain",
  minContains: "an item the array must contain",
  maxContains: "an item the array must contain",
  $comment: "",
  contentMediaType: "the media type of a string's content",
  contentEncoding: "the encoding of a string's content",
  contentSchema: "the schema of a string's content (the JSON inside a form field)",
  "x-presence": "",
  "x-seed": "",
};

const isObject = (v: Json): v is SchemaNode => v !== null && typeof v === "object" && !Array.isArray(v);
/** `{type: "null"}`, as written or as this module has already rewritten it (children go first). */
const isNull = (v: Json): boolean =>
  isObject(v) &&
  ((v.type === "null" && Object.keys(v).every((k) => k === "type" || k === "description")) ||
    (v.nullable === true && Array.isArray(v.enum) && v.enum.length === 1 && v.enum[0] === null && Object.keys(v).every((k) => ["nullable", "enum", "description"].includes(k))));

/** The (non-null) `type` a component declares, for a nullable reference to it. */
type TypeOf = (ref: string) => string | undefined;

function componentType(schemas: Record<string, Json>): TypeOf {
  return (ref) => {
    const schema = ref.startsWith("#/components/schemas/") ? schemas[ref.slice("#/components/schemas/".length)] : undefined;
    const type = isObject(schema) ? schema.type : undefined;
    const types = (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === "string" && t !== "null");
    return types.length === 1 ? types[0] : undefined;
  };
}

function downgradeSchema(node: SchemaNode, at: string, losses: Loss[], typeOf: TypeOf): SchemaNode {
  const out: SchemaNode = { ...node };
  for (const key of Object.keys(out)) {
    if (key in DROPPED) {
      if (DROPPED[key]) losses.push({ pointer: at, keyword: key, note: DROPPED[key]! });
      delete out[key];
    }
  }
  if ("const" in out) {
    out.enum = [out.const];
    delete out.const;
  }
  if (Array.isArray(out.examples)) {
    if (!("example" in out) && out.examples.length > 0) out.example = out.examples[0];
    delete out.examples;
  }
  for (const [bound, flag] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (typeof out[bound] === "number") {
      out[flag] = out[bound];
      out[bound] = true;
    }
  }
  if (Array.isArray(out.prefixItems)) {
    const members = out.prefixItems as Json[];
    losses.push({ pointer: at, keyword: "prefixItems", note: `a tuple: which of ${members.length} schemas applies at which position` });
    out.items = members.length === 1 ? members[0] : { anyOf: members };
    delete out.prefixItems;
  }
  if (Array.isArray(out.type)) {
    const types = (out.type as string[]).filter((t) => t !== "null");
    const nullable = types.length < out.type.length;
    if (types.length === 1) {
      out.type = types[0];
      if (nullable) out.nullable = true;
    } else {
      // 3.0 has one type per schema, and `nullable` means something only beside it: one branch per type.
      delete out.type;
      out.anyOf = [...((out.anyOf as Json[]) ?? []), ...types.map((t) => (nullable ? { type: t, nullable: true } : { type: t }))];
    }
  }
  if (out.type === "null") {
    delete out.type;
    out.nullable = true;
    out.enum = [null];
  }
  for (const combiner of ["anyOf", "oneOf"] as const) {
    const alternatives = out[combiner];
    if (!Array.isArray(alternatives) || !alternatives.some(isNull)) continue;
    const rest = alternatives.filter((a) => !isNull(a));
    out.nullable = true;
    delete out[combiner];
    if (rest.length === 1 && isObject(rest[0]) && !("$ref" in rest[0])) Object.assign(out, rest[0], { nullable: true });
    else if (rest.length === 1) out.allOf = [...((out.allOf as Json[]) ?? []), rest[0]];
    else out[combiner] = rest;
    // 3.0 gives `nullable` a meaning only beside a `type`: the referenced schema's, where it has one.
    const ref = (rest.length === 1 && isObject(rest[0]) && typeof rest[0].$ref === "string" ? rest[0].$ref : undefined) as string | undefined;
    if (out.type === undefined && ref && typeOf(ref)) out.type = typeOf(ref);
  }
  // 3.0 reads a `$ref` alone: anything beside it moves next to an allOf of the reference.
  if (typeof out.$ref === "string" && Object.keys(out).length > 1) {
    const { $ref, ...rest } = out;
    return { allOf: [{ $ref }, ...((rest.allOf as Json[]) ?? [])], ...Object.fromEntries(Object.entries(rest).filter(([k]) => k !== "allOf")) };
  }
  return out;
}

/** Rewrites every schema found below `node` (under `schema`, `schemas`, and their subschemas). */
function walkDocument(node: Json, at: string, losses: Loss[], typeOf: TypeOf): Json {
  if (Array.isArray(node)) return node.map((n, i) => walkDocument(n, `${at}/${i}`, losses, typeOf));
  if (!isObject(node)) return node;
  const out: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    const here = `${at}/${escape(key)}`;
    if (key === "example" || key === "examples") out[key] = value;
    else if (key === "schema") out[key] = mapSchema(value, here, (n, p) => downgradeSchema(n, p, losses, typeOf));
    else if (key === "schemas" && at === "#/components" && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, mapSchema(s, `${here}/${escape(name)}`, (n, p) => downgradeSchema(n, p, losses, typeOf))]));
    } else out[key] = walkDocument(value, here, losses, typeOf);
  }
  return out;
}

/** The 3.0.3 document for a portable 3.1 one; `losses` lists what it could not say. */
export function openapi30(doc: Json): { document: SchemaNode; losses: Loss[] } {
  const losses: Loss[] = [];
  const { openapi: _v, jsonSchemaDialect: _d, webhooks, info, ...rest } = doc as SchemaNode;
  const { summary: _s, license, ...infoRest } = (info ?? {}) as SchemaNode;
  const { identifier: _i, ...licenseRest } = (license ?? {}) as SchemaNode;
  const typeOf = componentType(((rest.components as SchemaNode | undefined)?.schemas ?? {}) as Record<string, Json>);
  const body = walkDocument({ ...rest, ...(webhooks ? { "x-webhooks": webhooks } : {}) }, "#", losses, typeOf) as SchemaNode;
  for (const l of losses) l.pointer = l.pointer.replace(/^#\/x-webhooks/, "#/webhooks");
  const document: SchemaNode = {
    openapi: "3.0.3",
    info: { ...infoRest, ...(license ? { license: licenseRest } : {}) },
    ...body,
    "x-not-expressible-in-3.0": losses,
  };
  return { document, losses };
}
