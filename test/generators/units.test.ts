/** Table-driven unit tests of the small generator pieces: pointers, ESM rewrite, drift diff. */
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, parse } from "node:path";
import { describe, expect, it } from "vitest";
import { toPointer } from "../../generators/problems.ts";
import { requireToImports } from "../../generators/targets/validators/esm.ts";
import { diffOutput, isWithin, normalise, writeOutput } from "../../generators/output.ts";
import { missingNeeds, scopeOf, TARGET_NAMES } from "../../generators/targets/registry.ts";
import { existsSync, readFileSync } from "node:fs";
import { runtimeModules } from "../../generators/runtime-modules.ts";

const repo = join(import.meta.dirname, "../..");

describe("runtimeModules", () => {
  it.each([
    ["the repository's generated/", join(repo, "generated"), "../../runtime/client/index.js", "../../runtime/server/index.js"],
    ["a folder deeper in the repository", join(repo, "test/fixtures/mini/out"), "../../../../../runtime/client/index.js", "../../../../../runtime/server/index.js"],
    ["another project", join(tmpdir(), "consumer/src/generated"), "service-contract/runtime/client", "service-contract/runtime/server"],
    ["a sibling whose name starts like the repository's", `${repo}-copy/generated`, "service-contract/runtime/client", "service-contract/runtime/server"],
  ])("%s", (_name, out, client, server) => {
    expect(runtimeModules(out)).toEqual({ client, server });
  });
});

describe("isWithin", () => {
  const root = join(tmpdir(), "tree");
  it.each([
    ["the folder itself", root, true],
    ["a file inside", join(root, "a/b.txt"), true],
    ["a child folder whose name starts with two dots", join(root, "..x"), true],
    ["a file below such a folder", join(root, "..x/y.txt"), true],
    ["the parent", join(root, ".."), false],
    ["a sibling", join(root, "../other"), false],
    ["a sibling whose name starts like the folder's", `${root}-copy`, false],
    ["a sibling named ..x next to the folder", join(root, "../..x"), false],
  ])("%s", (_name, path, inside) => {
    expect(isWithin(root, path)).toBe(inside);
  });

  it("the filesystem root contains everything", () => {
    expect(isWithin(parse(root).root, root)).toBe(true);
  });
});

describe("toPointer", () => {
  it.each([
    [["paths", "/events", "get"], "#/paths/~1events/get"],
    [["components", "schemas", "a~b"], "#/components/schemas/a~0b"],
    [["paths", "/repos/{owner}/{repo}/events", "get", "responses", 200], "#/paths/~1repos~1{owner}~1{repo}~1events/get/responses/200"],
    [[], "#"],
  ] as const)("%j → %s", (path, pointer) => {
    expect(toPointer(path)).toBe(pointer);
  });
});

describe("requireToImports", () => {
  it.each([
    [
      '"use strict";const a = require("ajv/dist/runtime/equal").default;',
      'import __runtime0 from "ajv/dist/runtime/equal.js";\nconst __cjsDefault = (m) => (typeof m === "function" ? m : m.default);\nconst a = __cjsDefault(__runtime0);',
    ],
    [
      'const f = require("x").a;const g = require("y").b;const h = require("x").c;',
      'import * as __runtime0 from "x.js";\nimport * as __runtime1 from "y.js";\nconst f = __runtime0.a;const g = __runtime1.b;const h = __runtime0.c;',
    ],
    ["export const v = validate0;", "export const v = validate0;"],
  ])("%s", (input, output) => {
    expect(requireToImports(input)).toBe(output);
    expect(requireToImports(input)).not.toMatch(/require\(/);
  });

  it("refuses a module read both whole and as its default (one import could not serve both)", () => {
    expect(() => requireToImports('const a = require("x").default;const b = require("x").c;')).toThrow(/both whole and as its default/);
  });
});

describe("normalise", () => {
  it.each([
    ["a\r\nb\r\n", "a\nb\n"],
    ["a\n\n\n", "a\n"],
    ["a", "a\n"],
  ])("%j → %j", (input, output) => expect(normalise(input)).toBe(output));
});

describe("diffOutput", () => {
  it("reports new, changed and deleted files, sorted", () => {
    const dir = mkdtempSync(join(tmpdir(), "diff-"));
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "same.ts"), "x\n");
    writeFileSync(join(dir, "sub/changed.ts"), "old\n");
    writeFileSync(join(dir, "stale.ts"), "gone\n");
    const drift = diffOutput(dir, [
      { path: "same.ts", contents: "x" },
      { path: "sub/changed.ts", contents: "new" },
      { path: "b-new.ts", contents: "n" },
      { path: "a-new.ts", contents: "n" },
    ]);
    expect(drift).toEqual({ added: ["a-new.ts", "b-new.ts"], changed: ["sub/changed.ts"], deleted: ["stale.ts"] });
  });

  it("treats a missing output folder as all new", () => {
    expect(diffOutput(join(tmpdir(), "does-not-exist-xyz"), [{ path: "a", contents: "" }]).added).toEqual(["a"]);
  });
});

describe("target scopes", () => {
  it("all targets own the whole folder; a subset owns only its paths", () => {
    expect(scopeOf(TARGET_NAMES)).toBeUndefined();
    expect(scopeOf(["types", "client"])).toEqual(["client/", "types.ts"]);
  });

  it("writing one target's files keeps the other targets' files", () => {
    const dir = mkdtempSync(join(tmpdir(), "scope-"));
    writeOutput(dir, [
      { path: "types.ts", contents: "old" },
      { path: "client/a.ts", contents: "a" },
      { path: "validators/stale.js", contents: "s" },
    ]);
    writeOutput(dir, [{ path: "validators/index.js", contents: "v" }], scopeOf(["validators"]));
    expect(readFileSync(join(dir, "types.ts"), "utf8")).toBe("old\n");
    expect(existsSync(join(dir, "client/a.ts"))).toBe(true);
    expect(existsSync(join(dir, "validators/stale.js"))).toBe(false);
    expect(diffOutput(dir, [{ path: "validators/index.js", contents: "v" }], scopeOf(["validators"]))).toEqual({ added: [], changed: [], deleted: [] });
    expect(diffOutput(dir, [{ path: "validators/index.js", contents: "v" }]).deleted).toEqual(["client/a.ts", "types.ts"]);
  });
});

describe("missingNeeds", () => {
  it.each([
    [["types", "validators", "client", "server"], [], []],
    [["types"], [], []],
    [["types", "validators"], [], []],
    [["validators"], [], ["types"]],
    [["validators"], ["types.ts"], []],
    [["client"], [], ["types", "validators"]],
    [["client", "types"], [], ["validators"]],
    [["server"], ["types.ts", "validators/"], []],
    [["server"], ["validators/"], ["types"]],
  ] as const)("%j with %j already in the folder", (targets, present, missing) => {
    expect(missingNeeds(targets, (path) => (present as readonly string[]).includes(path))).toEqual(missing);
  });
});
