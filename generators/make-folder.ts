/**
 * `mkdir -p` that always ends. Node's `mkdirSync(path, { recursive: true })` loops forever at
 * 100% CPU where the kernel answers ENOENT for a parent that exists (any new folder under
 * /proc), so the folders are made one level at a time and the first refusal is the error.
 */
import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** Creates `path` and its missing parents; throws the filesystem's error (ENOTDIR, EACCES, ENOENT…) otherwise. */
export function makeFolder(path: string): void {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    let stat;
    try {
      stat = statSync(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT") throw error;
      missing.push(current);
      const parent = dirname(current);
      if (parent === current) throw error;
      current = parent;
      continue;
    }
    if (!stat.isDirectory()) {
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${resolve(path)}' (${current} is a file)`), { code: "ENOTDIR", path: current });
    }
    break;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}
