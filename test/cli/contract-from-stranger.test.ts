/**
 * A contract is data from a stranger (issue 41): `diff`, `bundle` and `generate`, run on a pull
 * request's contract, refuse a `$ref` leaving the contract's folder (by path or by a link) or
 * naming a URL, a YAML alias bomb and a document nested 50,000 deep — each with exit 2 and one
 * line on stderr naming the file (and the `$ref`), before anything is expanded or printed. On the
 * code before, `diff` printed the runner's file, a deep document was exit 4 with a stack trace,
 * and the alias bomb kept `bundle` and `generate` busy past 30 s. `lint`'s probes, which start
 * Redocly, are in lint-stranger.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCliInProcess } from "./in-process.ts";
import type { CliResult } from "./run-cli.ts";
import { MAX_CONTRACT_DEPTH } from "../../generators/contract-guard/limits.ts";

const scratch = mkdtempSync(join(tmpdir(), "stranger-contract-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SECRET = "RUNNER-SECRET-d41c";
const HEAD = 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\n';

/** A response schema at `$ref`, in a contract three folders below one holding the runner's secret. */
function contractWith(name: string, top: string, schema: string): string {
  const root = join(scratch, name);
  mkdirSync(join(root, "outside"), { recursive: true });
  writeFileSync(join(root, "outside/runner-secret.yaml"), `secret: ${SECRET}\n`);
  writeFileSync(join(root, "outside/runner-secret.json"), `{"secret": "${SECRET}"}\n`);
  const spec = join(root, "pr/a/b/c");
  mkdirSync(join(spec, "schemas"), { recursive: true });
  writeFileSync(
    join(spec, "openapi.yaml"),
    `${top}${HEAD}paths:\n  /x:\n    get:\n      operationId: getX\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: ${schema}\n`,
  );
  return spec;
}

const base = contractWith("base", "", "{type: object}");

/** Exit 2, one line on stderr matching `message`, no stack trace, nothing of the secret anywhere. */
function refused(r: CliResult, message: RegExp): void {
  expect(r.code, r.stderr + r.stdout.slice(0, 2000)).toBe(2);
  const lines = r.stderr.split("\n").filter((l) => l.trim() !== "");
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
  expect(r.stdout + r.stderr).not.toContain(SECRET);
}

/** The bomb: nine anchors, each nine of the one before (9⁹ leaves from 500 bytes). */
function aliasBomb(levels: number): string {
  const names = "abcdefghi".slice(0, levels).split("");
  return names.map((n, i) => `x-${n}: &${n} [${Array.from({ length: 9 }, () => (i === 0 ? '"lol"' : `*${names[i - 1]}`)).join(",")}]\n`).join("");
}

const commands: [string, (spec: string) => string[]][] = [
  ["diff", (spec) => ["diff", base, spec]],
  ["bundle", (spec) => ["bundle", "--spec", join(spec, "openapi.yaml"), "--out", join(spec, "..", "bundle-out")]],
  ["generate", (spec) => ["generate", "--spec", join(spec, "openapi.yaml"), "--out", join(spec, "..", "generated-out"), "--check"]],
];

describe.each(commands)("%s on a stranger's contract", (name, args) => {
  it("refuses a $ref leaving the contract's folder, naming the $ref and its file, and prints nothing of what it names", async () => {
    const spec = contractWith(`${name}-outside`, "", "{$ref: ../../../outside/runner-secret.yaml}");
    refused(await runCliInProcess(args(spec)), /openapi\.yaml#\/paths\/~1x\/get\/responses\/200\/content\/application~1json\/schema: \$ref "\.\.\/\.\.\/\.\.\/outside\/runner-secret\.yaml" leaves the contract's folder/);
  });

  it("refuses a $ref through a link in the folder that leads out of it", async () => {
    const spec = contractWith(`${name}-link`, "", "{$ref: schemas/leak.json}");
    symlinkSync(join(spec, "../../../../outside/runner-secret.json"), join(spec, "schemas/leak.json"));
    refused(await runCliInProcess(args(spec)), /leak\.json.* (leaves the contract's folder|is outside the contract's folder)/);
  });

  it("refuses a $ref to a URL, naming it", async () => {
    const spec = contractWith(`${name}-url`, "", "{$ref: 'http://127.0.0.1:9/schema.yaml'}");
    refused(await runCliInProcess(args(spec)), /openapi\.yaml#\/paths.*: \$ref "http:\/\/127\.0\.0\.1:9\/schema\.yaml" points at a URL/);
  });

  it("refuses the issue's 500-byte alias bomb at the top of openapi.yaml before expanding it", async () => {
    const spec = contractWith(`${name}-bomb`, aliasBomb(9), "{type: object}");
    refused(await runCliInProcess(args(spec)), /openapi\.yaml: its YAML aliases expand past \d+ nodes \(an alias bomb\)/);
  });

  it("refuses a small alias bomb (a stack trace before) the same way", async () => {
    const spec = contractWith(`${name}-small-bomb`, aliasBomb(4), "{type: object}");
    refused(await runCliInProcess(args(spec)), /openapi\.yaml: its YAML aliases expand past \d+ nodes/);
  });

  it("refuses a document nested 50,000 deep, in YAML and in a JSON schema file", async () => {
    const deep = contractWith(`${name}-deep`, "", `${"[".repeat(50_000)}${"]".repeat(50_000)}`);
    refused(await runCliInProcess(args(deep)), new RegExp(`openapi\\.yaml nests objects and arrays more than ${MAX_CONTRACT_DEPTH} deep`));
    const deepJson = contractWith(`${name}-deep-json`, "", "{$ref: schemas/deep.json}");
    writeFileSync(join(deepJson, "schemas/deep.json"), `${'{"items":'.repeat(50_000)}{}${"}".repeat(50_000)}`);
    refused(await runCliInProcess(args(deepJson)), new RegExp(`deep\\.json nests objects and arrays more than ${MAX_CONTRACT_DEPTH} deep`));
  });
});

describe("what stays readable", () => {
  it("a contract whose $refs stay in its folder, with one alias and nesting at the limit, is compared as before", async () => {
    const nested = `${'{"type": "array", "items": '.repeat(Math.floor((MAX_CONTRACT_DEPTH - 12) / 2))}{"type": "string"}${"}".repeat(Math.floor((MAX_CONTRACT_DEPTH - 12) / 2))}`;
    const spec = contractWith("fine", "x-shared: &shared {type: object}\n", "{$ref: schemas/item.json}");
    writeFileSync(join(spec, "schemas/item.json"), nested);
    const r = await runCliInProcess(["diff", base, spec, "--fail-on", "none"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/change/);
  });
});
