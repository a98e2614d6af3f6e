/**
 * Every schema file has at least one valid and one invalid example under spec/examples/, and
 * each example is judged the way its file name says: `valid-*.json` passes, `invalid-*.json`
 * fails. This is what keeps the schemas honest about what the real service sends.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAjv } from "../../generators/ajv.ts";
import { readSchemaFiles, SCHEMA_ID_BASE } from "../../generators/schema-files.ts";

const root = join(import.meta.dirname, "../..");
const schemas = readSchemaFiles(join(root, "spec/schemas"));
const ajv = createAjv(schemas);

function examplesOf(name: string): { file: string; expectValid: boolean }[] {
  const dir = join(root, "spec/examples", name);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ file: join(dir, f), expectValid: f.startsWith("valid") }));
}

// Keywords whose value is a schema, a map of schemas or a list of schemas (JSON Schema 2020-12).
const SCHEMA_KEYWORDS = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems"];
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "dependentSchemas"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];

/** JSON pointers of every subschema written as `true` or `false`. */
function booleanSchemas(node: unknown, at = "#"): string[] {
  if (node === null || typeof node !== "object") return [];
  if (Array.isArray(node)) return node.flatMap((n, i) => booleanSchemas(n, `${at}/${i}`));
  return Object.entries(node).flatMap(([key, value]) => {
    const here = `${at}/${key}`;
    const children: [string, unknown][] = SCHEMA_KEYWORDS.includes(key)
      ? [[here, value]]
      : SCHEMA_MAPS.includes(key) && value && typeof value === "object"
        ? Object.entries(value).map(([k, v]): [string, unknown] => [`${here}/${k}`, v])
        : SCHEMA_LISTS.includes(key) && Array.isArray(value)
          ? value.map((v, i): [string, unknown] => [`${here}/${i}`, v])
          : [];
    return [...children.filter(([, v]) => typeof v === "boolean").map(([p]) => p), ...booleanSchemas(value, here)];
  });
}

describe("schema files", () => {
  it.each(schemas.map((s) => [s.name, s] as const))("%s: 2020-12, no $id, no boolean subschema, based at its path", (name, s) => {
    const raw = JSON.parse(readFileSync(s.file, "utf8")) as Record<string, unknown>;
    expect(raw.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    // D-SPEC-NO-ID: relative $refs resolve from the file's own location, in every tool.
    expect(raw).not.toHaveProperty("$id");
    // `{}` and `{"not": {}}` instead: kubb and others cannot read `true`/`false` as a schema.
    expect(booleanSchemas(raw)).toEqual([]);
    expect(s.id).toBe(`${SCHEMA_ID_BASE}${name}.json`);
  });

  it("finds a boolean subschema where there is one (so the check above can fail)", () => {
    expect(booleanSchemas({ properties: { a: false, b: { items: true } }, allOf: [{ not: {} }, true] })).toEqual(["#/properties/a", "#/properties/b/items", "#/allOf/1"]);
  });
});

describe.each(schemas.map((s) => [s.name, s] as const))("examples of %s", (name, s) => {
  const examples = examplesOf(name);
  it("has at least one valid and one invalid example", () => {
    expect(examples.filter((e) => e.expectValid).length, `spec/examples/${name}/valid-*.json`).toBeGreaterThan(0);
    expect(examples.filter((e) => !e.expectValid).length, `spec/examples/${name}/invalid-*.json`).toBeGreaterThan(0);
  });
  it.each(examples.map((e) => [e.file.slice(root.length + 1), e] as const))("%s", (_label, e) => {
    const validate = ajv.getSchema(s.id);
    if (!validate) throw new Error(`schema ${s.id} did not compile`);
    const ok = validate(JSON.parse(readFileSync(e.file, "utf8")));
    expect(ok, JSON.stringify(validate.errors, null, 2)).toBe(e.expectValid);
  });
});
