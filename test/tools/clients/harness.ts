/**
 * What each third-party generator's test shares (test/tools/<tool>.test.ts): a scratch project
 * under .tmp/tools/<tool> (inside the repository, so the generated code resolves the tool's
 * runtime from node_modules), the contract as another project finds it (the package's `./spec`
 * export, the multi-file source), a strict type check of the generated client with a usage
 * module, and the calls every client must make correctly against a running reference.
 *
 * The usage module (usage.ts, written by each test beside the generated code) exports
 * `run(baseUrl)`, which uses only the generated client and reports what it saw as an Outcome.
 *
 * Strictly means strictly: a generated file's `// @ts-nocheck` (swagger-typescript-api writes
 * one) is removed before tsc runs, so no file is skipped.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../repo-root.ts";
import { useServer, type TestServer } from "../../reference/harness.ts";
import { ADMIN_TOKEN, simulate } from "../../reference/deliveries-fixtures.ts";
import { ceiling } from "../../ceilings.ts";

/** The contract as a consumer resolves it: `service-contract/spec` (spec/openapi.yaml, with its schema files beside it). */
export const SPEC = createRequire(join(repoRoot, "package.json")).resolve("service-contract/spec");

export const run = promisify(execFile);

/** An empty scratch folder for `tool`, with a strict tsconfig covering everything in it. */
export function scratch(tool: string, include: string[] = ["**/*.ts"]): string {
  const dir = join(repoRoot, ".tmp/tools", tool);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tsconfig = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "Bundler",
      lib: ["ES2022", "DOM", "DOM.Iterable"],
      types: [],
      // The tools' own published declarations are theirs to check; what they generated is checked.
      skipLibCheck: true,
      allowImportingTsExtensions: true,
    },
    include,
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
  return dir;
}

/** Removes `// @ts-nocheck` from every .ts file under `dir`: the checks below skip no file. */
export function removeNoCheck(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, "utf8");
    const checked = text.replace(/^[ \t]*\/\/[ \t]*@ts-nocheck[^\n]*\n/gm, "");
    if (checked !== text) writeFileSync(file, checked);
  }
}

/** `tsc -p dir` (strict, no `@ts-nocheck` left); resolves with its output, rejects with it when there are errors. */
export async function typecheck(dir: string): Promise<void> {
  removeNoCheck(dir);
  const tsc = join(repoRoot, "node_modules/.bin/tsc");
  const result = await run(tsc, ["-p", join(dir, "tsconfig.json"), "--pretty", "false"], { cwd: dir, maxBuffer: 16 * 1024 * 1024 }).catch((e: { stdout?: string; stderr?: string }) => ({
    stdout: `${e.stdout ?? ""}${e.stderr ?? ""}`,
    failed: true,
  }));
  expect("failed" in result ? result.stdout : "", "tsc --strict on the generated client and its use").toBe("");
}

export interface Outcome {
  feed: { status: number; etag: string | null; ids: string[] };
  notModified: { status: number };
  issueEvents: { status: number; events: string[] };
  hooks: { status: number; names: string[] };
}

export const REPO = { owner: "octocat", repo: "hello-world" } as const;

/** A reference (response validation on) whose feeds and issue events have something in them: issues opened, one closed. */
export function useReference(): TestServer {
  const t = useServer({ adminToken: ADMIN_TOKEN });
  beforeAll(async () => {
    await simulate(t.api, "issues", { count: 2 });
    await simulate(t.api, "issues", { params: { action: "closed", number: "1" } });
  }, ceiling(30_000));
  return t;
}

/** What the same calls answer through plain fetch: what the generated client must have seen. */
export async function expectCallsReference(api: string, outcome: Outcome): Promise<void> {
  const feed = await fetch(`${api}/events`);
  const ids = ((await feed.json()) as { id: string }[]).map((e) => e.id);
  expect(ids.length).toBeGreaterThan(0);
  expect(outcome.feed).toEqual({ status: 200, etag: feed.headers.get("etag"), ids });
  expect(outcome.notModified).toEqual({ status: 304 });
  const events = (await (await fetch(`${api}/repos/${REPO.owner}/${REPO.repo}/issues/events`)).json()) as { event: string }[];
  expect(events.length).toBeGreaterThan(0);
  expect(outcome.issueEvents).toEqual({ status: 200, events: events.map((e) => e.event) });
  const hooks = (await (await fetch(`${api}/hooks`)).json()) as { name: string }[];
  expect(hooks.length).toBeGreaterThan(0);
  expect(outcome.hooks).toEqual({ status: 200, names: hooks.map((h) => h.name) });
}

/**
 * The two checks every generator's test makes once its `beforeAll` has generated the client into
 * `dir()` and written usage.ts: the whole project type-checks strictly, and the usage calls a
 * running reference correctly.
 */
export function describeGeneratedClient(tool: string, dir: () => string): void {
  describe(tool, () => {
    const t = useReference();
    it("the generated client and its use type-check strictly", async () => {
      await typecheck(dir());
    }, ceiling(90_000));

    it("calls the reference correctly", async () => {
      const usage = (await import(join(dir(), "usage.ts"))) as { run: (base: string) => Promise<Outcome> };
      await expectCallsReference(t.api, await usage.run(t.api));
    }, ceiling(30_000));
  });
}
