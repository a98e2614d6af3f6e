/**
 * Contracts that are valid OpenAPI but that generate cannot turn into code as written (names
 * that are not identifiers, clashes with generated names, recursion inside the root document):
 * each must be a SpecError naming the file and JSON pointer to fix, for every target selection,
 * and the CLI must report it with exit 2, never a stack trace.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../generators/generate.ts";
import { SpecError } from "../../generators/problems.ts";
import { TARGET_NAMES } from "../../generators/targets/registry.ts";
import { runCli } from "../cli/run-cli.ts";

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
    ["a recursive schema inside the root document", recursive, TARGET_NAMES, /^error SPEC_UNSUPPORTED #\/components\/schemas\/Node: local \$ref cycle/],
  ] as const)("%s", async (_name, edits, targets, message) => {
    const dir = copyWith(edits.map((e) => [...e]));
    expect(await problemOf(dir, targets)).toMatch(message);
  }, 60_000);

  it("the CLI reports it with exit 2 and no stack trace", async () => {
    const dir = copyWith([["openapi.yaml", "operationId: listThings", "operationId: list-things"]]);
    const result = await runCli(["generate", "--spec", "openapi.yaml", "--out", "out"], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^service-contract: the spec has errors:\nerror SPEC_UNSUPPORTED openapi\.yaml#\/paths\/~1things\/get\/operationId: /);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
