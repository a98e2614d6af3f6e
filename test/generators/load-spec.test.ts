/**
 * The spec loader's problem reports: each kind of broken contract, made by one edit to a copy of
 * the mini fixture, must come back as a SpecError whose code, file and JSON pointer name the place
 * to fix: where the broken `$ref` is written, not the file it points into.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../generators/load-spec.ts";
import { SpecError, type Problem } from "../../generators/problems.ts";

const fixture = join(import.meta.dirname, "../fixtures/mini");
const scratch = mkdtempSync(join(tmpdir(), "load-spec-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let copies = 0;
/** A fresh copy of the fixture with one text replacement in one file; returns the spec path. */
function broken(file: string, from: string, to: string): string {
  const dir = join(scratch, String(copies++));
  cpSync(fixture, dir, { recursive: true, filter: (src) => !src.includes("golden") });
  const target = join(dir, file);
  const text = readFileSync(target, "utf8");
  expect(text, `${file} contains ${from}`).toContain(from);
  writeFileSync(target, text.replace(from, to));
  return join(dir, "openapi.yaml");
}

async function problemsOf(spec: string): Promise<(Problem & { at: string })[]> {
  try {
    await loadSpec(spec);
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    // The file as the user would see it from the copy's root.
    return (error as SpecError).problems.map((p) => ({ ...p, at: `${relative(join(spec, ".."), join(process.cwd(), p.file ?? "")).split("\\").join("/")}${p.pointer}` }));
  }
  throw new Error("loadSpec accepted a broken spec");
}

describe("loadSpec problems name the place to fix", () => {
  it("loads the intact fixture", async () => {
    const doc = await loadSpec(join(fixture, "openapi.yaml"));
    expect(Object.keys(doc.paths ?? {})).toEqual(["/things"]);
  });

  it.each([
    [
      "a $ref to a file that does not exist, in the root document",
      ["openapi.yaml", 'Thing: { $ref: "schemas/thing.json" }', 'Thing: { $ref: "schemas/thing-typo.json" }'],
      { code: "REF_UNRESOLVED", at: "openapi.yaml#/components/schemas/Thing", message: /thing-typo\.json/ },
    ],
    [
      "a $ref to a missing component, in the root document",
      ["openapi.yaml", 'schema: { $ref: "#/components/schemas/Thing" }', 'schema: { $ref: "#/components/schemas/Thingy" }'],
      { code: "REF_MISSING", at: "openapi.yaml#/paths/~1things/post/responses/201/content/application~1json/schema", message: /"#\/components\/schemas\/Thingy"/ },
    ],
    [
      "a $ref from the root document to a missing pointer in a schema file",
      ["openapi.yaml", 'Error: { $ref: "schemas/error.json" }', 'Error: { $ref: "schemas/error.json#/nope" }'],
      { code: "REF_MISSING", at: "openapi.yaml#/components/schemas/Error", message: /"#\/nope".*\(in .*schemas\/error\.json\)/ },
    ],
    [
      "a local $ref to a missing pointer inside a schema file",
      ["schemas/thing.json", '"$ref": "#/$defs/Owner"', '"$ref": "#/$defs/Ownr"'],
      { code: "REF_MISSING", at: "schemas/thing.json#/properties/owner", message: /"#\/\$defs\/Ownr"/ },
    ],
    [
      "a $ref from one schema file to a missing pointer in another",
      ["schemas/webhooks/thing_created.json", '"$ref": "../thing.json"', '"$ref": "../thing.json#/properties/nope"'],
      { code: "REF_MISSING", at: "schemas/webhooks/thing_created.json#/properties/thing", message: /\(in .*schemas\/thing\.json\)/ },
    ],
    [
      "a schema file that is not JSON: the broken file, the position, and who refers to it",
      ["schemas/error.json", '"title": "Error",', '"title": "Error",,'],
      { code: "SPEC_SYNTAX", at: "schemas/error.json#", message: /^[^\n]*\(4:20\) \(referenced from \S*openapi\.yaml#\/components\/schemas\/Error\)$/ },
    ],
    [
      "a root document that is not YAML",
      ["openapi.yaml", "tags:\n", "tags: [\n"],
      { code: "SPEC_SYNTAX", at: "openapi.yaml#", message: /^[^\n]*\(\d+:\d+\)$/ },
    ],
    [
      "a value of the wrong type",
      ["openapi.yaml", "operationId: listThings", "operationId: [listThings]"],
      { code: "SPEC_INVALID", at: "openapi.yaml#/paths/~1things/get/operationId", message: /must be string/ },
    ],
  ] as const)("%s", async (_name, [file, from, to], expected) => {
    const problems = await problemsOf(broken(file, from, to));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatchObject({ code: expected.code, at: expected.at, severity: "error" });
    expect(problems[0]!.message).toMatch(expected.message);
  });
});

describe("validateSpec hands back the root it read", () => {
  it("is the root document as the model reads it, so generate parses 200 kB of YAML once (issue 43)", async () => {
    const { validateSpec } = await import("../../generators/load-spec.ts");
    const { parse } = await import("yaml");
    const spec = join(fixture, "openapi.yaml");
    expect(await validateSpec(spec)).toEqual(parse(readFileSync(spec, "utf8")));
  });
});
