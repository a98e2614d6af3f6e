/**
 * Where a contract may read from: files inside its own folder, by path and by what a symbolic
 * link resolves to, and never a URL. A contract arriving in a pull request is a stranger's data:
 * a `$ref` to `../../../outside/runner-secret.yaml` would otherwise put the CI runner's file in
 * the diff's output, and one to `http://169.254.169.254/…` would make the pipeline fetch it.
 */
import { existsSync, realpathSync } from "node:fs";
import { relative, resolve, sep, isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import { UnsafeContractError } from "./refused.ts";

function within(folder: string, file: string): boolean {
  const rel = relative(folder, file);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** Whether `file` is inside `folder`, as written and once links are followed (when it exists). */
export function insideFolder(folder: string, file: string): boolean {
  const lexical = within(resolve(folder), resolve(file));
  if (!lexical || !existsSync(file)) return lexical;
  return within(realpathSync(folder), realpathSync(file));
}

/**
 * Refuses the target of `ref` (written in the file `from`, at `where`) unless it is a file of the
 * contract's folder: `target` is the `$ref` resolved against its file's URL, fragment removed.
 */
export function checkRefTarget(target: URL, ref: string, where: string, folder: string): void {
  if (target.protocol !== "file:") {
    throw new UnsafeContractError(`${where}: $ref ${JSON.stringify(ref)} points at a URL; a contract is read from its own folder only, never fetched`);
  }
  let file: string;
  try {
    file = fileURLToPath(target);
  } catch {
    throw new UnsafeContractError(`${where}: $ref ${JSON.stringify(ref)} points at a URL; a contract is read from its own folder only, never fetched`);
  }
  if (!insideFolder(folder, file)) {
    throw new UnsafeContractError(`${where}: $ref ${JSON.stringify(ref)} leaves the contract's folder; a contract is read from its own folder only`);
  }
}

/** The same for a file read directly (the root document, a schema file found in the folder). */
export function checkFileInside(file: string, folder: string, shown: string): void {
  if (!insideFolder(folder, file)) throw new UnsafeContractError(`${shown} is outside the contract's folder (a link leading out of it); a contract is read from its own folder only`);
}
