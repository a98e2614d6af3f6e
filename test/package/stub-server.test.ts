/**
 * README's "A server from the stubs", as another team builds it: the packed package installed
 * into an empty ESM project (the run's one, copied), TypeScript 5 and openapi-typescript added as
 * README says, then README's own files (tsconfig.json, server.ts, profile.yaml: the fenced blocks
 * marked `<!-- stub-server: NAME -->`, written verbatim) and its commands (build.sh: generate the
 * types, validators and server stubs, and compile with `tsc --strict`; check.sh: start the server
 * and run `conformance --only feeds,issue-events` with the profile). Only the port is changed.
 * The server's handlers return plain literals of the contract's shape without a cast, which the
 * strict compile proves; the suite must pass, skipping what the profile lists as not implemented.
 */
import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../repo-root.ts";
import { ceiling } from "../ceilings.ts";
import { freePort } from "../../cli/free-port.ts";
import { copyProject, installedToolkit, npmEnv, ok, sh } from "./packed.ts";

const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { devDependencies: Record<string, string> };

/** The README's blocks marked `<!-- stub-server: NAME -->`, by name. */
export function stubServerBlocks(readme = readFileSync(join(repoRoot, "README.md"), "utf8")): Record<string, string> {
  const lines = readme.split("\n");
  const out: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const name = /^<!--\s*stub-server:\s*(\S+)\s*-->$/.exec(lines[i]!.trim())?.[1];
    if (!name) continue;
    // The fence follows the marker comments.
    let j = i + 1;
    while (j < lines.length && /^<!--.*-->$/.test(lines[j]!.trim())) j++;
    if (!/^```\S*$/.test(lines[j] ?? "")) throw new Error(`README.md:${i + 1}: the stub-server marker ${name} is not right above a fenced block`);
    const body: string[] = [];
    while (++j < lines.length && lines[j] !== "```") body.push(lines[j]!);
    out[name] = `${body.join("\n")}\n`;
  }
  return out;
}

const blocks = stubServerBlocks();
let project = "";
afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

beforeAll(async () => {
  const toolkit = await installedToolkit();
  project = copyProject(toolkit.project, `stub-server-${process.pid}`);
  // README: npm install --save-dev typescript@5 openapi-typescript@7 @types/node@20 (here the versions this package pins).
  const dev = ["typescript", "openapi-typescript", "@types/node"].map((name) => `${name}@${pkg.devDependencies[name]}`);
  await ok("npm", ["install", "--prefer-offline", "--save-dev", ...dev], project);
  for (const name of ["tsconfig.json", "server.ts", "profile.yaml"]) writeFileSync(join(project, name), blocks[name]!);
}, ceiling(600_000));

describe("README's server from the stubs", () => {
  it("has its files and commands in README", () => {
    expect(Object.keys(blocks).sort()).toEqual(["build.sh", "check.sh", "profile.yaml", "server.ts", "tsconfig.json"]);
    expect(JSON.parse(blocks["tsconfig.json"]!).compilerOptions).toMatchObject({ strict: true, module: "nodenext" });
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).type).toBe("module");
    // No cast around the generated types, no path of this repository.
    expect(blocks["server.ts"]).not.toMatch(/\bas\s+(never|unknown|any)\b/);
    expect(blocks["server.ts"]).not.toMatch(/from "\.\.\//);
  });

  it("generates the stubs and compiles strictly (build.sh)", async () => {
    const run = await sh("bash", ["-eo", "pipefail", "-c", blocks["build.sh"]!], project);
    expect(run.stdout + run.stderr).not.toMatch(/error TS/);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(readFileSync(join(project, "generated/server/index.ts"), "utf8")).toContain('from "service-contract/runtime/server"');
  }, ceiling(240_000));

  it("passes the feeds and issue-events suite, skipping what the profile lists as not implemented (check.sh)", async () => {
    const port = await freePort();
    const [start, conformance] = blocks["check.sh"]!.trim().split("\n");
    expect(start).toBe("node server.js &");
    const server = spawn(process.execPath, ["server.js"], { cwd: project, env: { ...npmEnv, API_URL: `http://127.0.0.1:${port}` }, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    server.stderr.on("data", (d: Buffer) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => server.on("exit", resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`server.js: not listening within 30 s; stderr:\n${stderr}`)), ceiling(30_000));
        createInterface({ input: server.stdout }).on("line", (line) => {
          if (line.startsWith("listening on")) {
            clearTimeout(timer);
            resolve();
          }
        });
        void exited.then((code) => reject(new Error(`server.js exited (${code}) before it listened; stderr:\n${stderr}`)));
      });
      const run = await sh("bash", ["-eo", "pipefail", "-c", conformance!.replaceAll("127.0.0.1:3000", `127.0.0.1:${port}`)], project);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/\b0 failed\b/);
      expect(run.stdout).toMatch(/FEEDS-ETAG-001/);
      expect(run.stdout).toMatch(/skipped: the profile says listUserEvents is not implemented \(notImplemented\)/);
      const passed = Number(/(\d+) passed, 0 failed, \d+ skipped in/.exec(run.stdout)?.[1]);
      expect(passed).toBeGreaterThanOrEqual(15);
    } finally {
      server.kill("SIGTERM");
      await exited;
    }
  }, ceiling(180_000));
});
