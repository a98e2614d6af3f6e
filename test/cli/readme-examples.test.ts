/**
 * The READMEs' shell examples run: every ```sh block of README.md and of the READMEs it links to
 * (recursively) runs here, against a server this test starts, and must exit 0.
 *
 * Convention for a block that cannot run in a test (it runs until Ctrl-C, takes minutes, or
 * needs a remote host): a line right before its fence (among the comment lines there) is
 *     <!-- readme-test: skip — the reason -->
 * and the reason is required. Every other ```sh block runs.
 *
 * How a block runs: as one `bash -eo pipefail` script (any failing command, or any failing
 * stage of a pipe, fails it; `curl --fail-with-body` makes an HTTP error a failure), so a block
 * must not depend on another; blocks run concurrently, each in a folder of its own (two blocks
 * writing `bundle --out contract` at once raced in one folder) holding a copy of `spec/` (as in a clone;
 * and, as a clone is, a git repository, whose branch `main` has that spec/ committed, so
 * `diff --base-ref main spec/` runs as in a pull request's pipeline), with exactly these
 * substitutions:
 *   - `npx service-contract` → `node <this clone>/bin/service-contract.js` (nothing is downloaded);
 *   - `http://127.0.0.1:3000` / `:3001` → the API / OAuth host of the server started here, which is
 *     the README's own `SERVICE_CONTRACT_ADMIN_TOKEN=0123456789abcdef0123 … serve --simulate`
 *     on free ports (demo data, without the history, which only takes time);
 *   - `http://127.0.0.1:9000` → a webhook receiver started here, which must see the walk-through's
 *     ping and push, signed with its secret.
 * A block that uses what the package ships for its users (the walk-throughs' example receiver and
 * OAuth client, compiled in `node_modules/service-contract/dist/conformance/examples/`) is marked
 *     <!-- readme-test: installed -->
 * and runs instead as a user who ran `npm install service-contract` runs it: in the run's empty
 * project where its packed tarball is installed (test/package/packed.ts installedToolkit, installed
 * once per run and shared with test/package/consumer.test.ts; the block runs in a folder of its own
 * whose node_modules links to that project's, as it writes files), with `npx service-contract`
 * → that project's `node_modules/.bin/service-contract` (the compiled command, no TypeScript).
 * Links in those READMEs must stay inside the repository (they ship in clones and the package).
 */
import { spawn, spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../cli/free-port.ts";
import { cliBin, launcherBin, repoRoot } from "./run-cli.ts";
import { createInterface } from "node:readline";
import { ceiling } from "../ceilings.ts";
import { besideProject, installedToolkit, npmEnv } from "../package/packed.ts";

interface Block {
  file: string;
  line: number;
  script: string;
  skip?: string;
  /** Runs in a project with the packed package installed, not in a clone. */
  installed?: boolean;
}

const SKIP = /^<!--\s*readme-test:\s*skip\s*[—-]+\s*(.*?)\s*-->$/;
const INSTALLED = /^<!--\s*readme-test:\s*installed\s*-->$/;

function blocksOf(file: string): Block[] {
  const lines = readFileSync(join(repoRoot, file), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|shell)\s*$/.test(lines[i]!)) {
      // Skip over other fenced blocks so their contents are not read as fences.
      if (/^```\S*\s*$/.test(lines[i]!) && lines[i] !== "```") {
        while (++i < lines.length && lines[i] !== "```");
      }
      continue;
    }
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && lines[i] !== "```") body.push(lines[i]!);
    // The marker comments right above the fence, one a line.
    const markers: string[] = [];
    for (let j = start - 1; j >= 0 && /^<!--.*-->$/.test(lines[j]!.trim()); j--) markers.push(lines[j]!.trim());
    const skip = markers.map((m) => SKIP.exec(m)?.[1]).find((r) => r !== undefined);
    const installed = markers.some((m) => INSTALLED.test(m));
    blocks.push({ file, line: start + 1, script: body.join("\n"), ...(skip !== undefined ? { skip } : {}), ...(installed ? { installed } : {}) });
  }
  return blocks;
}

/** README.md and every README.md it links to, recursively, as repository paths. */
function readmes(): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const target of links(file)) if (/(^|\/)README\.md$/.test(target) && existsSync(join(repoRoot, target))) visit(target);
  };
  visit("README.md");
  return [...seen];
}

