/**
 * The plain JSON Schema edition (bundle/json-schema/, `service-contract bundle`) read by a
 * validator in another language: Python's jsonschema (Debian's python3-jsonschema, installed by
 * .ci/run). For every file of the edition, in 2020-12 and in draft-07, each valid example of the
 * schema it comes from (spec/examples/<schema>/valid-*.json) passes and each invalid one fails,
 * as they do with our Ajv (test/spec/examples.test.ts). One Python process for all of them.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../repo-root.ts";

interface IndexEntry {
  title: string;
  source?: string;
  "2020-12": string;
  "draft-07": string;
}
const index = JSON.parse(readFileSync(join(repoRoot, "bundle/json-schema/index.json"), "utf8")) as Record<"webhooks" | "resources", Record<string, IndexEntry>>;

interface Case {
  label: string;
  schema: string;
  dialect: "2020-12" | "draft-07";
  instance: string;
  expectValid: boolean;
}

const cases: Case[] = [];
for (const entry of [...Object.values(index.webhooks), ...Object.values(index.resources)]) {
  const examples = join(repoRoot, "spec/examples", entry.source!.replace(/^spec\/schemas\//, "").replace(/\.json$/, ""));
  for (const file of existsSync(examples) ? readdirSync(examples).filter((f) => f.endsWith(".json")).sort() : []) {
    for (const dialect of ["2020-12", "draft-07"] as const) {
      cases.push({
        label: `${dialect}/${entry[dialect]} ${file}`,
        schema: join(repoRoot, "bundle/json-schema", entry[dialect]),
        dialect,
        instance: join(examples, file),
        expectValid: file.startsWith("valid"),
      });
    }
  }
}

function runPython(list: readonly Case[]): { valid: boolean; error: string | null }[] {
  const input = join(mkdtempSync(join(tmpdir(), "py-jsonschema-")), "cases.json");
  writeFileSync(input, JSON.stringify(list.map(({ schema, dialect, instance }) => ({ schema, dialect, instance }))));
  // /usr/bin/python3: Debian's interpreter, whose jsonschema is the package .ci/run installs.
  const python = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  return JSON.parse(execFileSync(python, [join(repoRoot, "test/tools/jsonschema_check.py"), input], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })) as { valid: boolean; error: string | null }[];
}

describe("Python's jsonschema on the JSON Schema edition", () => {
  const results = runPython(cases);

  it("has every webhook event and resource, each with valid and invalid examples in both dialects", () => {
    expect(Object.keys(index.webhooks).length).toBeGreaterThanOrEqual(22);
    expect(cases.filter((c) => c.expectValid).length).toBeGreaterThan(100);
    expect(cases.filter((c) => !c.expectValid).length).toBeGreaterThan(50);
  });

  it.each(cases.map((c, i) => [c.label, c, i] as const))("%s", (_label, c, i) => {
    expect(results[i]!.valid, results[i]!.error ?? "accepted an invalid example").toBe(c.expectValid);
  });
});
