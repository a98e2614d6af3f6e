/**
 * The run's process bookkeeping, proved on a vitest of its own over the fixtures in fixture/: with
 * the teardown (children.ts) a child left by a test that timed out (at once), by a passing test
 * and an orphan whose shell exited (at the file's end) are all stopped, and the run's closing
 * check finds nothing; with
 * the closing check alone (global-check.ts), the child left running fails the run and is named.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { repoRoot } from "../repo-root.ts";
import { procInfo } from "./proc.ts";
import { ceiling } from "../ceilings.ts";

const vitestBin = join(repoRoot, "node_modules/vitest/vitest.mjs");
let pidsDir: string;

afterEach(() => rmSync(pidsDir, { recursive: true, force: true }));

function vitest(args: string[]): Promise<{ code: number | null; output: string }> {
  pidsDir = mkdtempSync(join(tmpdir(), "sc-fixture-pids-"));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vitestBin, "run", ...args], {
      cwd: repoRoot,
      env: { ...process.env, FIXTURE_PIDS: pidsDir, CI: "", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d));
    child.stderr.on("data", (d: Buffer) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

function fixturePid(name: string): number {
  return Number(readFileSync(join(pidsDir, name), "utf8"));
}

/** Running, and not just a zombie nobody reaped yet. */
function running(pid: number): boolean {
  const info = procInfo(pid);
  return info !== undefined && info.state !== "Z";
}

describe("child processes a test starts", () => {
  test("are stopped when the test passes, times out or leaves an orphan; the closing check passes", async () => {
    const run = await vitest(["--config", "test/processes/fixture/full.config.ts"]);
    // The timed-out fixture fails (that is its point); the other two pass.
    expect(run.output, run.output).toMatch(/Tests\s+1 failed \| 2 passed/);
    expect(run.output).toContain("times out with its child still running");
    for (const name of ["child", "timed-out", "orphan"]) {
      const pid = fixturePid(name);
      expect(running(pid), `${name} (${pid}) is still running:\n${run.output}`).toBe(false);
    }
    // The timed-out test's child at once; the passing test's at its file's end.
    expect(run.output).toMatch(/stopped 1 process\(es\) left running by "times out with its child still running", which failed/);
    expect(run.output).toMatch(/stopped 1 process\(es\) left running by \S*leaves-a-child\.fixture\.ts/);
    expect(run.output).not.toContain("still running after the last test file");
  }, ceiling(120_000));

  test("left running without the teardown, fail the run at its closing check, named", async () => {
    const run = await vitest(["--config", "test/processes/fixture/check-only.config.ts", "leaves-a-child"]);
    const pid = fixturePid("child");
    expect(run.code, run.output).toBe(1);
    expect(run.output).toContain("1 process(es) started by the tests were still running after the last test file (now killed)");
    expect(run.output).toMatch(new RegExp(`${pid} \\S*node -e setInterval`));
    expect(running(pid)).toBe(false);
  }, ceiling(120_000));
});
