/**
 * One process per PGlite data folder. PGlite has no lock of its own: two processes on one folder
 * each write their own copy of the cluster and one silently loses the other's writes. So opening
 * a folder creates `service-contract.lock` in it (O_EXCL, atomic), holding the process id and,
 * once `serve` listens, its API URL and whether its admin endpoint is on; a second process reads
 * that and refuses with a message saying who holds the folder and how to reach it. A lock whose
 * process is gone (a crash, SIGKILL) is taken over. The admin token is never written here.
 */
import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";

export const LOCK_FILE = "service-contract.lock";

export interface LockHolder {
  pid: number;
  host: string;
  /** The command that holds it: serve, simulate, … (process.argv[2]). */
  command: string;
  /** The API URL of a serve that holds it, once it listens. */
  api?: string;
  /** Whether that serve runs with --simulate (POST /_admin/simulate/:event). */
  simulate?: boolean;
}

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    const where = holder.api ? `, API ${holder.api}` : "";
    super(`data folder ${dataDir} is in use by ${holder.command} (pid ${holder.pid}${holder.host === hostname() ? "" : ` on ${holder.host}`}${where})`);
  }
}

/** A lock file without a pid is another process between creating and writing it, unless it is this old. */
const UNREADABLE_GRACE_MS = 5000;

/** Other processes racing for the same folder: after this many tries, the last holder seen is reported. */
const MAX_ATTEMPTS = 3;

/** Folders this process holds: a lock naming our own pid that is not in here is a stale one. */
const held = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(file: string): { raw: string; holder: LockHolder } | undefined {
  let raw: string;
  try {
    raw = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const holder = JSON.parse(raw) as LockHolder;
    if (Number.isInteger(holder.pid)) return { raw, holder };
  } catch {
    // Being written right now, or left empty by a process that died between create and write.
  }
  return { raw, holder: { pid: 0, host: hostname(), command: "unknown" } };
}

function isStale(holder: LockHolder, file: string): boolean {
  // Another machine's process cannot be checked from here; only a local dead pid is stale.
  if (holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return !held.has(file);
  if (holder.pid <= 0) {
    try {
      return Date.now() - statSync(file).mtimeMs > UNREADABLE_GRACE_MS;
    } catch {
      return true;
    }
  }
  return !alive(holder.pid);
}

/**
 * Takes the folder's lock (the folder must exist) or throws DataDirLockedError; filesystem
 * errors (EACCES, EROFS…) are thrown as they are. Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = resolve(dataDir, LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, host: hostname(), command: process.argv[2] ?? "node" };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, "wx");
      try {
        writeFileSync(fd, JSON.stringify(mine) + "\n");
      } finally {
        closeSync(fd);
      }
      held.add(file);
      return () => {
        held.delete(file);
        const current = readHolder(file);
        if (current && current.holder.pid === process.pid) unlinkSync(file);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const current = readHolder(file);
    if (!current && attempt < MAX_ATTEMPTS) continue;
    if (!current || !isStale(current.holder, file) || attempt >= MAX_ATTEMPTS) throw new DataDirLockedError(dataDir, current?.holder ?? { pid: 0, host: hostname(), command: "another process" });
    // Take a stale lock over only if it is still the one judged stale (another process may have just taken it).
    if (readHolder(file)?.raw === current.raw) {
      try {
        unlinkSync(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
  }
}

/** Adds what a second process needs to reach this one (serve's URL) to a lock this process holds. */
export function describeDataDirLock(dataDir: string, more: Pick<LockHolder, "api" | "simulate">): void {
  const file = resolve(dataDir, LOCK_FILE);
  if (!held.has(file)) return;
  const holder: LockHolder = { pid: process.pid, host: hostname(), command: process.argv[2] ?? "node", ...more };
  // Write then rename, so a reader never sees half a file.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(holder) + "\n");
  renameSync(partial, file);
}
