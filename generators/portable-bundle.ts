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
import { problem } from "./problems.ts";
import { validateSpec, type OpenApiDocument } from "./load-spec.ts";

type Json = unknown;

interface Documents {
  /** Schema file `$id` → its title, the component it becomes. */
  titles: ReadonlyMap<string, string>;
  /** Document `$id` (the root's SPEC_DOCUMENT_ID, each schema file's own) → its path on disk, for problem reports. */
  files: ReadonlyMap<string, string | undefined>;
}

/** `at` is the path of `node` inside the document whose `$id` is `base`. */
function rewrite(node: Json, base: string, at: readonly (string | number)[], docs: Documents): Json {
  if (Array.isArray(node)) return node.map((n, i) => rewrite(n, base, [...at, i], docs));
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, Json> = {};
  for (const [key, child] of Object.entries(node)) {
    if (key === "$id" || key === "$schema") continue;
    if (key === "$ref" && typeof child === "string") {
      out[key] = rewriteRef(child, base, at, docs);
    } else {
      out[key] = rewrite(child, base, [...at, key], docs);
    }
  }
  return out;
}

function rewriteRef(ref: string, base: string, at: readonly (string | number)[], docs: Documents): string {
  // Root-document pointers (`#/components/...`) already mean the right thing.
  if (ref.startsWith("#") && base === SPEC_DOCUMENT_ID) return ref;
  const absolute = new URL(ref, base);
  const fragment = absolute.hash.slice(1);
  absolute.hash = "";
  const title = docs.titles.get(absolute.href);
  if (title === undefined) {
    // Reported where the $ref is written, as the spec loader reports refs (the object holding it).
    throw problem("SPEC_UNSUPPORTED", docs.files.get(base), at, `$ref ${ref} does not name a schema file under schemas/`);
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

/** `specPath`, the root document's path, names it in problem reports. */
export function portableDocument(root: Record<string, Json>, schemaFiles: readonly SchemaFile[], specPath?: string): OpenApiDocument {
  const docs: Documents = {
    titles: new Map(schemaFiles.map((f) => [f.id, String(f.schema.title)])),
    files: new Map([[SPEC_DOCUMENT_ID, specPath], ...schemaFiles.map((f): [string, string] => [f.id, f.file])]),
  };
  const doc = rewrite(root, SPEC_DOCUMENT_ID, [], docs) as Record<string, Json> & { components?: Record<string, Json> };
  // Inline schemas of the root document stay; file-backed entries are replaced by the files.
  const schemas: Record<string, Json> = { ...((doc.components?.schemas ?? {}) as Record<string, Json>) };
  for (const file of schemaFiles) {
    const title = String(file.schema.title);
    schemas[title] = hoistDefs(title, rewrite(file.schema, file.id, [], docs) as Record<string, Json>, schemas);
  }
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  doc.components = { ...(doc.components ?? {}), schemas: sorted };
  return doc as unknown as OpenApiDocument;
}

/** Validate the spec, then build its portable single-document form. */
export async function loadPortableDocument(specPath: string): Promise<OpenApiDocument> {
  await validateSpec(specPath);
  const root = parse(readFileSync(specPath, "utf8")) as Record<string, Json>;
  return portableDocument(root, readSchemaFiles(join(dirname(specPath), "schemas")), specPath);
}

/** Write the portable copy, after `transform` (a consumer's adjustments), to a fresh temp folder and return its path. */
export async function writePortableBundle(specPath: string, transform: (doc: OpenApiDocument) => unknown = (doc) => doc): Promise<string> {
  const doc = transform(await loadPortableDocument(specPath));
  const file = join(mkdtempSync(join(tmpdir(), "service-contract-")), "openapi.json");
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}
