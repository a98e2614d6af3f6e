/**
 * Spectral (`spectral:oas`, a linter we did not write) finds no error in the contract: the
 * multi-file source (spec/openapi.yaml with its schema files), and the bundle's 3.1 file and
 * 3.0 edition. One Spectral process reads all three. Its warnings are counted by kind: each kind
 * is one test/tools/spectral.yaml explains, as many as the document accounts for
 * (test/tools/lint-warnings.ts), so a new kind of warning fails.
 *
 * Why all three: they are what users feed to tools — the source to editors, the 3.1 bundle and
 * the 3.0 edition to tools that read one file — and Spectral's resolver and its 3.0 rules see
 * each differently. The run is preloaded with spectral-compile-once.cjs, which lets Ajv compile
 * each distinct schema once instead of once per example (Spectral copies the schema for every
 * example): the same rules and validators on the same documents, for about a third of the CPU.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../repo-root.ts";
import { ceiling } from "../ceilings.ts";
import { parse } from "yaml";
import { spectralWarnings } from "./lint-warnings.ts";

interface Finding {
  code: string;
  message: string;
  path: string[];
  severity: number;
  source?: string;
}

const DOCUMENTS = ["spec/openapi.yaml", "bundle/openapi.json", "bundle/openapi-3.0.json"];
let findings: Finding[] = [];

beforeAll(async () => {
  const bin = join(repoRoot, "node_modules/.bin/spectral");
  const preload = join(repoRoot, "test/tools/spectral-compile-once.cjs");
  const args = ["--require", preload, bin, "lint", ...DOCUMENTS, "--ruleset", "test/tools/spectral.yaml", "--format", "json", "--quiet", "--fail-severity", "error"];
  // Exit 1 when there are errors: the JSON on stdout is what the tests judge.
  const result = await promisify(execFile)(process.execPath, args, { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 }).catch((e: { stdout?: string; stderr?: string }) => {
    if (!e.stdout) throw new Error(`spectral did not run: ${e.stderr}`);
    return { stdout: e.stdout };
  });
  findings = JSON.parse(result.stdout) as Finding[];
}, ceiling(150_000));

describe("Spectral spectral:oas", () => {
  it("read every document (its warnings name each)", () => {
    const sources = new Set(findings.map((f) => f.source?.slice(repoRoot.length + 1)));
    for (const doc of DOCUMENTS) expect(sources, doc).toContain(doc);
  });

  it.each(DOCUMENTS)("%s: 0 errors", (doc) => {
    const errors = findings.filter((f) => f.severity === 0 && f.source === join(repoRoot, doc)).map((f) => `${f.code} #/${f.path.join("/")}: ${f.message}`);
    expect(errors).toEqual([]);
  });

  it.each(DOCUMENTS)("%s: only the warnings spectral.yaml explains, as many as the document accounts for", (doc) => {
    const counts: Record<string, number> = {};
    for (const f of findings.filter((f) => f.severity > 0 && f.source === join(repoRoot, doc))) counts[f.code] = (counts[f.code] ?? 0) + 1;
    const sorted = Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
    expect(sorted).toEqual(spectralWarnings(parse(readFileSync(join(repoRoot, doc), "utf8")) as Record<string, unknown>));
  });
});
