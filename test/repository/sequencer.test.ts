/**
 * The slow-first order of test/sequencer.ts names real files: a renamed or deleted test file left
 * in the list would silently stop being started early.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SLOW_FIRST } from "../sequencer.ts";
import { repoRoot } from "../repo-root.ts";

describe("the slow-first test order", () => {
  it.each(SLOW_FIRST)("names an existing test file: %s", (file) => {
    expect(existsSync(join(repoRoot, file))).toBe(true);
    expect(file).toMatch(/^test\/.+\.test\.ts$/);
  });

  it("names each file once", () => {
    expect(new Set(SLOW_FIRST).size).toBe(SLOW_FIRST.length);
  });
});
