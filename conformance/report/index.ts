/**
 * Reporter names as the CLI takes them (`--reporter console,junit,json,html`) and the file ones
 * written after a run into `--out DIR`: junit.xml, results.json (the RunSummary, described by
 * results.schema.json) and report.html. The console reporter streams during the run instead
 * (console.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
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

/** Writes the file reporters' output; returns the paths written. */
export function writeReports(summary: RunSummary, reporters: readonly ReporterName[], outDir: string): string[] {
  const written: string[] = [];
  for (const name of reporters) {
    if (name === "console") continue;
    const { file, render } = REPORT_FILES[name];
    mkdirSync(outDir, { recursive: true });
    const path = join(outDir, file);
    writeFileSync(path, render(summary));
    written.push(path);
  }
  return written;
}

export { ConsoleReporter } from "./console.ts";
export { htmlReport } from "./html.ts";
export { junitXml } from "./junit.ts";
