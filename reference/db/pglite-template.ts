/**
 * A new PGlite database starts from a template: a cluster on which `initdb` and every migration
 * have already run, cleanly closed. Making one costs an `initdb` in WebAssembly plus the
 * migrations (seconds of CPU); starting from it costs a file copy. It is made once per PGlite
 * version and set of migrations and kept in the user's cache folder
 * (`$XDG_CACHE_HOME/service-contract`, else `~/.cache/service-contract`) in two forms:
 *
 * - `pglite-<version>-<migrations>/`, a closed cluster folder: a new data folder is a copy of it
 *   (fs.cpSync) that PGlite opens as an existing cluster — far cheaper than unpacking a tar;
 * - `pglite-<version>-<migrations>.tar`, its image: an in-memory database is loaded from it
 *   (PGlite has no other way to fill its in-memory file system), read once per process.
 *
 * `<migrations>` hashes every migration's name and contents, so a changed or added migration
 * makes a new template and a database never starts from a stale schema; migrate() still runs at
 * every start and finds nothing to do. Both forms are written under a temporary name and renamed,
 * so two processes making one at once each finish and neither reads half of one. A cache that
 * cannot be written is no error: the template is then made in memory, kept for this process, and
 * loaded into the data folder directly.
 *
 * Each form is about 40 MB, and every PGlite upgrade or migration change makes a new pair, so
 * they are pruned: a use marks a form (its modification time), and making a new template removes
 * the others not used for a week, and partial copies a day old (a maker that was killed). Another
 * checkout still using an older template keeps it by using it; one that lost it makes it again,
 * in seconds. Deleting the cache folder is always safe.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PACKAGE_JSON } from "../../generators/package-files.ts";
import { listMigrations, migrate, type Migration } from "./migrate.ts";
import { PGLITE_START_PARAMS, pgliteDatabase } from "./pglite-database.ts";

// The image is only valid for the PGlite it was made with; the exact pin names that version
// (PGlite's package.json is not in its exports, so it cannot be read from there).
const PGLITE_VERSION = PACKAGE_JSON.dependencies["@electric-sql/pglite"];

export interface TemplateOptions {
  /** Default: the package's migrations (listMigrations()). */
  migrations?: Migration[];
  /** Default: $XDG_CACHE_HOME/service-contract, else ~/.cache/service-contract. */
  cacheDir?: string;
}

export function defaultCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || (homedir() ? join(homedir(), ".cache") : tmpdir());
  return join(base, "service-contract");
}

/** The template's name: PGlite's version and a hash of the migrations' names and contents. */
export function templateName(migrations: Migration[] = listMigrations()): string {
  const hash = createHash("sha256");
  for (const m of migrations) hash.update(`${m.id}\0${m.sql}\0`);
  return `pglite-${PGLITE_VERSION}-${hash.digest("hex").slice(0, 16)}`;
}

/**
 * A Blob over the image bytes already in memory. Node's Blob copies its parts when made and
 * again, in chunks, on every arrayBuffer() (~0.4 s of CPU each for the 40 MB image), and PGlite
 * only calls arrayBuffer(), so this hands it the bytes themselves: PGlite reads them (untar) and
 * copies each file into its in-memory file system, never writing to them, so one image serves
 * every database of the process (test/reference/pglite-template.test.ts opens several).
 */
class ImageBlob extends Blob {
  constructor(private readonly image: ArrayBuffer) {
    super([]);
  }
  override get size(): number {
    return this.image.byteLength;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.image);
  }
}

/** The bytes as an ArrayBuffer of their own (a small file's Buffer shares Node's pool). */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  return bytes.slice().buffer;
}

/** Removes a partial copy, if there is one and it can be removed (an unusable cache may refuse even that). */
function discard(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // Nothing was written there, or nothing can be: either way nothing is left to read.
  }
}

/** How long an unused template is kept, and a partial copy left by a maker that was killed. */
export const UNUSED_TEMPLATE_MS = 7 * 24 * 60 * 60 * 1000;
export const ABANDONED_PARTIAL_MS = 24 * 60 * 60 * 1000;

/** Marks a template form as used now (its modification time), when the cache lets it. */
function markUsed(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // A read-only cache: the form is still used; it may be pruned and made again, no more.
  }
}