/** The relative link targets of a markdown file, as repository paths (anchors dropped). */
function links(file: string): string[] {
  const text = readFileSync(join(repoRoot, file), "utf8");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((href) => !/^[a-z]+:/i.test(href) && !href.startsWith("#"))
    .map((href) => relative(repoRoot, resolve(repoRoot, dirname(file), href.split("#")[0]!)));
}

/** The examples use curl and jq; without them (locally) the runs are skipped with that reason, under CI they fail. */
const MISSING_TOOLS = ["curl", "jq", "bash"].filter((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);
const TOOLS_SKIP = MISSING_TOOLS.length > 0 && !process.env.CI ? `skipped: the examples need ${MISSING_TOOLS.join(", ")}` : undefined;

const FILES = readmes();
const BLOCKS = FILES.flatMap(blocksOf);
const ADMIN_TOKEN = "0123456789abcdef0123";
const HOOK_SECRET = "s3cret";

describe("the READMEs", () => {
  it("are README.md and the READMEs it links to, with shell examples to run", () => {
    expect(FILES).toEqual(expect.arrayContaining(["README.md", "conformance/README.md", "spec/README.md", "reference/seed/README.md", "bench/README.md"]));
    expect(BLOCKS.filter((b) => !b.skip).length).toBeGreaterThanOrEqual(7);
  });

  it.each(FILES)("%s links only to files inside the repository", (file) => {
    for (const target of links(file)) {
      expect(target.startsWith(".."), `${file} links outside the repository: ${target}`).toBe(false);
      expect(existsSync(join(repoRoot, target)), `${file} links to a missing ${target}`).toBe(true);
    }
    expect(readFileSync(join(repoRoot, file), "utf8")).not.toMatch(/\.\.\/shared\//);
  });

  it("give every skipped block a reason, and run nothing that would download", () => {
    for (const b of BLOCKS) {
      if (b.skip !== undefined) expect(b.skip.length, `${b.file}:${b.line}`).toBeGreaterThan(10);
      else expect(b.script.replace(/npx service-contract/g, ""), `${b.file}:${b.line}`).not.toMatch(/\bnpx\b|\bnpm (ci|install|i)\b/);
    }
  });

  it("run every block that uses the package's own files from an installed package, and no other", () => {
    const installed = BLOCKS.filter((b) => b.installed);
    expect(installed.length).toBeGreaterThanOrEqual(1);
    for (const b of BLOCKS) {
      const usesPackage = /node_modules\/service-contract\//.test(b.script);
      expect(b.installed === true, `${b.file}:${b.line} ${usesPackage ? "names node_modules/service-contract/ but is not marked installed" : "is marked installed but names nothing the package ships"}`).toBe(usesPackage);
      // The examples run compiled from the package, not from this clone's TypeScript.
      if (!b.skip) expect(b.script, `${b.file}:${b.line}`).not.toMatch(/--import tsx|(^|\s)conformance\/examples\//m);
    }
  });
});

(TOOLS_SKIP ? describe.skip : describe)(`the READMEs' shell examples${TOOLS_SKIP ? ` — ${TOOLS_SKIP}` : ""}`, () => {
  const scratch = mkdtempSync(join(tmpdir(), "readme-examples-"));
  // A clone's folder, copied for each block that runs as in a clone.
  const clone = join(scratch, "clone");
  // A user's project: the run's packed tarball installed, nothing else (for the blocks marked installed):
  // a folder beside the run's installed project, whose node_modules links to that project's.
  let project = "";
  let serve: { api: string; auth: string; stop(): Promise<unknown> };
  let receiver: Server;
  let receiverUrl: string;
  const received: { event: string; signature: string; body: Buffer }[] = [];

  beforeAll(async () => {
    cpSync(join(repoRoot, "spec"), join(clone, "spec"), { recursive: true });
    // A repository of its own with the spec on `main`: this clone's branch names are not known here
    // (a pipeline's checkout may have none), and the blocks must not read this clone's history.
    for (const args of [["init", "-q"], ["add", "spec"], ["commit", "-qm", "the contract"]]) {
      const git = spawnSync("git", ["-c", "init.defaultBranch=main", "-c", "user.name=readme", "-c", "user.email=readme@example.test", "-c", "commit.gpgsign=false", ...args], { cwd: clone });
      expect(git.status, `git ${args.join(" ")}: ${String(git.stderr)}`).toBe(0);
    }
    // As in a clone: `node --import tsx …` resolves tsx from the folder it runs in.
    symlinkSync(join(repoRoot, "node_modules"), join(clone, "node_modules"), "dir");
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ event: String(req.headers["x-service-event"]), signature: String(req.headers["x-hub-signature-256"]), body: Buffer.concat(chunks) });
        res.end("ok");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
    const installing = BLOCKS.some((b) => b.installed && !b.skip)
      ? installedToolkit().then((installed) => (project = besideProject(installed.project, `readme-${process.pid}`)))
      : undefined;
    serve = await startServe(join(scratch, "served"));
    // The blocks run concurrently, so the feed that `validate … -` reads gets its event here.
    const made = await fetch(`${serve.api}/_admin/simulate/push`, { method: "POST", headers: { "content-type": "application/json", "x-admin-token": ADMIN_TOKEN }, body: "{}" });
    expect(made.status).toBe(201);
    await installing;
  }, ceiling(600_000));
  afterAll(async () => {
    await serve?.stop();
    await new Promise((r) => receiver?.close(r));
    rmSync(scratch, { recursive: true, force: true });
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const runnable = BLOCKS.filter((b) => !b.skip);
  // Concurrent: each block is self-contained (a walk-through keeps its variables within its block).
  it.concurrent.each(runnable.map((b) => [`${b.file}:${b.line}`, b] as const))("%s exits 0", async (_where, block) => {
    // A block that starts a receiver of its own (port 9001) gets a free port instead.
    const ownPort = block.script.includes("9001") ? await freePort() : 9001;
    const script = block.script
      .replace(/\b9001\b/g, String(ownPort))
      // A user's project runs the package's command; a clone's runs its sources (no download either way).
      .replace(/npx service-contract/g, block.installed ? "node_modules/.bin/service-contract" : `node ${launcherBin}`)
      .replace(/http:\/\/127\.0\.0\.1:3000/g, serve.api)
      .replace(/http:\/\/127\.0\.0\.1:3001/g, serve.auth)
      .replace(/http:\/\/127\.0\.0\.1:9000/g, receiverUrl);
    let cwd = project;
    if (!block.installed) {
      cwd = join(scratch, `${block.file.replaceAll("/", "_")}-${block.line}`);
      cpSync(clone, cwd, { recursive: true, verbatimSymlinks: true });
    }
    const r = await bash(script, cwd, block.installed ? npmEnv : process.env);
    expect(r.code, `${block.file}:${block.line}\n${script}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`).toBe(0);
  }, ceiling(240_000));

  it("the webhook walk-through got a signed ping and a signed push to the receiver", async () => {
    // Deliveries are jobs: poll, with a bound, for the push the walk-through simulated.
    for (const until = Date.now() + ceiling(60_000); Date.now() < until && !received.some((r) => r.event === "push"); ) await new Promise((r) => setTimeout(r, 200));
    expect(received.map((r) => r.event)).toEqual(expect.arrayContaining(["ping", "push"]));
    for (const r of received) expect(r.signature).toBe(`sha256=${createHmac("sha256", HOOK_SECRET).update(r.body).digest("hex")}`);
  }, ceiling(90_000));
});

/** The README's `SERVICE_CONTRACT_ADMIN_TOKEN=… serve --simulate`, on free ports and a scratch folder. */
async function startServe(dataDir: string): Promise<{ api: string; auth: string; stop(): Promise<unknown> }> {
  const args = [cliBin, "serve", "--simulate", "--port", "0", "--auth-port", "0", "--quiet", "--no-history", "--data-dir", dataDir];
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, SERVICE_CONTRACT_ADMIN_TOKEN: ADMIN_TOKEN }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d));
  const exited = new Promise((r) => child.on("exit", r));
  const ready = await new Promise<{ api: string; auth: string }>((resolveReady, reject) => {
    createInterface({ input: child.stdout }).once("line", (line) => resolveReady(JSON.parse(line) as { api: string; auth: string }));
    void exited.then((code) => reject(new Error(`serve exited (${String(code)}) before it was ready: ${stderr}`)));
  });
  return {
    ...ready,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn("bash", ["-eo", "pipefail", "-c", script], { cwd, env: { ...env, SERVICE_CONTRACT_ADMIN_TOKEN: ADMIN_TOKEN } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, stdout, stderr }));
  });
}
