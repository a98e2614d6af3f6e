#!/usr/bin/env node
/**
 * `npm run build`, run by `npm pack` and `npm publish` through `prepack`: what an installed
 * package runs, compiled from this repository's sources. `node scripts/build.js` builds the
 * toolkit into `dist/` (tsc with tsconfig.build.json, which rewrites the sources' `.ts` imports
 * to `.js`, plus the generated validators, which are JavaScript already);
 * `node scripts/build.js validators` builds the light `packages/validators` from the same
 * `generated/` folder, so the two packages never hold different validators. Plain JavaScript, so
 * it needs nothing but TypeScript (a dependency) to run.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

function compile(project) {
  const result = spawnSync(process.execPath, [tsc, "-p", project], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`tsc -p ${project} failed`);
}

/**
 * The generated validators: JavaScript and their declarations, copied as they are, with the
 * folders of compiled functions (compiled-bodies/*.cjs, one module per function).
 */
function copyValidators(to, from = join(root, "generated", "validators")) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const name = entry.name;
    if (entry.isDirectory()) copyValidators(join(to, name), join(from, name));
    else if (name.endsWith(".js") || name.endsWith(".cjs") || name.endsWith(".d.ts")) copyFileSync(join(from, name), join(to, name));
  }
}

function readJson(path) {
  return JSON.parse(readFileSync(join(root, path), "utf8"));
}

/**
 * The light package repeats three facts of the toolkit's package.json: the version and the pins
 * of ajv and ajv-formats, whose runtime the precompiled validators call. Packing it with any of
 * them different would publish validators that run against another ajv than they were made with.
 */
function checkValidatorsPackage() {
  const main = readJson("package.json");
  const light = readJson("packages/validators/package.json");
  const problems = [];
  if (light.version !== main.version) problems.push(`version ${light.version}, the toolkit's is ${main.version}`);
  for (const dep of ["ajv", "ajv-formats"]) {
    if (light.dependencies[dep] !== main.dependencies[dep]) problems.push(`${dep} ${light.dependencies[dep]}, the toolkit pins ${main.dependencies[dep]}`);
  }
  const xml = light.peerDependencies["fast-xml-parser"];
  if (xml !== `^${main.dependencies["fast-xml-parser"]}`) problems.push(`fast-xml-parser peer ${xml}, the toolkit pins ${main.dependencies["fast-xml-parser"]}`);
  if (problems.length > 0) throw new Error(`packages/validators/package.json disagrees with package.json: ${problems.join("; ")}`);
}

function buildToolkit() {
  rmSync(join(root, "dist"), { recursive: true, force: true });
  compile("tsconfig.build.json");
  // tsconfig.build.json is a composite project (tsconfig.dev.json checks test/ and bench/ against
  // its declarations), so tsc records what it built beside its output; the package does not ship it.
  rmSync(join(root, "dist", "tsconfig.build.tsbuildinfo"), { force: true });
  copyValidators(join(root, "dist", "generated", "validators"));
}

function buildValidatorsPackage() {
  checkValidatorsPackage();
  const dist = join(root, "packages", "validators", "dist");
  rmSync(dist, { recursive: true, force: true });
  compile("packages/validators/tsconfig.json");
  copyValidators(join(dist, "validators"));
}

const what = process.argv[2] ?? "toolkit";
if (what === "toolkit") buildToolkit();
else if (what === "validators") buildValidatorsPackage();
else {
  process.stderr.write(`usage: node scripts/build.js [toolkit|validators]\n`);
  process.exit(2);
}
