/**
 * Golden files: the whole generated output for a small fixture contract
 * (test/fixtures/mini) is kept under test/fixtures/mini/golden/, so any change to what a
 * generator emits shows up as a reviewable diff. Refresh after an intended change with
 * `UPDATE_GOLDEN=1 npx vitest run test/generators/golden.test.ts`.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generators/generate.ts";
import { normalise, type GeneratedFile } from "../../generators/output.ts";
import { TARGET_NAMES } from "../../generators/targets/registry.ts";

const root = join(import.meta.dirname, "../..");
const fixture = join(root, "test/fixtures/mini");
const goldenDir = join(fixture, "golden");

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full) : [full];
  });
}

let files: GeneratedFile[] = [];
beforeAll(async () => {
  const cwd = process.cwd();
  process.chdir(fixture); // headers name the spec relative to the working directory
  try {
    // As if written to the repository's generated/, so the golden files show the usual imports.
    files = await generate({ spec: "openapi.yaml", targets: TARGET_NAMES, out: join(root, "generated") });
  } finally {
    process.chdir(cwd);
  }
  if (process.env.UPDATE_GOLDEN) {
    rmSync(goldenDir, { recursive: true, force: true });
    for (const f of files) {
      mkdirSync(dirname(join(goldenDir, f.path)), { recursive: true });
      writeFileSync(join(goldenDir, f.path), normalise(f.contents));
    }
  }
}, 60_000);

describe("golden output of the mini fixture", () => {
  it("produces exactly the golden file set", () => {
    const golden = listFiles(goldenDir).map((f) => relative(goldenDir, f).split("\\").join("/")).sort();
    expect(files.map((f) => f.path)).toEqual(golden);
  });

  it("matches every golden file byte for byte", () => {
    for (const f of files) {
      expect(normalise(f.contents), f.path).toBe(readFileSync(join(goldenDir, f.path), "utf8"));
    }
  });
});
