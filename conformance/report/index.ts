/**
 * Reporter names as the CLI takes them (`--reporter console,junit,json,html`) and the file ones
 * written after a run into `--out DIR`: junit.xml, results.json (the RunSummary, described by
 * results.schema.json) and report.html. The console reporter streams during the run instead
 * (console.ts).
 */
import { randomBytes } from "node:crypto";
import { accessSync, closeSync, constants, lstatSync, openSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { makeFolder } from "../../generators/make-folder.ts";
import { basename, dirname, join } from "node:path";
import type { RunSummary } from "../core/types.ts";
import { htmlReport } from "./html.ts";
import { junitXml } from "./junit.ts";

export const REPORTERS = ["console", "junit", "json", "html"] as const;
export type ReporterName = (typeof REPORTERS)[number];

export const REPORT_FILES: Record<Exclude<ReporterName, "console">, { file: string; render: (s: RunSummary) => string }> = {
  junit: { file: "junit.xml", render: junitXml },
  json: { file: "results.json", render: (s) => `${JSON.stringify(s, null, 2)}\n` },
  html: { file: "report.html", render: htmlReport },
};

/** `console,html` → the names; an unknown name is an Error naming the known ones. */
export function parseReporters(value: string): ReporterName[] {
  const names = value.split(",").map((n) => n.trim()).filter((n) => n.length > 0);
  if (names.length === 0) throw new Error(`--reporter needs at least one of ${REPORTERS.join(", ")}`);
  const unknown = names.filter((n) => !(REPORTERS as readonly string[]).includes(n));
  if (unknown.length > 0) throw new Error(`unknown reporter ${unknown.join(", ")}; use ${REPORTERS.join(", ")}`);
  return [...new Set(names)] as ReporterName[];
}

type FileReporterName = Exclude<ReporterName, "console">;

/**
 * The reporters among `reporters` that write a file into `outDir` (all but console); when there
 * is one, makes `outDir` and checks it can be written, throwing the file system's error when it
 * cannot — so a run can find out before it starts, not after.
 */
export function prepareReportDir(reporters: readonly ReporterName[], outDir: string): FileReporterName[] {
  const files = reporters.filter((name): name is FileReporterName => name !== "console");
  if (files.length > 0) {
    refuseLink(outDir);
    makeFolder(outDir);
    accessSync(outDir, constants.W_OK);
  }
  return files;
}

/** The report folder itself may not be a symbolic link: the suite writes only where it was told. */
function refuseLink(path: string): void {
  let link = false;
  try {
    link = lstatSync(path).isSymbolicLink();
  } catch {
    return; // not there yet: made below
  }
  if (link) throw Object.assign(new Error(`${path} is a symbolic link (reports are not written through links)`), { code: "ELOOP" });
}

/**
 * One report file, never through a symbolic link: written to a new file of a random name in the
 * folder (O_EXCL | O_NOFOLLOW: made by this call, nothing planted) and renamed over the report's
 * name, which replaces whatever was there — a link planted as `report.html` is replaced as a
 * name, its target untouched.
 */
function writeReportFile(path: string, text: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    try {
      writeFileSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Writes the file reporters' output; returns the paths written. */
export function writeReports(summary: RunSummary, reporters: readonly ReporterName[], outDir: string): string[] {
  return prepareReportDir(reporters, outDir).map((name) => {
    const { file, render } = REPORT_FILES[name];
    const path = join(outDir, file);
    writeReportFile(path, render(summary));
    return path;
  });
}

export { ConsoleReporter } from "./console.ts";
export { htmlReport } from "./html.ts";
export { junitXml } from "./junit.ts";
