/**
 * Nothing a test starts outlives it (a vitest setup file, so it runs in every worker before each
 * test file). Every child process made through node:child_process in a test worker — by a test, a
 * helper, the CLI run in-process, playwright launching Chromium — is recorded by PID and start
 * time. When a test fails or times out (vitest runs afterEach hooks in every case) the children it
 * started that still run are stopped at once, with their descendants; when a test file ends, all
 * the others: those of passing tests (a test may leave a server to the next one), those its
 * beforeAll hooks started, those started while several tests ran
 * at once (describe.concurrent: no telling whose they are, and stopping them early would break
 * the others), and any process still carrying this worker's mark in its environment (an orphan
 * whose parent exited without it, reparented away from the tree).
 * Stopping is SIGTERM, so a server closes and unlocks its data folder, then SIGKILL for what is
 * still there after a generous wait. The run's closing check is global-check.ts.
 *
 * Tests still stop what they start themselves; this is the net under a test that fails or times
 * out before its own cleanup runs. What it has to stop is reported on stderr, with the test.
 */
import childProcess, { type ChildProcess } from "node:child_process";
import { appendFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeEach } from "vitest";
import { allPids, commandLine, descendants, environmentValue, isRunning, procInfo } from "./proc.ts";
import { OWNER_VARIABLE, RUN_DIR_VARIABLE } from "./marks.ts";

interface Tracked {
  pid: number;
  start: string;
  command: string;
  /**
   * The test that started it (inside the test or its beforeEach), stopped when that test ends;
   * undefined: started in beforeAll, at import, or while several tests ran at once
   * (describe.concurrent: which one started it cannot be told), stopped when the file ends.
   */
  owner: string | undefined;
}

interface Registry {
  tracked: Tracked[];
  /** The tests running now (more than one in a describe.concurrent). */
  running: Set<string>;
}

const KEY = Symbol.for("service-contract.test-children");
const global = globalThis as { [KEY]?: Registry };

/** How long a SIGTERM'd process gets to close its database before SIGKILL. */
const TERM_GRACE_MS = 20_000;

function record(child: ChildProcess | undefined, registry: Registry): void {
  if (child?.pid === undefined) return; // spawn failed (ENOENT …): nothing runs
  const info = procInfo(child.pid);
  if (!info) return; // already exited and reaped
  const owner = registry.running.size === 1 ? [...registry.running][0] : undefined;
  const entry: Tracked = { pid: child.pid, start: info.start, command: child.spawnargs.join(" "), owner };
  registry.tracked.push(entry);
  const runDir = process.env[RUN_DIR_VARIABLE];
  if (runDir) appendFileSync(join(runDir, `${process.pid}.pids`), `${entry.pid} ${entry.start} ${entry.command.replaceAll("\n", " ")}\n`);
}

/** Wraps spawn, exec, execFile and fork (and the promisified exec/execFile) once per worker. */
function install(): Registry {
  const registry: Registry = { tracked: [], running: new Set() };
  const cp = childProcess as unknown as Record<string, ((...args: unknown[]) => unknown) & { [promisify.custom]?: (...args: unknown[]) => unknown }>;
  for (const name of ["spawn", "exec", "execFile", "fork"]) {
    const original = cp[name]!;
    const wrapped = function (this: unknown, ...args: unknown[]): unknown {
      const child = original.apply(this, args) as ChildProcess;
      record(child, registry);
      return child;
    } as typeof original;
    const custom = original[promisify.custom];
    if (custom) {
      // promisify(execFile) uses this: its promise carries the child as `.child`.
      wrapped[promisify.custom] = function (this: unknown, ...args: unknown[]): unknown {
        const promise = custom.apply(this, args) as Promise<unknown> & { child?: ChildProcess };
        record(promise.child, registry);
        return promise;
      };
    }
    cp[name] = wrapped;
  }
  // `import { spawn } from "node:child_process"` binds to the ESM facade: bring it in line.
  syncBuiltinESMExports();
  // Every process started from this worker inherits the mark (unless given an environment of its own).
  process.env[OWNER_VARIABLE] = String(process.pid);
  return registry;
}

const registry = (global[KEY] ??= install());

function signal(pid: number, start: string, sig: NodeJS.Signals): void {
  if (!isRunning(pid, start)) return;
  try {
    process.kill(pid, sig);
  } catch {
    // gone between the check and the signal
  }
}

async function until(condition: () => boolean, ceilingMs: number): Promise<boolean> {
  const deadline = Date.now() + ceilingMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/**
 * SIGTERM to each process (the ones named and, for those, every descendant found now), SIGKILL to
 * what is left after the grace. Returns the command lines of those that were still running.
 */
async function stop(roots: { pid: number; start: string }[]): Promise<string[]> {
  const targets = new Map<number, { pid: number; start: string; command: string }>();
  for (const root of roots) {
    if (!isRunning(root.pid, root.start)) continue;
    targets.set(root.pid, { ...root, command: commandLine(root.pid) });
    for (const d of descendants(root.pid)) targets.set(d.pid, { pid: d.pid, start: d.start, command: commandLine(d.pid) });
  }
  if (targets.size === 0) return [];
  for (const root of roots) signal(root.pid, root.start, "SIGTERM");
  const all = [...targets.values()];
  // A server's children (Prism under mock) are stopped by the server itself when it gets SIGTERM.
  if (!(await until(() => all.every((t) => !isRunning(t.pid, t.start)), TERM_GRACE_MS))) {
    for (const t of all) signal(t.pid, t.start, "SIGKILL");
    await until(() => all.every((t) => !isRunning(t.pid, t.start)), 5_000);
  }
  return all.map((t) => `${t.pid} ${t.command}`);
}

function report(when: string, commands: string[]): void {
  if (commands.length === 0) return;
  process.stderr.write(`[test processes] stopped ${commands.length} process(es) left running ${when}:\n${commands.map((c) => `  ${c}`).join("\n")}\n`);
}

beforeEach(({ task }) => {
  registry.running.add(task.id);
});

afterEach(async ({ task }) => {
  registry.running.delete(task.id);
  // A test that failed or timed out never reached its own cleanup: its children go now. A passing
  // test's may be shared with the tests after it (serve-cli's restart keeps its second server
  // for the next test), so they are left to the file's end, below.
  if (task.result?.state !== "fail") {
    for (const t of registry.tracked) if (t.owner === task.id) t.owner = undefined;
    return;
  }
  const mine = registry.tracked.filter((t) => t.owner === task.id);
  registry.tracked = registry.tracked.filter((t) => t.owner !== task.id);
  report(`by "${task.name}", which failed`, await stop(mine));
}, TERM_GRACE_MS + 30_000);

// Vitest reads the first parameter as fixtures (it must be a destructuring pattern); the suite is the second.
// eslint-disable-next-line no-empty-pattern
afterAll(async ({}, suite) => {
  const file = suite && "filepath" in suite ? String(suite.filepath) : "this test file";
  const mine = registry.tracked;
  registry.tracked = [];
  const stopped = await stop(mine);
  // Orphans: started from this worker, their parent gone, so no tree leads to them.
  const owner = String(process.pid);
  const orphans = allPids()
    .filter((pid) => pid !== process.pid && environmentValue(pid, OWNER_VARIABLE) === owner)
    .map((pid) => procInfo(pid))
    .filter((info) => info !== undefined && info.state !== "Z");
  stopped.push(...(await stop(orphans.map((o) => ({ pid: o!.pid, start: o!.start })))));
  report(`by ${file}`, stopped);
}, TERM_GRACE_MS + 30_000);
