/**
 * What Linux's /proc says about a process, for the test run's child-process teardown
 * (children.ts) and its end-of-run check (global-check.ts). A PID alone can be reused once its
 * process is reaped, so a process is named by its PID and its start time (field 22 of
 * /proc/PID/stat, in clock ticks since boot): the pair never names two processes.
 */
import { readdirSync, readFileSync } from "node:fs";

export interface ProcInfo {
  pid: number;
  ppid: number;
  state: string;
  start: string;
}

/** /proc/PID/stat, or undefined once the process is gone (or on a system without /proc). */
export function procInfo(pid: number): ProcInfo | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces and parentheses itself.
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { pid, ppid: Number(rest[1]), state: rest[0]!, start: rest[19]! };
}

/** Is the process that had this start time still there, and not merely a zombie waiting to be reaped? */
export function isRunning(pid: number, start: string): boolean {
  const info = procInfo(pid);
  return info !== undefined && info.start === start && info.state !== "Z" && info.state !== "X";
}

export function allPids(): number[] {
  try {
    return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return [];
  }
}

/** Every living descendant of `pid` (children, their children, …), read from /proc now. */
export function descendants(pid: number): ProcInfo[] {
  const children = new Map<number, ProcInfo[]>();
  for (const p of allPids()) {
    const info = procInfo(p);
    if (!info) continue;
    const list = children.get(info.ppid) ?? [];
    list.push(info);
    children.set(info.ppid, list);
  }
  const found: ProcInfo[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** The command line, for messages ("node bin/service-contract.js serve --port 0"). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    return "(gone)";
  }
}

/** One variable of a process's environment as it started (readable for our own user's processes). */
export function environmentValue(pid: number, name: string): string | undefined {
  try {
    const prefix = `${name}=`;
    return readFileSync(`/proc/${pid}/environ`, "utf8")
      .split("\0")
      .find((entry) => entry.startsWith(prefix))
      ?.slice(prefix.length);
  } catch {
    return undefined;
  }
}
