/**
 * Golden files: the whole generated output for a small fixture contract
 * (test/fixtures/mini) is kept under test/fixtures/mini/golden/, so any change to what a
 * generator emits shows up as a reviewable diff. Refresh after an intended change with
 * `UPDATE_GOLDEN=1 npx vitest run test/generators/golden.test.ts`.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { parse, stringify } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generators/generate.ts";
import { normalise, type GeneratedFile } from "../../generators/output.ts";
import { TARGET_NAMES } from "../../generators/targets/registry.ts";
import { ceiling } from "../ceilings.ts";

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
  // As if written to the repository's generated/, so the golden files show the usual imports
  // (and name the spec relative to the repository's root).
  files = await generate({ spec: join(fixture, "openapi.yaml"), targets: TARGET_NAMES, out: join(root, "generated") });
  if (process.env.UPDATE_GOLDEN) {
    rmSync(goldenDir, { recursive: true, force: true });
    for (const f of files) {
      mkdirSync(dirname(join(goldenDir, f.path)), { recursive: true });
      writeFileSync(join(goldenDir, f.path), normalise(f.contents));
    }
  }
}, ceiling(60_000));

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

describe("sorted output", () => {
  /** Every map of a YAML/JSON value with its keys in reverse order (lists keep theirs: order is meaning there). */
  const reversed = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(reversed)
      : value !== null && typeof value === "object"
        ? Object.fromEntries(Object.keys(value).reverse().map((k) => [k, reversed((value as Record<string, unknown>)[k])]))
        : value;

  it("does not depend on the order of paths, methods, responses, webhooks or components in the document", async () => {
    const dir = mkdtempSync(join(tmpdir(), "golden-order-"));
    try {
      cpSync(fixture, dir, { recursive: true, filter: (src) => !src.includes("golden") });
      const doc = join(dir, "openapi.yaml");
      const text = stringify(reversed(parse(readFileSync(doc, "utf8"))));
      expect(text.indexOf("components:")).toBeLessThan(text.indexOf("paths:")); // really reordered
      writeFileSync(doc, text);
      const shuffled = await generate({ spec: doc, targets: TARGET_NAMES, out: join(root, "generated") });
      // Validators embed inline schemas as written, so their keyword order may follow the text;
      // everything else must be byte-identical but for the header, which names the copy's path.
      const stable = (list: GeneratedFile[]) =>
        list.filter((f) => !f.path.startsWith("validators/compiled-")).map((f) => ({ path: f.path, contents: f.contents.slice(f.contents.indexOf("\n") + 1) }));
      expect(stable(shuffled)).toEqual(stable(files));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, ceiling(60_000));
});
