/**
 * The precompiled (standalone) validators and Ajv compiling the same schemas at run time must
 * agree on every example of the contract, and both must agree with the example's file name.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAjv } from "../../generators/ajv.ts";
import { readSchemaFiles } from "../../generators/schema-files.ts";
import { validateSchema, validateWebhook, webhookEvents } from "../../generated/validators/index.js";

const root = join(import.meta.dirname, "../..");
const schemaFiles = readSchemaFiles(join(root, "spec/schemas"));
const ajv = createAjv(schemaFiles);

const cases = schemaFiles.flatMap((s) => {
  const dir = join(root, "spec/examples", s.name);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ label: `${s.name}/${f}`, title: String(s.schema.title), id: s.id, file: join(dir, f), expected: f.startsWith("valid") }));
});

describe("standalone validators agree with run-time Ajv on every example", () => {
  it("covers every schema", () => {
    expect(new Set(cases.map((c) => c.id)).size).toBe(schemaFiles.length);
  });

  it.each(cases.map((c) => [c.label, c] as const))("%s", (_label, c) => {
    const value = JSON.parse(readFileSync(c.file, "utf8")) as unknown;
    const runtime = ajv.getSchema(c.id)!(value);
    const standalone = validateSchema(c.title, value);
    expect(runtime).toBe(c.expected);
    expect(standalone.valid).toBe(c.expected);
    if (!standalone.valid) {
      expect(standalone.errors.length).toBeGreaterThan(0);
      for (const e of standalone.errors) expect(e.path === "" || e.path.startsWith("/")).toBe(true);
    }
  });
});

describe("validateWebhook", () => {
  it.each(webhookEvents.map((e) => [e]))("%s: the examples of its payload schema", (event) => {
    const dir = join(root, "spec/examples/webhooks", event);
    for (const f of readdirSync(dir).sort()) {
      const result = validateWebhook(event, JSON.parse(readFileSync(join(dir, f), "utf8")));
      expect(result.valid, `${event}/${f}`).toBe(f.startsWith("valid"));
    }
  });
});
