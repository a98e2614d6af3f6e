/**
 * A build made at most once per test run, and only when what it was made from changed: the
 * compiled command the CLI tests run (compiled-cli.ts) and the package they pack (packed.ts).
 *
 * Current means: a stamp written after the last successful build holds a hash of every input file
 * (and of the Node version and the build command) and a hash of every output file, and both still
 * match. So an output folder left by another checkout, an edited source, a half-written or
 * hand-edited output, or a build by another Node all count as stale and are built again; a stamp
 * is removed before a build starts, so an interrupted build never counts as current.
 *
 * Once per run and never under a reader: the first vitest worker that needs the build takes the
 * run's lock (a folder in the run's folder, made whole by a rename, naming its PID), checks or
 * builds, and records the verdict beside it; the other workers wait for that verdict before any
 * of their tests can run the output. A failed build is that verdict too: every file that needs the
 * output fails with the build's own output, and none builds it again. A second lock in the
 * checkout keeps two runs in it from building at once; one left by a process that died is taken
 * over.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { isRunning, procInfo } from "../processes/proc.ts";

export interface BuildPlan {
  /** The project's folder: inputs, output and the command are relative to it. */
  root: string;
  /** Files and folders whose contents the build depends on (a folder: every file under it). */
  inputs: readonly string[];
  /** The folder the build writes. */
  output: string;
  /** The build, e.g. ["npm", ["run", "prepack"]]. */
  command: readonly [string, readonly string[]];
  env?: NodeJS.ProcessEnv;
  /** Where the stamp and the lock are kept: outside `output`, which may ship. */
  stateDir: string;
  /** This test run's folder, where the verdict is shared with the other workers (none: not shared). */
  runDir?: string;
  /** How long to wait for another process's build before giving up. */
  waitMs: number;
}

export type Outcome = "current" | "built";

interface Verdict {
  ok: boolean;
  outcome?: Outcome;
  error?: string;
}

interface Stamp {
  inputs: string;
  outputs: string;
}

/** Every file under `paths` (sorted; node_modules and symbolic links left out), hashed with its path. */
export function hashFiles(root: string, paths: readonly string[], extra = ""): string {
  const hash = createHash("sha256").update(extra);
  const visit = (path: string): void => {
    let stat;
    try {
      stat = statSync(path, { throwIfNoEntry: false });
    } catch {
      stat = undefined;
    }
    const name = relative(root, path);
    if (!stat) {
      hash.update(`${name}\0missing\0`);
    } else if (stat.isDirectory()) {
      for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (entry.name === "node_modules" || entry.isSymbolicLink()) continue;
        visit(join(path, entry.name));
      }
    } else {
      const bytes = readFileSync(path);
      hash.update(`${name}\0${bytes.length}\0`).update(bytes);
    }
  };
  for (const p of paths) visit(join(root, p));
  return hash.digest("hex");
}

function inputsHash(plan: BuildPlan): string {
  return hashFiles(plan.root, plan.inputs, `${process.version}\0${plan.command[0]} ${plan.command[1].join(" ")}\0`);
}

function outputsHash(plan: BuildPlan): string {
  return hashFiles(plan.root, [plan.output]);
}

const stampFile = (plan: BuildPlan) => join(plan.stateDir, "stamp.json");
const lockDir = (plan: BuildPlan) => join(plan.stateDir, "build.lock");
const verdictFile = (plan: BuildPlan) => (plan.runDir ? join(plan.runDir, `build-${createHash("sha256").update(plan.stateDir).digest("hex").slice(0, 12)}.json`) : undefined);

/** Whether the output is what the inputs build now. */
export function isCurrent(plan: BuildPlan): boolean {
  if (!existsSync(join(plan.root, plan.output))) return false;
  let stamp: Stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile(plan), "utf8")) as Stamp;
  } catch {
    return false;
  }
  return stamp.inputs === inputsHash(plan) && stamp.outputs === outputsHash(plan);
}

function writeAtomically(path: string, text: string): void {
  writeFileSync(`${path}.${process.pid}.tmp`, text);
  renameSync(`${path}.${process.pid}.tmp`, path);
}

function readVerdict(plan: BuildPlan): Verdict | undefined {
  const file = verdictFile(plan);
  if (!file || !existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, "utf8")) as Verdict;
}

function record(plan: BuildPlan, verdict: Verdict): void {
  const file = verdictFile(plan);
  if (file) writeAtomically(file, JSON.stringify(verdict));
}

