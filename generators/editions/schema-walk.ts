/**
 * Where the subschemas of a JSON Schema (2020-12 / OpenAPI 3.1) are, so an edition's rewrite of
 * one schema node can be applied to every node of a document, and nothing else (an example
 * value or an enum list is data, never rewritten).
 */
type Json = unknown;
export type SchemaNode = Record<string, Json>;

/** Keywords whose value is one subschema. */
export const ONE = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems"];
/** Keywords whose value maps names to subschemas. */
export const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
/** Keywords whose value is a list of subschemas. */
export const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];

const isObject = (v: Json): v is SchemaNode => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Rebuild `schema` bottom-up: every subschema is rewritten first, then `visit` gets the node
 * (with rewritten children) and its JSON pointer and returns its replacement.
 */
export function mapSchema(schema: Json, at: string, visit: (node: SchemaNode, at: string) => SchemaNode): Json {
  if (!isObject(schema)) return schema;
  const out: SchemaNode = {};
  for (const [key, value] of Object.entries(schema)) {
    const here = `${at}/${escape(key)}`;
    if (ONE.includes(key) && isObject(value)) out[key] = mapSchema(value, here, visit);
    else if (ONE.includes(key) && Array.isArray(value)) out[key] = value.map((v, i) => mapSchema(v, `${here}/${i}`, visit));
    else if (MAP.includes(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapSchema(v, `${here}/${escape(k)}`, visit)]));
    else if (LIST.includes(key) && Array.isArray(value)) out[key] = value.map((v, i) => mapSchema(v, `${here}/${i}`, visit));
    else out[key] = value;
  }
  return visit(out, at);
}

export function escape(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}
