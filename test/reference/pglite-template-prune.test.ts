/**
 * The template cache does not grow without end (reference/db/pglite-template.ts): each template
 * is ~80 MB in two forms, and every PGlite upgrade or migration change makes a new one. A use
 * marks a form; pruning removes other templates unused for a week and partial copies a day old,
 * and nothing else. Real folders with set modification times; that making a template prunes is
 * test/reference/pglite-template.test.ts's (it costs an initdb).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ABANDONED_PARTIAL_MS, copyTemplate, pruneTemplates, templateName, UNUSED_TEMPLATE_MS } from "../../reference/db/pglite-template.ts";

const scratch = mkdtempSync(join(tmpdir(), "pglite-prune-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const HOUR = 60 * 60 * 1000;

/** A file or folder at `dir/name`, last modified `age` ms before `now`. */
function made(dir: string, name: string, age: number, now: number, folder = false): void {
  const path = join(dir, name);
  if (folder) {
    mkdirSync(path, { recursive: true });
    writeFileSync(join(path, "PG_VERSION"), "17\n");
  } else writeFileSync(path, "image");
  const at = new Date(now - age);
  utimesSync(path, at, at);
}

describe("pruning the template cache", () => {
  it("removes other templates unused for a week and partial copies a day old; keeps the current one, recent ones and what is not a template", () => {
    const dir = join(scratch, "cache");
    mkdirSync(dir);
    const now = Date.now();
    const keep = "pglite-0.5.16-aaaaaaaaaaaaaaaa";
    made(dir, keep, 30 * 24 * HOUR, now, true); // the current template is kept however old
    made(dir, `${keep}.tar`, 30 * 24 * HOUR, now);
    made(dir, "pglite-0.5.15-bbbbbbbbbbbbbbbb", UNUSED_TEMPLATE_MS + HOUR, now, true);
    made(dir, "pglite-0.5.15-bbbbbbbbbbbbbbbb.tar", UNUSED_TEMPLATE_MS + HOUR, now);
    made(dir, "pglite-0.5.16-cccccccccccccccc", UNUSED_TEMPLATE_MS - HOUR, now, true); // used six days ago
    made(dir, "pglite-0.5.16-cccccccccccccccc.tar", UNUSED_TEMPLATE_MS - HOUR, now);
    made(dir, `${keep}.123.abc.partial`, ABANDONED_PARTIAL_MS + HOUR, now, true); // a maker killed yesterday
    made(dir, `${keep}.tar.456.def.partial`, HOUR, now); // a maker at work now
    made(dir, "notes.txt", 365 * 24 * HOUR, now); // not ours

    const removed = pruneTemplates(dir, keep, now);

    expect(removed.sort()).toEqual(["pglite-0.5.15-bbbbbbbbbbbbbbbb", "pglite-0.5.15-bbbbbbbbbbbbbbbb.tar", `${keep}.123.abc.partial`]);
    expect(readdirSync(dir).sort()).toEqual([
      "notes.txt",
      keep,
      `${keep}.tar`,
      `${keep}.tar.456.def.partial`,
      "pglite-0.5.16-cccccccccccccccc",
      "pglite-0.5.16-cccccccccccccccc.tar",
    ]);
  });

  it("a cache folder that does not exist prunes nothing and throws nothing", () => {
    expect(pruneTemplates(join(scratch, "none"), "pglite-0.5.16-aaaaaaaaaaaaaaaa")).toEqual([]);
  });

  it("a new data folder made from the template marks the template used", async () => {
    const cacheDir = join(scratch, "used");
    mkdirSync(cacheDir);
    const now = Date.now();
    made(cacheDir, templateName(), UNUSED_TEMPLATE_MS + HOUR, now, true);
    const dataDir = join(scratch, "data");
    mkdirSync(dataDir);

    expect(await copyTemplate(dataDir, { cacheDir })).toBe(true);

    expect(readdirSync(dataDir)).toEqual(["PG_VERSION"]);
    // Marked now, so a prune a week from the old mark keeps it.
    expect(now - statSync(join(cacheDir, templateName())).mtimeMs).toBeLessThan(HOUR);
    expect(pruneTemplates(cacheDir, "pglite-0.5.16-aaaaaaaaaaaaaaaa")).toEqual([]);
  });
});
