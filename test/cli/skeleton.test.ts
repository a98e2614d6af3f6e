/**
 * The project skeleton users and CI rely on: package.json (name, ESM, bin, engines, exact pins
 * from DESIGN.md, public exports), the committed lock file, a strict NodeNext tsconfig, the
 * top-level folders, a README with the two set-up commands and an example of every subcommand,
 * and .ci/run running the README's test command. Each of these broke silently at least once in
 * projects like this one (a `^` creeping into a pin, a subcommand added without docs).
 */
import { execFileSync } from "node:child_process";
import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli } from "./run-cli.ts";
import { INTEGRATION } from "../tiers.ts";

const read = (path: string): string => readFileSync(join(repoRoot, path), "utf8");
const pkg = JSON.parse(read("package.json")) as {
  name: string;
  type: string;
  bin: Record<string, string>;
  engines: { node: string };
  exports: Record<string, string | { "service-contract-source": string; types: string; default: string }>;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const allDeps = { ...pkg.dependencies, ...pkg.devDependencies };

/** DESIGN.md's dependency table: the exact version, or the line (`4.23.` for 4.23.x) it pins. */
const DESIGN_PINS: Record<string, string> = {
  "@apidevtools/swagger-parser": "13.0.0",
  "openapi-typescript": "7.13.0",
  typescript: "5.9.3",
  tsx: "4.23.",
  ajv: "8.20.0",
  "ajv-formats": "3.0.1",
  handlebars: "4.7.10",
  "ts-morph": "28.0.0",
  "@stoplight/prism-cli": "5.14.2",
  vitest: "4.1.",
  fastify: "5.",
  "@electric-sql/pglite": "0.5.16",
  pg: "8.",
  "pg-boss": "10.4.2",
  "fast-xml-parser": "5.",
  commander: "14.",
  autocannon: "9.",
  "@redocly/cli": "",
  "playwright-core": "",
  tinybench: "",
};

describe("package.json", () => {
  it("is the ESM package service-contract with its bin and Node >= 20.19", () => {
    expect(pkg.name).toBe("service-contract");
    expect(pkg.type).toBe("module");
    expect(pkg.bin).toEqual({ "service-contract": "bin/service-contract.js" });
    expect(existsSync(join(repoRoot, pkg.bin["service-contract"]!))).toBe(true);
    expect(pkg.engines.node).toBe(">=20.19");
  });

  it("pins every dependency to an exact version", () => {
    const loose = Object.entries(allDeps).filter(([, v]) => !/^\d+\.\d+\.\d+$/.test(v));
    expect(loose, "no ranges (^, ~, *, tags)").toEqual([]);
  });

  it.each(Object.entries(DESIGN_PINS))("pins %s as DESIGN.md says", (name, version) => {
    expect(allDeps[name], `${name} in package.json`).toBeDefined();
    if (/^\d+\.\d+\.\d+$/.test(version)) expect(allDeps[name]).toBe(version);
    else expect(allDeps[name]!.startsWith(version)).toBe(true);
  });

  // A code export names its source (the `service-contract-source` condition, which a clone's
  // tsconfig and tests use) and the compiled file and declarations built from it into dist/ (what
  // an installed package resolves; test/package/consumer.test.ts imports each of those).
  it("exports the public subpaths: each source exists, and its dist/ targets are its compiled form", () => {
    for (const sub of ["./validators", "./types", "./client", "./server", "./conformance", "./spec"]) expect(Object.keys(pkg.exports)).toContain(sub);
    const stem = (file: string) => file.replace(/^\.\/(dist\/)?/, "").replace(/(\.d)?\.[jt]s$/, "");
    for (const [sub, target] of Object.entries(pkg.exports)) {
      if (sub.includes("*")) continue;
      if (typeof target === "string") {
        expect(existsSync(join(repoRoot, target)), `${sub} → ${target}`).toBe(true);
        continue;
      }
      const source = target["service-contract-source"];
      expect(existsSync(join(repoRoot, source)), `${sub} → ${source}`).toBe(true);
      expect(Object.keys(target), sub).toEqual(["service-contract-source", "types", "default"]);
      expect(target.types, sub).toBe(`./dist/${stem(source)}.d.ts`);
      expect(target.default, sub).toBe(`./dist/${stem(source)}.js`);
    }
  });

  it("has the scripts DESIGN.md names, and npm test runs the typecheck, the spec lint, generate --check and the core tests", () => {
    for (const script of ["generate", "generate:check", "typecheck", "lint", "test", "bench"]) expect(pkg.scripts[script], script).toBeDefined();
    expect(pkg.scripts.typecheck).toBe("tsc -p tsconfig.json");
    expect(pkg.scripts.lint).toMatch(/service-contract(\.js)? lint/);
    expect(pkg.scripts["generate:check"]).toMatch(/service-contract(\.js)? generate --check/);
    // The checks run as a test file beside the others (test/repository/checks.test.ts), not as
    // steps ahead of them, so `npm test` is vitest alone: the core half, with
    // the checks in it (test/tiers.ts); the integration half and both have their own scripts.
    expect(pkg.scripts.test).toBe("vitest run --project core");
    expect(pkg.scripts["test:integration"]).toBe("vitest run --project integration");
    expect(pkg.scripts["test:all"]).toBe("vitest run");
    expect(INTEGRATION).not.toContain("test/repository/checks.test.ts");
    const checks = readFileSync(join(repoRoot, "test/repository/checks.test.ts"), "utf8");
    expect(checks).toContain('[tsc, "-p", "tsconfig.json"]');
    expect(checks).toContain('runCli(["generate", "--check"])');
    expect(checks).toContain('runCli(["lint"])');
  });

  it("commits package-lock.json, in step with package.json", () => {
    const tracked = execFileSync("git", ["ls-files", "package-lock.json"], { cwd: repoRoot, encoding: "utf8" }).trim();
    expect(tracked).toBe("package-lock.json");
    const lock = JSON.parse(read("package-lock.json")) as { packages: Record<string, { dependencies?: Record<string, string>; devDependencies?: Record<string, string>; version?: string }> };
    const rootEntry = lock.packages[""]!;
    expect({ ...rootEntry.dependencies, ...rootEntry.devDependencies }).toEqual(allDeps);
    for (const [name, version] of Object.entries(allDeps)) expect(lock.packages[`node_modules/${name}`]?.version, name).toBe(version);
  });
});

describe("tsconfig.json and the layout", () => {
  it("is strict and NodeNext", () => {
    const tsconfig = JSON.parse(read("tsconfig.json")) as { compilerOptions: Record<string, unknown> };
    expect(tsconfig.compilerOptions).toMatchObject({ strict: true, module: "NodeNext", moduleResolution: "NodeNext" });
  });

  it.each(["spec", "generators", "templates", "generated", "conformance", "reference", "bench"])("has the folder %s/", (dir) => {
    expect(statSync(join(repoRoot, dir)).isDirectory()).toBe(true);
  });
});

describe("README.md and .ci/run", () => {
  const readme = read("README.md");

  it("gives the two set-up commands: the main job and the tests", () => {
    expect(readme).toMatch(/```sh\nnpm ci && npm start\n```/);
    expect(readme).toMatch(/```sh\nnpm ci && npm test\n```/);
    expect(pkg.scripts.start).toMatch(/service-contract(\.js)? serve/);
  });

  it("documents every subcommand with a section and an example", async () => {
    const help = (await runCli(["--help"])).stdout;
    const subs = [...(help.split("Commands:")[1] ?? "").matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!).filter((s) => s !== "help");
    expect(subs.length).toBeGreaterThanOrEqual(7);
    for (const sub of subs) {
      expect(readme, `README section for ${sub}`).toMatch(new RegExp(`^### \`${sub}\``, "m"));
      expect(readme, `README example for ${sub}`).toMatch(new RegExp(`^npx service-contract ${sub}\\b`, "m"));
    }
  });

  it(".ci/run is executable, installs with npm ci and runs the README's test command", () => {
    const script = join(repoRoot, ".ci/run");
    accessSync(script, constants.X_OK);
    const body = read(".ci/run");
    expect(body).toMatch(/^npm ci\b/m);
    expect(body).toMatch(/\bnpm test\b/);
    // …and the other half, which the README names beside it.
    expect(body).toMatch(/\bnpm run test:integration\b/);
    expect(readme).toMatch(/```sh\nnpm run test:integration\n```/);
    expect(body).toMatch(/set -euo pipefail/);
  });
});
