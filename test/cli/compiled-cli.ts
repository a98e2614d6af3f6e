/**
 * The command the CLI tests run: compiled, as the installed package runs it, not the clone's
 * TypeScript through tsx. In a clone `bin/service-contract.js` compiles every module it loads on
 * the fly, ~0.6–1.7 s more CPU for each of the ~200 commands the suite starts; what the tests prove
 * about the commands is the same either way, and the launcher itself keeps its own tests
 * (launcher-signals starts it through npm and npx; the README's `npx service-contract` blocks and
 * `bench`, which exists in a clone only, run it as run-cli.ts's `launcherBin`).
 *
 * dist/ is built here, once per test run, before any test file that imports this module (through
 * run-cli.ts, serve-child.ts or packed.ts) runs a test: the module waits for it at import, which
 * vitest gives no time limit. The build is `npm run prepack`, exactly what `npm pack` runs before
 * packing (packed.ts then packs this dist/ with --ignore-scripts rather than compile it again), and
 * it is skipped only when dist-build.ts's stamp proves dist/ is what the current sources build. A
 * fresh clone has no dist/, so it builds; a build that fails fails every file that needs it, with
 * tsc's output.
 *
 * The binary is the repository's own `bin/service-contract.js`, copied into a folder laid out as
 * the installed package is (`bin/` beside `dist/`, which links to this dist/ and holds no sources),
 * so it takes the same branch it takes for a user who installed the package.
 */
import { existsSync, mkdirSync, readFileSync, readlinkSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../repo-root.ts";
import { ceiling } from "../ceilings.ts";
import { RUN_DIR_VARIABLE } from "../processes/marks.ts";
import { ensureBuilt, type BuildPlan } from "./dist-build.ts";

const build = JSON.parse(readFileSync(join(repoRoot, "tsconfig.build.json"), "utf8").replace(/^\s*\/\/.*$/gm, "")) as { include: string[] };

/** Kept in node_modules/.cache: neither committed nor packed, and gone with a fresh `npm ci`. */
const stateDir = join(repoRoot, "node_modules/.cache/service-contract-dist");

export const distPlan: BuildPlan = {
  root: repoRoot,
  // What tsconfig.build.json compiles, its settings, and what decides how: the build script,
  // package.json (the prepack and build scripts) and the lock file (TypeScript's version).
  inputs: [...build.include, "tsconfig.json", "tsconfig.build.json", "scripts/build.js", "package.json", "package-lock.json"],
  output: "dist",
  command: ["npm", ["run", "prepack"]],
  // npm as the user runs it, without the settings of an `npm test` that may be running this file.
  env: {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_"))),
    npm_config_update_notifier: "false",
  },
  stateDir,
  runDir: process.env[RUN_DIR_VARIABLE],
  waitMs: ceiling(300_000),
};

/**
 * `vitest` in watch mode keeps this module, and the run's verdict, across its re-runs while the
 * sources change under it: there the tests run the sources through the launcher instead.
 */
export const watching = process.env.VITEST_MODE === "WATCH";

if (!watching) await ensureBuilt(distPlan);

/** Writes `path` only when its content differs, by rename: a command starting from it never reads half a file. */
function place(path: string, content: string): void {
  if (existsSync(path) && readFileSync(path, "utf8") === content) return;
  writeFileSync(`${path}.${process.pid}.tmp`, content);
  renameSync(`${path}.${process.pid}.tmp`, path);
}

const installed = join(stateDir, "installed");
if (!watching) {
  mkdirSync(join(installed, "bin"), { recursive: true });
  place(join(installed, "bin/service-contract.js"), readFileSync(join(repoRoot, "bin/service-contract.js"), "utf8"));
  // package.json says the bin is an ES module, as the package's own does.
  place(join(installed, "package.json"), readFileSync(join(repoRoot, "package.json"), "utf8"));
  let linked: string | undefined;
  try {
    linked = readlinkSync(join(installed, "dist"));
  } catch {
    linked = undefined;
  }
  if (linked !== join(repoRoot, "dist")) {
    const draft = join(installed, `dist.${process.pid}.tmp`);
    symlinkSync(join(repoRoot, "dist"), draft, "dir");
    renameSync(draft, join(installed, "dist"));
  }
}

/** `node <compiledBin> …` runs this checkout's compiled command (in watch mode: its launcher). */
export const compiledBin = watching ? join(repoRoot, "bin/service-contract.js") : join(installed, "bin/service-contract.js");
