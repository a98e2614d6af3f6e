/**
 * The suite's two halves (test/tiers.ts) split the test files between them, each file in exactly
 * one: a file renamed or deleted while still listed would leave the integration half silently
 * smaller, and a config that stopped using the list would run a file twice or never.
 */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import config from "../../vitest.config.ts";
import { repoRoot } from "../repo-root.ts";
import { INTEGRATION } from "../tiers.ts";

const testFiles = readdirSync(join(repoRoot, "test"), { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith(".test.ts"))
  .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)).replaceAll("\\", "/"))
  .sort();

interface ProjectConfig {
  test: { name: string; include?: string[]; exclude?: string[] };
}

describe("the suite's two halves", () => {
  it.each(INTEGRATION)("the integration half names an existing test file: %s", (file) => {
    expect(testFiles).toContain(file);
  });

  it("names each file once", () => {
    expect(new Set(INTEGRATION).size).toBe(INTEGRATION.length);
  });

  it("leaves the core half most of the files, the repository's checks among them", () => {
    const core = testFiles.filter((file) => !INTEGRATION.includes(file));
    expect(core.length).toBeGreaterThan(INTEGRATION.length * 2);
    expect(core).toEqual(expect.arrayContaining(["test/repository/checks.test.ts", "test/cli/skeleton.test.ts"]));
  });

  it("vitest.config.ts makes them its two projects: core excludes what integration includes", () => {
    const projects = (config as { test: { projects: ProjectConfig[] } }).test.projects;
    expect(projects.map((p) => p.test.name)).toEqual(["core", "integration"]);
    const [core, integration] = projects as [ProjectConfig, ProjectConfig];
    expect(core.test.include).toEqual(["test/**/*.test.ts"]);
    expect(core.test.exclude).toEqual(expect.arrayContaining([...INTEGRATION]));
    expect(integration.test.include).toEqual([...INTEGRATION]);
  });
});
