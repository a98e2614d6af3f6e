/**
 * Copies of our own contract for the diff tests: each test copies spec/ (without the examples,
 * which diff does not read) into a temporary folder and makes its one edit there, so every
 * case is an edit a test made, never a fixture copy of the whole spec.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { repoRoot } from "../repo-root.ts";

export const SPEC = join(repoRoot, "spec");
const made: string[] = [];

/** A fresh copy of spec/ (openapi.yaml, schemas/, the rule table) in a temporary folder; returns the copy's spec folder. */
export function copySpec(): string {
  const root = mkdtempSync(join(tmpdir(), "diff-test-"));
  made.push(root);
  const spec = join(root, "spec");
  cpSync(SPEC, spec, { recursive: true, filter: (source) => !source.startsWith(join(SPEC, "examples")) });
  return spec;
}

export function removeCopies(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

// The edits reach deep into the documents; typing each path would only repeat them.
type Doc = Record<string, any>;

let parsed: Doc | undefined;

/**
 * Lets `edit` change the copy's openapi.yaml and writes it back as JSON, which is YAML too (a
 * cosmetic change of its own, which diff must not see; and JSON is many times faster to write
 * and read than the YAML of a 5,000-line document, which keeps these tests quick).
 */
export function editOpenApi(spec: string, edit: (doc: Doc) => void): void {
  parsed ??= parse(readFileSync(join(SPEC, "openapi.yaml"), "utf8")) as Doc;
  const doc = structuredClone(parsed);
  edit(doc);
  writeFileSync(join(spec, "openapi.yaml"), JSON.stringify(doc, null, 1));
}

/** `name`: a path under schemas/ (`user.json`). */
export function editSchema(spec: string, name: string, edit: (schema: Doc) => void): void {
  const file = join(spec, "schemas", name);
  const schema = JSON.parse(readFileSync(file, "utf8")) as Doc;
  edit(schema);
  writeFileSync(file, JSON.stringify(schema, null, 2) + "\n");
}

export function editText(spec: string, name: string, edit: (text: string) => string): void {
  const file = join(spec, name);
  const before = readFileSync(file, "utf8");
  const after = edit(before);
  if (after === before) throw new Error(`the edit of ${name} changed nothing`);
  writeFileSync(file, after);
}
