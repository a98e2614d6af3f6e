/**
 * A single-file copy of the contract for tools that do not follow `$id` (Prism,
 * openapi-typescript, documentation renderers).
 *
 * Every schema file becomes `#/components/schemas/<title>`, and every `$ref` to a file (from the
 * root document or from another schema file, with or without a fragment) is rewritten to point
 * there. The `$id`s are dropped, because an `$id` would re-base every root pointer below it.
 * Unlike a generic bundler, which inlines a file wherever it happens to be met first, this
 * keeps each resource under its own name, so generated types read `components["schemas"]["User"]`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { readSchemaFiles, type SchemaFile } from "./schema-files.ts";
import { SPEC_DOCUMENT_ID } from "./spec-schemas.ts";
import { SpecError } from "./problems.ts";
import { loadSpec, type OpenApiDocument } from "./load-spec.ts";

type Json = unknown;

function rewrite(node: Json, base: string, titles: ReadonlyMap<string, string>): Json {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, base, titles));
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, Json> = {};
  for (const [key, child] of Object.entries(node)) {
    if (key === "$id" || key === "$schema") continue;
    if (key === "$ref" && typeof child === "string") {
      out[key] = rewriteRef(child, base, titles);
    } else {
      out[key] = rewrite(child, base, titles);
    }
  }
  return out;
}

function rewriteRef(ref: string, base: string, titles: ReadonlyMap<string, string>): string {
  // Root-document pointers (`#/components/...`) already mean the right thing.
  if (ref.startsWith("#") && base === SPEC_DOCUMENT_ID) return ref;
  const absolute = new URL(ref, base);
  const fragment = absolute.hash.slice(1);
  absolute.hash = "";
  const title = titles.get(absolute.href);
  if (title === undefined) {
    throw new SpecError([{ code: "SPEC_UNSUPPORTED", pointer: "#", file: base, message: `$ref ${ref} does not name a schema file under schemas/`, severity: "error" }]);
  }
  // `#/$defs/Name…` inside a file becomes its hoisted component (see hoistDefs).
  const def = /^\/\$defs\/([^/]+)(.*)$/.exec(fragment);
  if (def) return `#/components/schemas/${defComponentName(title, def[1]!)}${def[2]}`;
  return `#/components/schemas/${title}${fragment}`;
}

/** `Repository` + `PushOwner` → `Repository_PushOwner`: a valid component key, unique by construction. */
export function defComponentName(title: string, def: string): string {
  return `${title}_${def.replace(/[^A-Za-z0-9_.-]/g, "_")}`;
}

/**
 * A schema's `$defs` become components of their own. Left in place, tools that read the bundle
 * as OpenAPI (openapi-typescript) take `$defs` for a property of the object.
 */
function hoistDefs(title: string, schema: Record<string, Json>, into: Record<string, Json>): Record<string, Json> {
  const { $defs, ...rest } = schema;
  for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, Json>)) into[defComponentName(title, name)] = def;
  return rest;
}

export function portableDocument(root: Record<string, Json>, schemaFiles: readonly SchemaFile[]): OpenApiDocument {
  const titles = new Map(schemaFiles.map((f) => [f.id, String(f.schema.title)]));
  const doc = rewrite(root, SPEC_DOCUMENT_ID, titles) as Record<string, Json> & { components?: Record<string, Json> };
  // Inline schemas of the root document stay; file-backed entries are replaced by the files.
  const schemas: Record<string, Json> = { ...((doc.components?.schemas ?? {}) as Record<string, Json>) };
  for (const file of schemaFiles) {
    const title = String(file.schema.title);
    schemas[title] = hoistDefs(title, rewrite(file.schema, file.id, titles) as Record<string, Json>, schemas);
  }
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  doc.components = { ...(doc.components ?? {}), schemas: sorted };
  return doc as unknown as OpenApiDocument;
}

/** Validate the spec, then build its portable single-document form. */
export async function loadPortableDocument(specPath: string): Promise<OpenApiDocument> {
  await loadSpec(specPath);
  const root = parse(readFileSync(specPath, "utf8")) as Record<string, Json>;
  return portableDocument(root, readSchemaFiles(join(dirname(specPath), "schemas")));
}

/** Write the portable copy to a fresh temp folder and return its path. */
export async function writePortableBundle(specPath: string): Promise<string> {
  const doc = await loadPortableDocument(specPath);
  const file = join(mkdtempSync(join(tmpdir(), "service-contract-")), "openapi.json");
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}
