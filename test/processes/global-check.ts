/**
 * The run's closing check (vitest globalSetup): once every test file has finished, no process the
 * run started may still be running. A process is the run's when it carries the run's mark in its
 * environment (every worker and everything they start inherit it) or when a worker recorded it
 * (children.ts, for a child given an environment of its own). What is found is listed, killed,
 * and fails the run: a leftover server holds its port and data folder, and on a shared machine
 * it runs for hours after the suite "passed".
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allPids, commandLine, environmentValue, isRunning, procInfo } from "./proc.ts";
import { RUN_DIR_VARIABLE } from "./marks.ts";

interface Leftover {
  pid: number;
  start: string;
  command: string;
}

function recorded(dir: string): Leftover[] {
  const found: Leftover[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".pids"))) {
    for (const line of readFileSync(join(dir, name), "utf8").split("\n").filter(Boolean)) {
      const [pid, start, ...command] = line.split(" ");
      found.push({ pid: Number(pid), start: start!, command: command.join(" ") });
    }
  }
  return found;
}

/** The run's processes still running now, but for this one and its own workers (its direct children). */
export function leftovers(dir: string, self = process.pid): Leftover[] {
  const found = new Map<number, Leftover>();
  for (const r of recorded(dir)) if (isRunning(r.pid, r.start)) found.set(r.pid, { ...r, command: commandLine(r.pid) });
  for (const pid of allPids()) {
    if (pid === self || found.has(pid)) continue;
    if (environmentValue(pid, RUN_DIR_VARIABLE) !== dir) continue;
    const info = procInfo(pid);
    if (!info || info.state === "Z" || info.ppid === self) continue;
    found.set(pid, { pid, start: info.start, command: commandLine(pid) });
  }
  return [...found.values()];
}

async function settle(dir: string, ceilingMs: number): Promise<Leftover[]> {
  // A process SIGTERM'd by a file's last teardown may still be closing: give it time, not a verdict.
  const deadline = Date.now() + ceilingMs;
  let left = leftovers(dir);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    left = leftovers(dir);
  }
  return left;
}

export default function setup(): () => Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "sc-test-run-"));
  process.env[RUN_DIR_VARIABLE] = dir;
  return async () => {
    try {
      const left = await settle(dir, 15_000);
      if (left.length === 0) return;
      for (const l of left) {
        if (!isRunning(l.pid, l.start)) continue;
        try {
          process.kill(l.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      // vitest prints an error thrown here but still exits 0: the exit code is set here too.
      process.exitCode = 1;
      throw new Error(
        `${left.length} process(es) started by the tests were still running after the last test file (now killed):\n` +
          left.map((l) => `  ${l.pid} ${l.command}`).join("\n"),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