/**
 * Removes from `dir` the templates other than `keep` (folder and image) that were not used for
 * UNUSED_TEMPLATE_MS, and partial copies older than ABANDONED_PARTIAL_MS; returns the names
 * removed. Only names this module makes (`pglite-…`) are touched; what cannot be read or removed
 * is left.
 */
export function pruneTemplates(dir: string, keep: string, now = Date.now()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith("pglite-") || name === keep || name === `${keep}.tar`) continue;
    const limit = name.endsWith(".partial") ? ABANDONED_PARTIAL_MS : UNUSED_TEMPLATE_MS;
    try {
      if (now - statSync(join(dir, name)).mtimeMs <= limit) continue;
      rmSync(join(dir, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Gone already (another process pruned it) or not ours to remove.
    }
  }
  return removed;
}

/** Write-then-rename: a reader sees the whole file or none. False when the cache cannot be written. */
function cacheFile(file: string, bytes: Uint8Array): boolean {
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
  try {
    writeFileSync(partial, bytes);
    renameSync(partial, file);
    return true;
  } catch {
    discard(partial);
    return false;
  }
}

/** A fresh cluster in memory, migrated, as a tar image. */
async function makeImage(migrations: Migration[]): Promise<Uint8Array> {
  const pg = await PGlite.create({ startParams: [...PGLITE_START_PARAMS] });
  try {
    await migrate(pgliteDatabase(pg), migrations);
    const image = await pg.dumpDataDir("none");
    return new Uint8Array(await image.arrayBuffer());
  } finally {
    await pg.close();
  }
}

// Per process: the image bytes by file, so several in-memory servers read (or make) it once.
const images = new Map<string, Promise<ArrayBuffer>>();

function imageBytes(options: TemplateOptions): Promise<ArrayBuffer> {
  const migrations = options.migrations ?? listMigrations();
  const dir = options.cacheDir ?? defaultCacheDir();
  const name = templateName(migrations);
  const file = join(dir, `${name}.tar`);
  let pending = images.get(file);
  if (!pending) {
    pending = (async () => {
      if (existsSync(file)) {
        markUsed(file);
        return ownBuffer(readFileSync(file));
      }
      const bytes = await makeImage(migrations);
      try {
        mkdirSync(dir, { recursive: true });
        // A new template is the moment the others may have become old: rare, so it costs nothing.
        if (cacheFile(file, bytes)) pruneTemplates(dir, name);
      } catch {
        // A read-only or unusable cache folder: this process keeps the image in memory.
      }
      return ownBuffer(bytes);
    })();
    // A failure is not remembered: the next open tries again.
    pending.catch(() => images.delete(file));
    images.set(file, pending);
  }
  return pending;
}

/** The migrated template image, as PGlite's `loadDataDir` takes it. */
export async function templateImage(options: TemplateOptions = {}): Promise<Blob> {
  return new ImageBlob(await imageBytes(options));
}

/**
 * The closed template cluster folder, made from the image if it is not there yet; undefined
 * when the cache cannot hold it (the caller then loads the image into its folder instead).
 */
async function templateFolder(options: TemplateOptions): Promise<string | undefined> {
  const migrations = options.migrations ?? listMigrations();
  const dir = options.cacheDir ?? defaultCacheDir();
  const folder = join(dir, templateName(migrations));
  // Only a finished folder is ever renamed to this name, so its presence means it is whole.
  if (existsSync(folder)) {
    markUsed(folder);
    return folder;
  }
  const loadDataDir = await templateImage(options);
  const partial = `${folder}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
  try {
    mkdirSync(dir, { recursive: true });
    const pg = await PGlite.create({ dataDir: partial, loadDataDir, startParams: [...PGLITE_START_PARAMS] });
    await pg.close();
    renameSync(partial, folder);
  } catch {
    // Another process renamed its copy first (the rename then fails: the name holds a non-empty
    // folder), or the cache cannot be written. Either way this copy is not needed.
    discard(partial);
  }
  return existsSync(folder) ? folder : undefined;
}

/**
 * Fills `dataDir` (empty but for the lock file) with a copy of the template folder and returns
 * true, so PGlite opens it as an existing cluster; false when there is no template folder (the
 * caller loads templateImage() instead).
 */
export async function copyTemplate(dataDir: string, options: TemplateOptions = {}): Promise<boolean> {
  const folder = await templateFolder(options);
  if (!folder) return false;
  cpSync(folder, dataDir, { recursive: true });
  return true;
}
