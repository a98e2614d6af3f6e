/**
 * Writing and drift-checking the generated tree. Generation is a pure function from the spec
 * to a map of relative path → file contents; this module is the only place that touches the
 * output folder, so "write" and "check" can never disagree about what generate would produce.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { makeFolder } from "./make-folder.ts";

export interface GeneratedFile {
  /** Path relative to the output folder, `/`-separated. */
  path: string;
  contents: string;
}

export interface Drift {
  added: string[];
  changed: string[];
  deleted: string[];
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

/**
 * Whether `path` is `folder` or inside it (`/` contains everything). A child whose name merely
 * starts with dots (`..x`) is inside; only `..` itself or a path through it leaves the folder.
 */
export function isWithin(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return !(rel === ".." || rel.startsWith(".." + sep) || isAbsolute(rel));
}

/** Normalise what every target emits: LF line endings, exactly one trailing newline. */
export function normalise(contents: string): string {
  return contents.replace(/\r\n?/g, "\n").replace(/\n*$/, "\n");
}

/** Whether a relative path falls under a scope (undefined scope: everything). */
export function inScope(path: string, scope: readonly string[] | undefined): boolean {
  return !scope || scope.some((owned) => (owned.endsWith("/") ? path.startsWith(owned) : path === owned));
}

/**
 * Empty the output folder (or, with a scope, only the paths the scope owns), then write every
 * file. Scoping lets `--targets types` refresh types.ts without deleting the other targets.
 */
export function writeOutput(outDir: string, files: readonly GeneratedFile[], scope?: readonly string[]): void {
  if (scope) for (const owned of scope) rmSync(join(outDir, owned), { recursive: true, force: true });
  else rmSync(outDir, { recursive: true, force: true });
  for (const file of files) {
    const target = join(outDir, file.path);
    makeFolder(dirname(target));
    writeFileSync(target, normalise(file.contents));
  }
}

/** Compare the output folder (within the scope) with what would be written. Nothing is changed on disk. */
export function diffOutput(outDir: string, files: readonly GeneratedFile[], scope?: readonly string[]): Drift {
  const expected = new Map(files.map((f) => [f.path, normalise(f.contents)]));
  const actual = new Set(
    listFiles(outDir)
      .map((f) => relative(outDir, f).split(sep).join("/"))
      .filter((f) => inScope(f, scope)),
  );
  const drift: Drift = { added: [], changed: [], deleted: [] };
  for (const [path, contents] of expected) {
    if (!actual.has(path)) drift.added.push(path);
    else if (readFileSync(join(outDir, path), "utf8") !== contents) drift.changed.push(path);
  }
  for (const path of actual) if (!expected.has(path)) drift.deleted.push(path);
  for (const list of Object.values(drift)) list.sort();
  return drift;
}

export function hasDrift(drift: Drift): boolean {
  return drift.added.length + drift.changed.length + drift.deleted.length > 0;
}
