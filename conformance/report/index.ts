/**
 * Reporter names as the CLI takes them (`--reporter console,junit,json,html`) and the file ones
 * written after a run into `--out DIR`: junit.xml, results.json (the RunSummary, described by
 * results.schema.json) and report.html. The console reporter streams during the run instead
 * (console.ts).
 */
import { accessSync, constants, writeFileSync } from "node:fs";
import { makeFolder } from "../../generators/make-folder.ts";
import { join } from "node:path";
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
    makeFolder(outDir);
    accessSync(outDir, constants.W_OK);
  }
  return files;
}

/** Writes the file reporters' output; returns the paths written. */
export function writeReports(summary: RunSummary, reporters: readonly ReporterName[], outDir: string): string[] {
  return prepareReportDir(reporters, outDir).map((name) => {
    const { file, render } = REPORT_FILES[name];
    const path = join(outDir, file);
    writeFileSync(path, render(summary));
    return path;
  });
}

export { ConsoleReporter } from "./console.ts";
export { htmlReport } from "./html.ts";
export { junitXml } from "./junit.ts";
