/**
 * The compiled command the CLI tests run (compiled-cli.ts) and the once-per-run build behind it
 * (dist-build.ts). The build's rules run on a small project of their own here — a build script that
 * counts its runs and fails on demand — so that a stale output, a failure and two workers asking at
 * once are each seen to do what they must: rebuild, fail with the build's output, build once.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureBuilt, isCurrent, type BuildPlan } from "./dist-build.ts";
import { compiledBin, distPlan, watching } from "./compiled-cli.ts";
import { cliBin, launcherBin, repoRoot, runCli } from "./run-cli.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "sc-dist-build-"));
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src/a.txt"), "one");
  // Writes out/ from src/, counting its runs in runs.txt; fails when the source says FAIL.
  writeFileSync(
    join(dir, "build.mjs"),
    `import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
appendFileSync("runs.txt", "x");
const text = readFileSync("src/a.txt", "utf8");
rmSync("out", { recursive: true, force: true });
if (text.includes("FAIL")) { console.error("src/a.txt: error TS2322: not buildable"); process.exit(2); }
mkdirSync("out");
writeFileSync("out/a.js", text.toUpperCase());
`,
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const plan = (runDir?: string): BuildPlan => ({
  root: dir,
  inputs: ["src", "build.mjs"],
  output: "out",
  command: [process.execPath, ["build.mjs"]],
  stateDir: join(dir, "state"),
  ...(runDir ? { runDir } : {}),
  waitMs: 60_000,
});
const runs = () => readFileSync(join(dir, "runs.txt"), "utf8").length;

describe("the once-per-run build", () => {
  it("builds a project without output, then finds it current until an input changes", async () => {
    expect(await ensureBuilt(plan())).toBe("built");
    expect(readFileSync(join(dir, "out/a.js"), "utf8")).toBe("ONE");
    expect(await ensureBuilt(plan())).toBe("current");
    expect(runs()).toBe(1);

    writeFileSync(join(dir, "src/a.txt"), "two");
    expect(isCurrent(plan())).toBe(false);
    expect(await ensureBuilt(plan())).toBe("built");
    expect(readFileSync(join(dir, "out/a.js"), "utf8")).toBe("TWO");
    expect(runs()).toBe(2);
  });

  it("never takes an output it did not stamp, nor one changed or removed since, for current", async () => {
    // Left by another checkout: right name, no stamp.
    mkdirSync(join(dir, "out"));
    writeFileSync(join(dir, "out/a.js"), "STALE");
    expect(await ensureBuilt(plan())).toBe("built");
    expect(readFileSync(join(dir, "out/a.js"), "utf8")).toBe("ONE");

    writeFileSync(join(dir, "out/a.js"), "EDITED BY HAND");
    expect(await ensureBuilt(plan())).toBe("built");
    rmSync(join(dir, "out"), { recursive: true });
    expect(await ensureBuilt(plan())).toBe("built");
    writeFileSync(join(dir, "out/extra.js"), "");
    expect(await ensureBuilt(plan())).toBe("built");
    expect(runs()).toBe(4);
  });

  it("fails with the build's own output, and an output from before is not current afterwards", async () => {
    expect(await ensureBuilt(plan())).toBe("built");
    writeFileSync(join(dir, "src/a.txt"), "FAIL");
    const error = await ensureBuilt(plan()).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("build.mjs exited 2");
    expect((error as Error).message).toContain("src/a.txt: error TS2322: not buildable");
    writeFileSync(join(dir, "src/a.txt"), "one");
    // The inputs are those of the last good build again, but that output is gone: built again.
    expect(await ensureBuilt(plan())).toBe("built");
  });

  it("builds once for workers asking at the same time, and shares a failure without building again", async () => {
    const runDir = join(dir, "run");
    mkdirSync(runDir);
    expect(await Promise.all([ensureBuilt(plan(runDir)), ensureBuilt(plan(runDir)), ensureBuilt(plan(runDir))])).toEqual(["built", "built", "built"]);
    expect(runs()).toBe(1);

    writeFileSync(join(dir, "src/a.txt"), "FAIL");
    const otherRun = join(dir, "run2");
    mkdirSync(otherRun);
    const results = await Promise.allSettled([ensureBuilt(plan(otherRun)), ensureBuilt(plan(otherRun))]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    const messages = results.map((r) => String((r as PromiseRejectedResult).reason));
    expect(messages.every((m) => m.includes("not buildable"))).toBe(true);
    expect(messages.some((m) => m.includes("in another test file of this run"))).toBe(true);
    expect(runs()).toBe(2);
  });

  it("fails the other files of a run whose building worker died, rather than wait or build again", async () => {
    const runDir = join(dir, "run");
    expect(await ensureBuilt(plan(runDir))).toBe("built");
    const [lock] = readdirSync(runDir).filter((n) => n.endsWith(".lock"));
    rmSync(join(runDir, lock!.replace(/\.lock$/, ".json")));
    writeFileSync(join(runDir, lock!, "owner"), "999999999 1");
    await expect(ensureBuilt(plan(runDir))).rejects.toThrow(/exited without a verdict/);
    expect(runs()).toBe(1);
  });

  it("takes over a checkout's lock left by a process that is gone", async () => {
    mkdirSync(join(dir, "state/build.lock"), { recursive: true });
    writeFileSync(join(dir, "state/build.lock/owner"), "999999999 1");
    expect(await ensureBuilt(plan())).toBe("built");
  });
});

// In watch mode the tests run the sources instead (compiled-cli.ts): nothing compiled to check.
describe.skipIf(watching)("the command the CLI tests run", () => {
  it("is the package's bin beside this checkout's dist/, built by npm pack's own prepack and current", () => {
    expect(cliBin).toBe(compiledBin);
    expect(readFileSync(compiledBin, "utf8")).toBe(readFileSync(join(repoRoot, "bin/service-contract.js"), "utf8"));
    expect(distPlan.command).toEqual(["npm", ["run", "prepack"]]);
    const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.prepack).toBe("npm run build");
    expect(pkg.scripts.build).toBe("node scripts/build.js");
    expect(isCurrent(distPlan)).toBe(true);
  });

  it("runs compiled code, and the launcher the clone's sources", async () => {
    // `bench` loads bench/*.ts, which only a clone has: the compiled command says so in its help.
    const compiled = await runCli(["bench", "--help"]);
    expect(compiled.code).toBe(0);
    expect(compiled.stdout).toContain("(in a clone of the repository only)");
    const launcher = spawnSync(process.execPath, [launcherBin, "bench", "--help"], { cwd: repoRoot, encoding: "utf8" });
    expect(launcher.status).toBe(0);
    expect(launcher.stdout).not.toContain("(in a clone of the repository only)");
    expect(launcher.stdout).toContain("validators");
  });
});
