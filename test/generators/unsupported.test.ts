/**
 * Contracts that are valid OpenAPI but that generate cannot turn into code as written (names
 * that are not identifiers, clashes with generated names, recursion inside the root document):
 * each must be a SpecError naming the file and JSON pointer to fix, for every target selection,
 * and the CLI must report it with exit 2, never a stack trace. And the other edge: a plain
 * OpenAPI document with every schema inline (no schemas/ folder) generates.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../generators/generate.ts";
import { SpecError } from "../../generators/problems.ts";
import { TARGET_NAMES } from "../../generators/targets/registry.ts";
import { runCliInProcess } from "../cli/in-process.ts";
import { ceiling } from "../ceilings.ts";

const fixture = join(import.meta.dirname, "../fixtures/mini");
const scratch = mkdtempSync(join(tmpdir(), "unsupported-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let copies = 0;
function copyWith(edits: [file: string, from: string, to: string][]): string {
  const dir = join(scratch, String(copies++));
  cpSync(fixture, dir, { recursive: true, filter: (src) => !src.includes("golden") });
  for (const [file, from, to] of edits) {
    const text = readFileSync(join(dir, file), "utf8");
    expect(text, `${file} contains ${from}`).toContain(from);
    writeFileSync(join(dir, file), text.replace(from, to));
  }
  return dir;
}

async function problemOf(dir: string, targets: readonly string[]): Promise<string> {
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    await generate({ spec: "openapi.yaml", targets, out: "out" });
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    return (error as SpecError).message;
  } finally {
    process.chdir(cwd);
  }
  throw new Error("generate accepted the contract");
}

const recursive: [string, string, string][] = [
  ["openapi.yaml", '    Error: { $ref: "schemas/error.json" }', '    Error: { $ref: "schemas/error.json" }\n    Node:\n      type: object\n      properties:\n        child: { $ref: "#/components/schemas/Node" }'],
  ["openapi.yaml", 'items: { $ref: "#/components/schemas/Thing" }', 'items: { $ref: "#/components/schemas/Node" }'],
];

describe("contracts generate cannot turn into code", () => {
  it.each([
    ["an operationId that is not an identifier", [["openapi.yaml", "operationId: listThings", "operationId: list-things"]], ["server"], /^error SPEC_UNSUPPORTED openapi\.yaml#\/paths\/~1things\/get\/operationId: "list-things" must be a camelCase identifier/],
    ["an operation without operationId", [["openapi.yaml", "      operationId: createThing\n", ""]], ["validators"], /^error SPEC_UNSUPPORTED openapi\.yaml#\/paths\/~1things\/post: operationId is required/],
    ["an operationId that shadows a client method", [["openapi.yaml", "operationId: listThings", "operationId: poll"]], ["client"], /^error SPEC_UNSUPPORTED openapi\.yaml#\/paths\/~1things\/get\/operationId: "poll" collides with a ServiceClient method/],
    ["a schema title that is not a type name", [["schemas/thing.json", '"title": "Thing"', '"title": "thing"']], ["types"], /^error SPEC_UNSUPPORTED schemas\/thing\.json#\/title: must be a PascalCase type name, got "thing"/],
    ["two schema files with one title", [["schemas/error.json", '"title": "Error"', '"title": "Thing"']], ["validators"], /^error SPEC_UNSUPPORTED schemas\/thing\.json#\/title: "Thing" is used by another schema file/],
    ["a schema title reserved for a generated type", [["schemas/thing.json", '"title": "Thing"', '"title": "WebhookPayloads"']], ["types"], /^error SPEC_UNSUPPORTED schemas\/thing\.json#\/title: "WebhookPayloads" is reserved for a generated type/],
    ["a recursive schema inside the root document", recursive, TARGET_NAMES, /^error SPEC_UNSUPPORTED openapi\.yaml#\/components\/schemas\/Node: local \$ref cycle/],
  ] as const)("%s", async (_name, edits, targets, message) => {
    const dir = copyWith(edits.map((e) => [...e]));
    expect(await problemOf(dir, targets)).toMatch(message);
  }, ceiling(60_000));

  it.each([
    ["from the root document", [["openapi.yaml", '    Error: { $ref: "schemas/error.json" }', '    Error: { $ref: "schemas/error.json" }\n    Other: { $ref: "other/thing.json" }']], /^error SPEC_UNSUPPORTED openapi\.yaml#\/components\/schemas\/Other: \$ref other\/thing\.json does not name a schema file under schemas\/$/],
    ["from a schema file", [["schemas/thing.json", '"owner": { "$ref": "#/$defs/Owner" }', '"owner": { "$ref": "../other/thing.json" }']], /^error SPEC_UNSUPPORTED schemas\/thing\.json#\/properties\/owner: \$ref \.\.\/other\/thing\.json does not name a schema file under schemas\/$/],
  ] as const)("a $ref to a JSON file outside schemas/, %s, names the file and pointer it is written at", async (_name, edits, message) => {
    const dir = copyWith(edits.map((e) => [...e]));
    mkdirSync(join(dir, "other"));
    writeFileSync(join(dir, "other/thing.json"), '{ "type": "object" }\n');
    expect(await problemOf(dir, ["types"])).toMatch(message);
  }, ceiling(60_000));

  // In this process (the CLI's `main`, its exit code and stderr): the binary's exit 2 on a spec
  // error is generate.test.ts's broken $ref.
  it("the CLI reports it with exit 2 and no stack trace", async () => {
    const dir = copyWith([["openapi.yaml", "operationId: listThings", "operationId: list-things"]]);
    const result = await runCliInProcess(["generate", "--spec", "openapi.yaml", "--out", "out"], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^service-contract: the spec has errors:\nerror SPEC_UNSUPPORTED openapi\.yaml#\/paths\/~1things\/get\/operationId: /);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, ceiling(60_000));
});

describe("edges of what generate accepts", () => {
  it("a schema file that is not JSON stops generate, even when nothing refers to it", async () => {
    const dir = copyWith([]);
    writeFileSync(join(dir, "schemas/stray.json"), "{ nope");
    expect(await problemOf(dir, TARGET_NAMES)).toMatch(/^error SPEC_SYNTAX schemas\/stray\.json#: /);
  });

  it.each([
    ["a keyword value the meta-schema refuses", [["schemas/error.json", '"type": "object",', '"type": "objekt",']], /^error SPEC_INVALID schemas\/error\.json#\/type: schema is invalid: data\/type must be equal to one of the allowed values/],
    ["a keyword strict mode does not know", [["schemas/error.json", '"type": "object",', '"type": "object", "frobnicate": 1,']], /^error SPEC_INVALID schemas\/error\.json#: strict mode: unknown keyword: "frobnicate" \(validator schema_Error\)/],
    ["an unknown keyword in a schema inside the document", [["openapi.yaml", "properties:\n                name: { type: string, minLength: 1 }", "frobnicate: 1\n              properties:\n                name: { type: string, minLength: 1 }"]], /^error SPEC_INVALID openapi\.yaml#: strict mode: unknown keyword: "frobnicate" \(validator createThing_body_application_json\)/],
  ] as const)("a schema Ajv refuses: %s", async (_name, edits, message) => {
    expect(await problemOf(copyWith(edits.map((e) => [...e])), TARGET_NAMES)).toMatch(message);
  });

  it("two schema files with one $id", async () => {
    const dir = copyWith([]);
    writeFileSync(join(dir, "schemas/error2.json"), readFileSync(join(dir, "schemas/error.json"), "utf8").replace('"title": "Error"', '"title": "ErrorTwo"'));
    expect(await problemOf(dir, TARGET_NAMES)).toMatch(/^error SPEC_INVALID schemas\/error2\.json#: schema with key or id "https:\/\/service-contract\.dev\/schemas\/error\.json" already exists/);
  });

  it("a document with every schema inline and no schemas/ folder generates every target", async () => {
    const dir = join(scratch, "inline");
    mkdirSync(dir);
    writeFileSync(
      join(dir, "api.yaml"),
      [
        "openapi: 3.1.0",
        "info: { title: inline, version: '1' }",
        "paths:",
        "  /a:",
        "    get:",
        "      operationId: getA",
        "      responses:",
        "        '200':",
        "          description: ok",
        "          content:",
        "            application/json:",
        "              schema: { type: object, required: [x], properties: { x: { type: string } } }",
        "",
      ].join("\n"),
    );
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const files = await generate({ spec: "api.yaml", targets: TARGET_NAMES, out: "out" });
      expect(files.map((f) => f.path)).toContain("client/client.ts");
      expect(files.find((f) => f.path === "types.ts")!.contents).toMatch(/getA: \{/);
      const tables = files.find((f) => f.path === "validators/tables.js")!.contents;
      const fn = /getA_200_application_json: unit\("bodies", "getA_200_application_json", "(validate\d+)"\)/.exec(tables)![1];
      expect(files.find((f) => f.path === `validators/compiled-bodies/${fn}.cjs`)!.contents).toContain(`exports.${fn} = ${fn};`);
    } finally {
      process.chdir(cwd);
    }
  }, ceiling(60_000));
});