/** Makes the folder `path` holding an `owner` file (PID and start), whole or not at all; false if it exists. */
function makeOwned(path: string, parent: string): boolean {
  mkdirSync(parent, { recursive: true });
  // Made beside it, then renamed into place: the folder never exists without its owner.
  const draft = mkdtempSync(join(parent, "lock-"));
  writeFileSync(join(draft, "owner"), `${process.pid} ${procInfo(process.pid)?.start ?? ""}`);
  try {
    renameSync(draft, path);
    return true;
  } catch {
    rmSync(draft, { recursive: true, force: true });
    return false;
  }
}

/** Whether the process named in the folder's `owner` file is gone (undefined: the file is not there). */
function ownerGone(path: string): boolean | undefined {
  let owner: string[];
  try {
    owner = readFileSync(join(path, "owner"), "utf8").split(" ");
  } catch {
    return undefined;
  }
  return !isRunning(Number(owner[0]), owner[1] ?? "");
}

/** Removes a lock folder by renaming it away first, so that it is never seen half removed. */
function removeLock(path: string): void {
  const trash = `${path}.${process.pid}.removed`;
  try {
    renameSync(path, trash);
  } catch {
    return;
  }
  rmSync(trash, { recursive: true, force: true });
}

/**
 * Runs `work` holding the checkout's lock, which keeps two test runs from building at once. A lock
 * whose process is gone (a run killed while it built) is taken over; two runs starting at the same
 * moment beside such a lock could both take it over, which this does not guard against.
 */
async function underCheckoutLock<T>(plan: BuildPlan, deadline: number, work: () => Promise<T>): Promise<T> {
  for (;;) {
    if (makeOwned(lockDir(plan), plan.stateDir)) break;
    if (ownerGone(lockDir(plan))) removeLock(lockDir(plan));
    else if (Date.now() > deadline) throw new Error(`${plan.output}/ was still being built by another test run after ${plan.waitMs} ms (lock: ${lockDir(plan)})`);
    else await new Promise((resolve) => setTimeout(resolve, 250));
  }
  try {
    return await work();
  } finally {
    removeLock(lockDir(plan));
  }
}

function run(plan: BuildPlan): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const [command, args] = plan.command;
    execFile(command, [...args], { cwd: plan.root, env: plan.env ?? process.env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, output: `${stdout}${stderr}${error && code === -1 ? String(error) : ""}` });
    });
  });
}

async function checkOrBuild(plan: BuildPlan): Promise<Outcome> {
  if (isCurrent(plan)) return "current";
  rmSync(stampFile(plan), { force: true });
  const inputs = inputsHash(plan); // before the build: an edit made while it runs makes it stale
  const { code, output } = await run(plan);
  const command = `${plan.command[0]} ${plan.command[1].join(" ")}`;
  if (code !== 0) {
    throw new Error(`${command} exited ${code} in ${plan.root}: ${plan.output}/ could not be built, and the tests that run it cannot run.\n${output.slice(-20_000)}`);
  }
  if (!existsSync(join(plan.root, plan.output))) throw new Error(`${command} exited 0 but wrote no ${plan.output}/ in ${plan.root}\n${output.slice(-20_000)}`);
  writeAtomically(stampFile(plan), JSON.stringify({ inputs, outputs: outputsHash(plan) } satisfies Stamp));
  return "built";
}

/**
 * Makes sure the output is current: checks it, builds it if not, or waits for the worker of this
 * run that does. Within a run the first caller takes the run's lock (never released: its verdict
 * stays for the others) and the others wait for the verdict it records.
 */
export async function ensureBuilt(plan: BuildPlan): Promise<Outcome> {
  const deadline = Date.now() + plan.waitMs;
  const runLock = verdictFile(plan)?.replace(/\.json$/, ".lock");
  if (runLock && !makeOwned(runLock, plan.runDir!)) {
    for (;;) {
      const verdict = readVerdict(plan);
      if (verdict?.ok) return verdict.outcome ?? "current";
      if (verdict) throw new Error(`the build failed (in another test file of this run):\n${verdict.error}`);
      if (ownerGone(runLock) && !readVerdict(plan)) throw new Error(`the test worker that was building ${plan.output}/ exited without a verdict (${runLock})`);
      if (Date.now() > deadline) throw new Error(`${plan.output}/ was still being built by another test file after ${plan.waitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    const outcome = await underCheckoutLock(plan, deadline, () => checkOrBuild(plan));
    record(plan, { ok: true, outcome });
    return outcome;
  } catch (error) {
    record(plan, { ok: false, error: String((error as Error).message ?? error) });
    throw error;
  }
}
