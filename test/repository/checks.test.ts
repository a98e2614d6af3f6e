/**
 * The repository's own checks, run by `npm test` as tests: the whole project type-checks
 * (what `npm run typecheck` checks), the committed `generated/` is what `generate` makes from
 * the spec (`npm run generate:check`; CI fails when it is stale), and the spec passes its lint
 * (`npm run lint`; the lint command's own behaviour on broken copies is test/cli/lint.test.ts's).
 *
 * They are tests rather than steps before `vitest run` so that they run beside the other files
 * instead of ahead of them: tsc alone is about 12 s of one core, which on the 2-core CI machine
 * left the other core idle for the whole of it (bench/README.md, "The test suite's time").
 *
 * The typecheck is made of two halves that, together, are `tsc -p tsconfig.json`, so that no
 * source is checked twice in a run. The run's dist/ build (test/cli/compiled-cli.ts: tsc with
 * tsconfig.build.json, under the same settings) has type-checked the package's sources — it fails
 * on any error, with tsc's output, and dist-build.ts's stamp reuses it only for the very same
 * sources, settings and TypeScript. Then tsconfig.dev.json checks the rest (test/, bench/,
 * scripts/, vitest.config.ts) against the declarations that build wrote, as a project reference;
 * its incremental record is kept between runs (node_modules/.cache), so that an unchanged file
 * whose imports did not change is not checked again. The second test below proves that the two
 * halves cover every file tsconfig.json does, with the same checking settings. In watch mode no
 * dist/ is built, and the whole project is checked as `npm run typecheck` does.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, renameSync, copyFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli } from "../cli/run-cli.ts";
import { distPlan, watching } from "../cli/compiled-cli.ts";
import { ensureBuilt } from "../cli/dist-build.ts";
import { ceiling } from "../ceilings.ts";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/** Where tsconfig.dev.json's incremental record is kept between runs: never committed nor packed. */
const recordDir = join(repoRoot, "node_modules/.cache/service-contract-typecheck");

/** node with `args` (tsc and its arguments) in a child process: its output, and whether it exited 0. */
function run(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

/**
 * tsconfig.dev.json, incrementally. tsc reads and rewrites its record in place, so it works on a
 * copy of its own (beside the record: the record names files relative to where it is) that then
 * replaces the record whole; two runs at once each read a whole record. A record tsc cannot use
 * (another TypeScript, other settings, unreadable) makes it check everything.
 */
async function typecheckDev(): Promise<{ code: number; output: string }> {
  mkdirSync(recordDir, { recursive: true });
  const record = join(recordDir, "tsconfig.dev.tsbuildinfo");
  const mine = `${record}.${process.pid}`;
  if (existsSync(record)) copyFileSync(record, mine);
  try {
    const result = await run([tsc, "-p", "tsconfig.dev.json", "--incremental", "--tsBuildInfoFile", mine]);
    if (existsSync(mine)) renameSync(mine, record);
    return result;
  } finally {
    rmSync(mine, { force: true });
  }
}

/** A tsconfig file as tsc reads it: its files and its settings. */
function parse(name: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(repoRoot, name), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  });
  if (!parsed) throw new Error(`${name} could not be read`);
  expect(parsed.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")), name).toEqual([]);
  return parsed;
}

/** The settings of `b` that differ from `a`'s, by name. */
function differing(a: ts.CompilerOptions, b: ts.CompilerOptions): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).sort();
}

describe.concurrent("the repository", () => {
  it("type-checks: tsc reports no error in the package's sources (the dist/ build) nor in the rest (tsconfig.dev.json)", async () => {
    if (watching) {
      const whole = await run([tsc, "-p", "tsconfig.json"]);
      expect(whole, whole.output).toEqual({ code: 0, output: "" });
      return;
    }
    // The run's build, made or found current (then it was made from these very inputs): it throws
    // with tsc's output when the sources do not type-check.
    await ensureBuilt(distPlan);
    const rest = await typecheckDev();
    expect(rest, rest.output).toEqual({ code: 0, output: "" });
  }, ceiling(180_000));

  it("checks every file tsconfig.json does, with its settings, in the build's and the development project's halves", () => {
    const whole = parse("tsconfig.json");
    const build = parse("tsconfig.build.json");
    const dev = parse("tsconfig.dev.json");
    const names = (p: ts.ParsedCommandLine) => p.fileNames.map((f) => relative(repoRoot, f));
    // Each file in exactly one half, and together every file of the whole.
    expect(names(build).filter((f) => names(dev).includes(f))).toEqual([]);
    expect([...names(build), ...names(dev)].sort()).toEqual(names(whole).sort());
    expect(names(build).length).toBeGreaterThan(100);
    expect(names(dev).some((f) => f.startsWith("test/"))).toBe(true);
    // The development project reads the build's declarations, under the whole's settings.
    expect(dev.projectReferences?.map((r) => relative(repoRoot, r.path))).toEqual(["tsconfig.build.json"]);
    expect(differing(whole.options, dev.options)).toEqual(["configFilePath"]);
    // The build differs in what it writes and where, never in what it checks (strict,
    // noUncheckedIndexedAccess, …); without the source condition it resolves the package's own
    // name to dist/, which no source imports.
    expect(differing(whole.options, build.options)).toEqual([
      "allowImportingTsExtensions",
      "composite",
      "configFilePath",
      "customConditions",
      "declaration",
      "noEmit",
      "outDir",
      "rewriteRelativeImportExtensions",
      "rootDir",
      "sourceMap",
      "tsBuildInfoFile",
    ]);
  });

  it("lints the committed spec with zero errors: lint", async () => {
    const r = await runCli(["lint"]);
    expect(r.stdout + r.stderr).toMatch(/spec\/openapi\.yaml: 0 error\(s\)/);
    expect(r.code).toBe(0);
  }, ceiling(45_000));

  it("has generated/ up to date with the spec: generate --check", async () => {
    const r = await runCli(["generate", "--check"]);
    expect({ code: r.code, stderr: r.stderr }, r.stdout).toEqual({ code: 0, stderr: "" });
    expect(r.stdout).toMatch(/^generated\/ is up to date \(\d+ files\)\n$/);
  }, ceiling(180_000));
});
