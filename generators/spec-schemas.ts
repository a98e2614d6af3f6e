/**
 * Turns schema nodes found inside `spec/openapi.yaml` into schemas Ajv can compile next to the
 * schema files. The document's base URI is chosen so that its relative refs
 * (`schemas/user.json`) land on the files' `$id`s; local refs (`#/components/schemas/User`)
 * are inlined, because to Ajv the fragment would be a different document.
 */
import { SCHEMA_ID_BASE } from "./schema-files.ts";
import { SpecError } from "./problems.ts";

/** The URI the OpenAPI document stands at: `schemas/x.json` beside it is `SCHEMA_ID_BASE + x.json`. */
export const SPEC_DOCUMENT_ID = new URL("../openapi.yaml", SCHEMA_ID_BASE).href;

type Json = unknown;

export function resolvePointer(doc: Json, ref: string): Json {
  if (!ref.startsWith("#")) throw new Error(`not a local ref: ${ref}`);
  return ref
    .slice(1)
    .split("/")
    .slice(1)
    .reduce<Json>((node, token) => {
      const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
      if (node === null || typeof node !== "object" || !(key in node)) throw new SpecError([{ code: "REF_MISSING", pointer: ref, message: `unresolvable ref ${ref}`, severity: "error" }]);
      return (node as Record<string, Json>)[key];
    }, doc);
}

/** Inline local refs, make relative file refs absolute; `seen` guards against local cycles. */
export function inlineLocalRefs(doc: Json, node: Json, seen: readonly string[] = []): Json {
  if (Array.isArray(node)) return node.map((n) => inlineLocalRefs(doc, n, seen));
  if (node === null || typeof node !== "object") return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === "string" && ref.startsWith("#")) {
    // A recursive schema written inside the root document cannot be inlined; in a schema file it can recurse.
    if (seen.includes(ref)) throw new SpecError([{ code: "SPEC_UNSUPPORTED", pointer: ref, message: `local $ref cycle through ${ref}: move the recursive schema into a schema file`, severity: "error" }]);
    return inlineLocalRefs(doc, resolvePointer(doc, ref), [...seen, ref]);
  }
  const out: Record<string, Json> = {};
  for (const [key, child] of Object.entries(node)) {
    out[key] = key === "$ref" && typeof child === "string" ? new URL(child, SPEC_DOCUMENT_ID).href : inlineLocalRefs(doc, child, seen);
  }
  return out;
}

/** A stand-alone schema for a node of the document, ready for `ajv.compile`. */
export function compilableSchema(doc: Json, schemaNode: Json): Record<string, Json> {
  const inlined = inlineLocalRefs(doc, schemaNode);
  return typeof inlined === "boolean" ? (inlined ? {} : { not: {} }) : (inlined as Record<string, Json>);
}
