/**
 * The contract's files carry no OpenAPI `discriminator`: written in a file whose `oneOf` names
 * other files, its implied mapping is the file names (`activity/push.json` → "push"), which is
 * not what `type` holds ("PushEvent"), and generators that follow it (@hey-api/openapi-ts,
 * orval, kubb) type every variant as `never` (spec/DECISIONS.md, D-SPEC-NO-ID). Each variant
 * says its own `type` with a `const`, which is all a plain `oneOf` needs.
 *
 * Ajv, though, checks a `oneOf` of 21 activity events nine times faster with its
 * `discriminator` keyword (it goes straight to the variant instead of trying each). So where a
 * schema's `oneOf` lists schema files that each fix the same required property with a distinct
 * `const`, our tools put `discriminator: {propertyName}` back in memory: it never changes what
 * is valid, only how fast Ajv finds out.
 */
import type { SchemaFile } from "./schema-files.ts";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

/** The property every variant fixes with a distinct `const`, and that the schema requires. */
function discriminatingProperty(schema: Json, variants: Json[]): string | undefined {
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  for (const name of required) {
    const values = variants.map((v) => {
      const p = isObject(v.properties) ? v.properties[name] : undefined;
      return isObject(p) && typeof p.const === "string" && Array.isArray(v.required) && v.required.includes(name) ? p.const : undefined;
    });
    if (values.every((v) => v !== undefined) && new Set(values).size === values.length) return name;
  }
  return undefined;
}

export function withDiscriminators(files: SchemaFile[]): SchemaFile[] {
  const byId = new Map(files.map((f) => [f.id, f.schema]));
  return files.map((file) => {
    const { schema } = file;
    if (!isObject(schema) || "discriminator" in schema || !Array.isArray(schema.oneOf) || schema.oneOf.length < 2) return file;
    const variants = (schema.oneOf as unknown[]).map((b) => (isObject(b) && typeof b.$ref === "string" ? byId.get(new URL(b.$ref, file.id).href) : undefined));
    if (!variants.every(isObject)) return file;
    const propertyName = discriminatingProperty(schema, variants as Json[]);
    if (!propertyName || !isObject(schema.properties) || !(propertyName in schema.properties)) return file;
    return { ...file, schema: { ...schema, discriminator: { propertyName } } };
  });
}
