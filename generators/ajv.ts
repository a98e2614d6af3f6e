/**
 * The one Ajv configuration used for every schema in the contract.
 *
 * The runtime-compiled validators (tests, benchmarks) and the precompiled standalone ones must
 * agree exactly, so both are built from this factory. Strict mode is on so a typo in a schema
 * keyword fails loudly instead of silently validating nothing.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Options } from "ajv";
import addFormatsModule from "ajv-formats";
import type { SchemaFile } from "./schema-files.ts";
import { overrideFormats } from "./formats.ts";
import { problem } from "./problems.ts";

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** OpenAPI annotation keywords that may appear inside the JSON Schema files. */
const ANNOTATION_KEYWORDS = ["example", "xml", "externalDocs", "x-presence", "x-seed"];

export function createAjv(schemas: readonly SchemaFile[], options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: true,
    allowUnionTypes: true,
    discriminator: true,
    allErrors: true,
    ...options,
  });
  addFormats(ajv);
  overrideFormats(ajv);
  ajv.addVocabulary(ANNOTATION_KEYWORDS);
  for (const file of schemas) {
    try {
      ajv.addSchema(file.schema, file.id);
    } catch (error) {
      // The meta-schema's complaint (`/type must be equal to one of the allowed values`) or a
      // duplicate `$id`: name the file and, when Ajv says where, the keyword.
      const where = ajv.errors?.[0]?.instancePath ?? "";
      throw problem("SPEC_INVALID", file.file, `#${where}`, (error as Error).message);
    }
  }
  return ajv;
}
