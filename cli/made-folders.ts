/**
 * What a command made on disk, so that a command that fails (or is interrupted) leaves nothing
 * behind: the outermost folder of an output path that did not exist before the command made it.
 */
import { lstatSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * Whether anything is at `path`, the path itself: a symbolic link counts even when it points
 * nowhere (existsSync follows it, so a dangling link looked missing — and was then "removed").
 */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (error) {
    // Only a path that is not there is missing; any other refusal (EACCES) means keep away.
    return (error as NodeJS.ErrnoException).code !== "ENOENT" && (error as NodeJS.ErrnoException).code !== "ENOTDIR";
  }
}

/** The outermost folder of `path` that does not exist yet (the first one mkdir -p makes), or undefined. */
export function firstMissing(path: string): string | undefined {
  let missing: string | undefined;
  for (let p = resolve(path); !present(p); p = dirname(p)) {
    missing = p;
    if (dirname(p) === p) break;
  }
  return missing;
}

/** Removes what firstMissing named, if anything; never throws (a folder under a file, say, was never made). */
export function removeMade(made: string | undefined): void {
  if (made === undefined) return;
  try {
    rmSync(made, { recursive: true, force: true });
  } catch {
    // nothing there to remove
  }
}
