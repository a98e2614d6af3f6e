/**
 * The repository's own checks, run by `npm test` as tests: the whole project type-checks
 * (`npm run typecheck`), and the committed `generated/` is what `generate` makes from the spec
 * (`npm run generate:check`; CI fails when it is stale). The spec's lint is test/cli/lint.test.ts
 * ("passes on the committed spec with zero errors").
 *
 * They are tests rather than steps before `vitest run` so that they run beside the other files
 * instead of ahead of them: tsc alone is about 12 s of one core, which on the 2-core CI machine
 * left the other core idle for the whole of it (bench/README.md, "The test suite's time").
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli } from "../cli/run-cli.ts";
import { ceiling } from "../ceilings.ts";

/** tsc in a child process: its output, and whether it exited 0. */
function typecheck(): Promise<{ code: number; output: string }> {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  return new Promise((resolve) => {
    execFile(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

describe.concurrent("the repository", () => {
  it("type-checks: tsc -p tsconfig.json reports no error", async () => {
    const r = await typecheck();
    expect(r, r.output).toEqual({ code: 0, output: "" });
  }, ceiling(180_000));

  it("has generated/ up to date with the spec: generate --check", async () => {
    const r = await runCli(["generate", "--check"]);
    expect({ code: r.code, stderr: r.stderr }, r.stdout).toEqual({ code: 0, stderr: "" });
    expect(r.stdout).toMatch(/^generated\/ is up to date \(\d+ files\)\n$/);
  }, ceiling(180_000));
});
