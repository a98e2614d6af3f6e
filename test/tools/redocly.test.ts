/**
 * Redocly (`recommended`, with the two exceptions spec/redocly.yaml gives the seed's reasons for)
 * finds no error in the bundle's 3.1 file and 3.0 edition; the source is linted the same way by
 * `service-contract lint` (test/cli/lint.test.ts). One Redocly process reads both files. Its
 * warnings are counted by kind: each kind is one spec/redocly.yaml explains, as many as the
 * document accounts for (test/tools/lint-warnings.ts), so a new kind of warning fails.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../repo-root.ts";
import { ceiling } from "../ceilings.ts";
import { redoclyWarnings } from "./lint-warnings.ts";

interface Problem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: { source: { ref: string }; pointer: string }[];
}

const DOCUMENTS = ["bundle/openapi.json", "bundle/openapi-3.0.json"];
const problems: Problem[] = [];

/** The top-level JSON values of a text holding several, back to back. */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") {
      if (depth++ === 0) start = i;
    } else if (c === "}" && --depth === 0) values.push(JSON.parse(text.slice(start, i + 1)));
  }
  return values;
}
let output = "";

beforeAll(async () => {
  const bin = join(repoRoot, "node_modules/.bin/redocly");
  const args = ["lint", ...DOCUMENTS, "--config", "spec/redocly.yaml", "--format", "json", "--max-problems", "100000"];
  const result = await promisify(execFile)(bin, args, { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } }).catch(
    (e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? "", stderr: e.stderr ?? "" }),
  );
  output = result.stdout;
  // One JSON report per document, printed one right after the other (`}{`).
  for (const report of jsonValues(result.stdout)) problems.push(...(report as { problems: Problem[] }).problems);
}, ceiling(150_000));

describe("Redocly recommended on the bundle", () => {
  it("read both documents", () => {
    expect(output.match(/"totals"/g)?.length).toBe(DOCUMENTS.length);
  });

  it.each(DOCUMENTS)("%s: 0 errors", (doc) => {
    const errors = problems.filter((p) => p.severity === "error" && p.location[0]?.source.ref === doc).map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(errors).toEqual([]);
  });

  it.each(DOCUMENTS)("%s: only the warnings spec/redocly.yaml explains, as many as the document accounts for", (doc) => {
    const counts: Record<string, number> = {};
    for (const p of problems.filter((p) => p.severity === "warn" && p.location[0]?.source.ref === doc)) counts[p.ruleId] = (counts[p.ruleId] ?? 0) + 1;
    const sorted = Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
    expect(sorted).toEqual(redoclyWarnings(JSON.parse(readFileSync(join(repoRoot, doc), "utf8")) as Record<string, unknown>));
  });
});
