/**
 * Every time limit a test file gives vitest (a test's or a hook's) is a ceiling scaled for a busy
 * machine (test/ceilings.ts), not a number: fifteen files written with literal limits (`}, 300_000)`)
 * failed on a 2-core machine at load 15, where Spectral alone took longer than its five minutes.
 * Fixtures that time out on purpose (test/processes/fixture/) are exempt.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../repo-root.ts";

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "fixture" ? [] : files(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

/** A line `}, 60_000);` (or `}, 60000)`) closing an it/test/describe/hook: a limit in plain milliseconds. */
const LITERAL_LIMIT = /^\s*\},\s*\d[\d_]{2,}\s*\);?\s*$/gm;
/** A named limit given to them instead (`const RUN_TIMEOUT_MS = 120_000;`): nine files had one. */
const LITERAL_CONSTANT = /^\s*(?:export )?const \w*TIMEOUT\w* = \d[\d_]{2,};\s*$/gm;

describe("time limits in test files", () => {
  it("are ceiling(…), never a literal number of milliseconds", () => {
    // The servers written blind are targets, not tests: their own time-outs (a delivery's 10 s) are the server's.
    const target = /test\/conformance\/blind-[\w-]+\/(?![\w-]+\.test\.ts$)/;
    const found = files(join(repoRoot, "test")).filter((file) => !target.test(relative(repoRoot, file))).flatMap((file) => {
      const text = readFileSync(file, "utf8");
      return [...text.matchAll(LITERAL_LIMIT), ...text.matchAll(LITERAL_CONSTANT)].map((m) => `${relative(repoRoot, file)}:${text.slice(0, m.index).split("\n").length}: ${m[0]}`);
    });
    expect(found).toEqual([]);
  });

  it("the check finds a literal limit", () => {
    expect("it('x', async () => {\n  }, 300_000);\n".match(LITERAL_LIMIT)).toHaveLength(1);
    expect("it('x', async () => {\n  }, ceiling(60_000));\n".match(LITERAL_LIMIT)).toBeNull();
    expect('spawn("node", ["-e", "setTimeout(() => {}, 60000)"]);'.match(LITERAL_LIMIT)).toBeNull();
    expect("const RUN_TIMEOUT_MS = 120_000;\n".match(LITERAL_CONSTANT)).toHaveLength(1);
    expect("const RUN_TIMEOUT_MS = ceiling(60_000);\n".match(LITERAL_CONSTANT)).toBeNull();
  });
});
