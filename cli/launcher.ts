/**
 * A long-running command (`serve`, `mock`) started through npm — `npm start`, `npx
 * service-contract serve`, `npm exec` — has npm as its launcher, often with a shell between:
 * npx runs the command through `sh -c`, and on SIGTERM or SIGINT npm passes the signal to that
 * shell only. The shell dies (SIGTERM) or keeps waiting (SIGINT) without passing it on, npm
 * exits, and the server would keep listening with its data folder locked. So such a command
 * also stops, cleanly, when its launcher is gone: its parent and, when the parent is a shell
 * running `-c`, the shell's parent, checked twice a second (on Linux by PID and start time in
 * /proc, so a reused PID is not mistaken for the launcher; elsewhere by the parent PID changing).
 *
 * Only when npm launched it (npm sets `npm_lifecycle_event` for everything it runs): a server
 * started from a shell with `&`, by a supervisor or under nohup keeps running when its parent
 * exits, as servers do. `SERVICE_CONTRACT_FOLLOW_LAUNCHER=1` turns it on anywhere, `=0` off.
 */
import { readFileSync } from "node:fs";

const CHECK_EVERY_MS = 500;

export function followsLauncher(env: NodeJS.ProcessEnv = process.env): boolean {
  const setting = env.SERVICE_CONTRACT_FOLLOW_LAUNCHER;
  if (setting === "1") return true;
  if (setting === "0") return false;
  return env.npm_lifecycle_event !== undefined;
}

interface Proc {
  pid: number;
  ppid: number;
  start: string;
}

/** /proc/PID/stat: the parent and the start time (clock ticks since boot); undefined if gone or no /proc. */
function stat(pid: number): Proc | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 2, the command name, is in parentheses and may hold spaces: split after its last ")".
    const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
    if (rest[0] === "Z" || rest[0] === "X") return undefined; // exited, not yet reaped
    return { pid, ppid: Number(rest[1]), start: rest[19]! };
  } catch {
    return undefined;
  }
}

function isShellRunningCommand(pid: number): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return /(^|\/)(sh|dash|bash|zsh)$/.test(argv[0] ?? "") && argv.includes("-c");
  } catch {
    return false;
  }
}

/** The processes to follow: the parent, and its parent when the parent is `sh -c`. */
function launchers(): Proc[] {
  const parent = stat(process.ppid);
  if (!parent) return [];
  if (!isShellRunningCommand(parent.pid)) return [parent];
  const grandparent = stat(parent.ppid);
  return grandparent && grandparent.pid > 1 ? [parent, grandparent] : [parent];
}

/**
 * Calls `onGone` once if this process's launcher goes away (see above); returns the cancel.
 * The timer is unref'd: it never keeps the process alive on its own.
 */
export function watchLauncher(onGone: () => void, env: NodeJS.ProcessEnv = process.env): () => void {
  if (!followsLauncher(env)) return () => {};
  const parentPid = process.ppid;
  const followed = launchers();
  const gone = (): boolean => {
    if (process.ppid !== parentPid) return true;
    return followed.some((p) => stat(p.pid)?.start !== p.start);
  };
  const timer = setInterval(() => {
    if (!gone()) return;
    clearInterval(timer);
    onGone();
  }, CHECK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
