/**
 * Turns schema nodes found inside `spec/openapi.yaml` into schemas Ajv can compile next to the
 * schema files. The document's base URI is chosen so that its relative refs
 * (`schemas/user.json`) land on the files' `$id`s; local refs (`#/components/schemas/User`)
 * are inlined, because to Ajv the fragment would be a different document.
 */
import { SCHEMA_ID_BASE } from "./schema-files.ts";
import { problem } from "./problems.ts";

/** The URI the OpenAPI document stands at: `schemas/x.json` beside it is `SCHEMA_ID_BASE + x.json`. */
export const SPEC_DOCUMENT_ID = new URL("../openapi.yaml", SCHEMA_ID_BASE).href;

type Json = unknown;

/** `file` is the document's path, for the problem report when `ref` leads nowhere. */
export function resolvePointer(doc: Json, ref: string, file?: string): Json {
  if (!ref.startsWith("#")) throw new Error(`not a local ref: ${ref}`);
  return ref
    .slice(1)
    .split("/")
    .slice(1)
    .reduce<Json>((node, token) => {
      const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
      if (node === null || typeof node !== "object" || !(key in node)) throw problem("REF_MISSING", file, ref, `unresolvable ref ${ref}`);
      return (node as Record<string, Json>)[key];
    }, doc);
}

/** Inline local refs, make relative file refs absolute; `seen` guards against local cycles. `file` is the document's path, for problem reports. */
export function inlineLocalRefs(doc: Json, node: Json, file?: string, seen: readonly string[] = []): Json {
  if (Array.isArray(node)) return node.map((n) => inlineLocalRefs(doc, n, file, seen));
  if (node === null || typeof node !== "object") return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === "string" && ref.startsWith("#")) {
    // A recursive schema written inside the root document cannot be inlined; in a schema file it can recurse.
    if (seen.includes(ref)) throw problem("SPEC_UNSUPPORTED", file, ref, `local $ref cycle through ${ref}: move the recursive schema into a schema file`);
    return inlineLocalRefs(doc, resolvePointer(doc, ref, file), file, [...seen, ref]);
  }
  const out: Record<string, Json> = {};
  for (const [key, child] of Object.entries(node)) {
    out[key] = key === "$ref" && typeof child === "string" ? new URL(child, SPEC_DOCUMENT_ID).href : inlineLocalRefs(doc, child, file, seen);
  }
  return out;
}

/** A stand-alone schema for a node of the document (at path `file`, for problem reports), ready for `ajv.compile`. */
export function compilableSchema(doc: Json, schemaNode: Json, file?: string): Record<string, Json> {
  const inlined = inlineLocalRefs(doc, schemaNode, file);
  return typeof inlined === "boolean" ? (inlined ? {} : { not: {} }) : (inlined as Record<string, Json>);
}
