/**
 * `service-contract lint` over real files: the committed spec is clean, and a copy of it with
 * one broken $ref fails with exit 1 and names the JSON pointer of the broken reference.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { repoRoot, runCli } from "./run-cli.ts";

const scratch = mkdtempSync(join(tmpdir(), "lint-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of spec/ whose first `$ref` to a schema file under the first path's 200 response is broken. */
function brokenCopy(): { spec: string; pointer: string } {
  const dir = join(scratch, "broken");
  cpSync(join(repoRoot, "spec"), dir, { recursive: true });
  const spec = join(dir, "openapi.yaml");
  const yaml = parseDocument(readFileSync(spec, "utf8"));
  yaml.setIn(["components", "schemas", "ActivityEvent", "$ref"], "schemas/no-such-schema.json");
  writeFileSync(spec, yaml.toString());
  return { spec, pointer: "#/components/schemas/ActivityEvent" };
}

describe("service-contract lint", () => {
  it("passes on the committed spec with zero errors", async () => {
    const result = await runCli(["lint"]);
    expect(result.stdout + result.stderr).toMatch(/spec\/openapi\.yaml: 0 error\(s\)/);
    expect(result.code).toBe(0);
  });

  it("fails with exit 1 and the JSON pointer when a $ref is broken", async () => {
    const { spec, pointer } = brokenCopy();
    const result = await runCli(["lint", "--spec", spec]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`REF_UNRESOLVED`);
    expect(result.stdout).toContain(pointer);
  });

  it("reports problems as JSON with --json", async () => {
    const { spec, pointer } = brokenCopy();
    const result = await runCli(["lint", "--spec", spec, "--json"]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { valid: boolean; problems: { code: string; pointer: string }[] };
    expect(report.valid).toBe(false);
    expect(report.problems).toContainEqual(expect.objectContaining({ code: "REF_UNRESOLVED", pointer }));
  });

  it("exits 2 for a spec file that does not exist", async () => {
    const result = await runCli(["lint", "--spec", join(scratch, "nope.yaml")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no such file/);
  });
});

describe("the CLI's usage contract", () => {
  it.each([["generate"], ["lint"], ["mock"], ["validate"]])("%s --help exits 0 with an example", async (sub) => {
    const result = await runCli([sub, "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Examples:/);
  });

  it("an unknown option exits 2", async () => {
    const result = await runCli(["lint", "--bogus"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown option/);
  });

  it("an unknown subcommand exits 2", async () => {
    const result = await runCli(["frobnicate"]);
    expect(result.code).toBe(2);
  });
});
