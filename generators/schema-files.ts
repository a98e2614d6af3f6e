/**
 * Finds every JSON Schema file under `spec/schemas/` and reads it, in a stable order.
 *
 * The schema files are the single source of the wire format: the validators, the example
 * tests and the spec loader all start from this list, so it sorts by path (never by
 * directory-listing order) to keep every consumer deterministic.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { problem, shownFile } from "./problems.ts";
import { parseContractText } from "./contract-guard/parse.ts";
import { checkFileInside } from "./contract-guard/place.ts";
import { UnsafeContractError } from "./contract-guard/refused.ts";
import { withDiscriminators } from "./discriminators.ts";

/**
 * The base our own tools (Ajv, the bundler) give the schema files so that their relative `$ref`s
 * resolve among them. It is never written into a file: a file without `$id` has its own location
 * as base, so every tool (orval, kubb, Spectral, a Python validator) resolves `"$ref":
 * "../user.json"` from the files themselves, while an `$id` naming an address nothing serves made
 * them try to fetch it (spec/DECISIONS.md, D-SPEC-NO-ID).
 */
export const SCHEMA_ID_BASE = "https://service-contract.dev/schemas/";

export interface SchemaFile {
  /** Path relative to the schemas folder, with `/` separators and no `.json`: `activity/push`. */
  name: string;
  /** Absolute path on disk. */
  file: string;
  /** The `$id` the schema declares, or else SCHEMA_ID_BASE + name + ".json" (its place among the files). */
  id: string;
  /** The file's schema, with that `$id` set (right after `$schema`) when the file declares none. */
  schema: Record<string, unknown>;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return walk(full);
    return entry.name.endsWith(".json") ? [full] : [];
  });
}

export function readSchemaFiles(schemasDir: string): SchemaFile[] {
  // A contract may keep every schema inline in the document and have no schemas/ folder at all.
  if (!existsSync(schemasDir)) return [];
  const files = walk(schemasDir)
    .map((file): SchemaFile => {
      const name = relative(schemasDir, file).split(sep).join("/").replace(/\.json$/, "");
      let schema: Record<string, unknown>;
      // Every file here is read, referenced or not: the same door as the files $refs reach
      // (contract-guard/), so a link out of the folder or a file nested past the limit is refused.
      checkFileInside(file, dirname(schemasDir), shownFile(file)!);
      try {
        schema = parseContractText(readFileSync(file, "utf8"), true, shownFile(file)!) as Record<string, unknown>;
      } catch (error) {
        if (error instanceof UnsafeContractError) throw error;
        // Every file here is compiled, referenced or not, so one that does not parse stops generate.
        throw problem("SPEC_SYNTAX", file, "#", (error as Error).message);
      }
      const id = `${SCHEMA_ID_BASE}${name}.json`;
      // Not an object: Ajv's meta-schema check reports it with the file's name.
      if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return { name, file, id, schema };
      if (typeof schema.$id === "string") return { name, file, id: schema.$id, schema };
      const { $schema, ...rest } = schema;
      return { name, file, id, schema: $schema === undefined ? { $id: id, ...rest } : { $schema, $id: id, ...rest } };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return withDiscriminators(files);
}
