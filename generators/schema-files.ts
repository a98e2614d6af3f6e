/**
 * Finds every JSON Schema file under `spec/schemas/` and reads it, in a stable order.
 *
 * The schema files are the single source of the wire format: the validators, the example
 * tests and the spec loader all start from this list, so it sorts by path (never by
 * directory-listing order) to keep every consumer deterministic.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { problem } from "./problems.ts";

export const SCHEMA_ID_BASE = "https://service-contract.dev/schemas/";

export interface SchemaFile {
  /** Path relative to the schemas folder, with `/` separators and no `.json`: `activity/push`. */
  name: string;
  /** Absolute path on disk. */
  file: string;
  /** The `$id` the schema declares; equal to SCHEMA_ID_BASE + name + ".json". */
  id: string;
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
  return walk(schemasDir)
    .map((file) => {
      const name = relative(schemasDir, file).split(sep).join("/").replace(/\.json$/, "");
      let schema: Record<string, unknown>;
      try {
        schema = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
      } catch (error) {
        // Every file here is compiled, referenced or not, so one that does not parse stops generate.
        throw problem("SPEC_SYNTAX", file, "#", (error as Error).message);
      }
      return { name, file, id: String(schema.$id ?? ""), schema };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
