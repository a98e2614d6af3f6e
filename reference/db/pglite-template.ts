/**
 * A fresh PGlite database costs an `initdb` in WebAssembly: about 3 s in memory and 9 s on disk
 * on the reference machine. Every new database is instead restored from one template image of an
 * empty cluster (about 0.5 s), made once per PGlite version and kept in the user's cache folder,
 * so a first `serve`, and every test that starts a server, is quick.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PACKAGE_JSON } from "../../generators/package-files.ts";

// The image is only valid for the PGlite it was made with; the exact pin names that version
// (PGlite's package.json is not in its exports, so it cannot be read from there).
const PGLITE_VERSION = PACKAGE_JSON.dependencies["@electric-sql/pglite"];

function cacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || (homedir() ? join(homedir(), ".cache") : tmpdir());
  return join(base, "service-contract");
}

let pending: Promise<Blob> | undefined;

/** The template image: read from the cache, or made (and cached) on first use. */
export function pgliteTemplate(): Promise<Blob> {
  pending ??= (async () => {
    const file = join(cacheDir(), `pglite-${PGLITE_VERSION}-empty.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const pg = await PGlite.create();
    const image = await pg.dumpDataDir("none");
    await pg.close();
    try {
      mkdirSync(cacheDir(), { recursive: true });
      // Write then rename, so a concurrent process never reads half a file.
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, Buffer.from(await image.arrayBuffer()));
      renameSync(partial, file);
    } catch {
      // A read-only home is fine: the template is only a speed-up.
    }
    return image;
  })();
  return pending;
}
