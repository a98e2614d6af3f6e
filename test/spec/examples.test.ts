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

describe("schema files", () => {
  it.each(schemas.map((s) => [s.name, s] as const))("%s declares the $id matching its path", (name, s) => {
    expect(s.id).toBe(`${SCHEMA_ID_BASE}${name}.json`);
    expect(s.schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
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
