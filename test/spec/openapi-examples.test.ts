/**
 * Every `example` and `examples` value written inside spec/openapi.yaml validates against the
 * schema it illustrates: media types, parameters, headers, and schema objects themselves; and so
 * does every `example` annotation inside the schema files (`"example": "repo,gist"` on a property),
 * and every value of JSON Schema's own `examples` list, in either place. Redocly's default reading
 * (every subschema closed) counts 138 of these examples as invalid: spec/redocly.yaml says why
 * they are not.
 * Documentation that contradicts the contract misleads exactly the people reading it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { createAjv } from "../../generators/ajv.ts";
import { readSchemaFiles } from "../../generators/schema-files.ts";
import { compilableSchema, resolvePointer } from "../../generators/spec-schemas.ts";
import { toPointer } from "../../generators/problems.ts";
import { decodeExample } from "./wire-example.ts";

const root = join(import.meta.dirname, "../..");
const doc = parse(readFileSync(join(root, "spec/openapi.yaml"), "utf8")) as unknown;
const schemaFiles = readSchemaFiles(join(root, "spec/schemas"));
const ajv = createAjv(schemaFiles, { strict: false });

interface Case {
  pointer: string;
  schema: unknown;
  value: unknown;
}

/** Walks the document and collects (schema, example) pairs wherever OpenAPI allows examples. */
function collect(node: unknown, path: (string | number)[], out: Case[]): void {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) return node.forEach((n, i) => collect(n, [...path, i], out));
  const obj = node as Record<string, unknown>;
  const schema = "schema" in obj ? obj.schema : undefined;
  if (schema !== undefined && ("example" in obj || "examples" in obj)) {
    // A media type object: its key names the wire format its string examples are written in.
    const mediaType = path.at(-2) === "content" ? String(path.at(-1)) : undefined;
    if ("example" in obj) out.push({ pointer: toPointer([...path, "example"]), schema, value: decodeExample(mediaType, obj.example) });
    for (const [name, ex] of Object.entries((obj.examples ?? {}) as Record<string, unknown>)) {
      const example = (ex as { $ref?: string }).$ref ? resolvePointer(doc, (ex as { $ref: string }).$ref) : ex;
      const value = (example as { value?: unknown }).value;
      if (value !== undefined) out.push({ pointer: toPointer([...path, "examples", name]), schema, value: decodeExample(mediaType, value) });
    }
  }
  const isSchemaObject = path.includes("schema") || path.includes("schemas");
  if (isSchemaObject && "example" in obj && !("schema" in obj)) {
    out.push({ pointer: toPointer([...path, "example"]), schema: obj, value: obj.example });
  }
  // JSON Schema's own `examples` (a list of values) on a schema object.
  if (isSchemaObject && Array.isArray(obj.examples) && !("schema" in obj)) {
    obj.examples.forEach((value, i) => out.push({ pointer: toPointer([...path, "examples", i]), schema: obj, value }));
  }
  for (const [key, child] of Object.entries(obj)) {
    if (key === "example" || key === "examples") continue;
    collect(child, [...path, key], out);
  }
}

const cases: Case[] = [];
collect(doc, [], cases);

describe("examples inside spec/openapi.yaml", () => {
  it("has examples to check", () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  it.each(cases.map((c) => [c.pointer, c] as const))("%s", (_pointer, c) => {
    const validate = ajv.compile(compilableSchema(doc, c.schema));
    expect(validate(c.value), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });
});

/** `example` annotations inside the schema files, each judged by the subschema that carries it. */
function collectInFile(node: unknown, path: (string | number)[], id: string, out: { label: string; ref: string; value: unknown }[]): void {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) return node.forEach((n, i) => collectInFile(n, [...path, i], id, out));
  const obj = node as Record<string, unknown>;
  // `properties` and `$defs` map names to subschemas; an `example` key directly under them is a property name.
  const underMap = ["properties", "$defs", "patternProperties"].includes(String(path.at(-1)));
  if (!underMap && "example" in obj) {
    const pointer = toPointer(path);
    out.push({ label: `${id.split("/schemas/")[1]}${pointer}/example`, ref: `${id}${pointer}`, value: obj.example });
  }
  // JSON Schema's own `examples`: a list of values.
  if (!underMap && Array.isArray(obj.examples)) {
    const pointer = toPointer(path);
    obj.examples.forEach((value, i) => out.push({ label: `${id.split("/schemas/")[1]}${pointer}/examples/${i}`, ref: `${id}${pointer}`, value }));
  }
  for (const [key, child] of Object.entries(obj)) {
    if ((key === "example" || key === "examples") && !underMap) continue;
    collectInFile(child, [...path, key], id, out);
  }
}

const fileCases: { label: string; ref: string; value: unknown }[] = [];
for (const file of schemaFiles) collectInFile(file.schema, [], file.id, fileCases);

describe("example annotations inside spec/schemas/*.json", () => {
  it("has examples to check", () => {
    expect(fileCases.length).toBeGreaterThan(10);
  });

  it.each(fileCases.map((c) => [c.label, c] as const))("%s", (_label, c) => {
    const validate = ajv.getSchema(c.ref);
    if (!validate) throw new Error(`cannot resolve ${c.ref}`);
    expect(validate(c.value), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });
});
