/**
 * The schemas must accept what the real service sends: fields the contract does not name (the
 * service adds fields over time, and a consumer's validator must not break on them), and null
 * where the service sends null. Each case starts from a committed valid example, changes one
 * thing, and must still validate; so tightening a schema (`additionalProperties: false`, a
 * non-nullable `closed_at`) fails here even when no example happens to exercise it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAjv } from "../../generators/ajv.ts";
import { readSchemaFiles } from "../../generators/schema-files.ts";

const root = join(import.meta.dirname, "../..");
const schemas = readSchemaFiles(join(root, "spec/schemas"));
const ajv = createAjv(schemas);

function validator(name: string) {
  const s = schemas.find((x) => x.name === name);
  const validate = s && ajv.getSchema(s.id);
  if (!validate) throw new Error(`no schema ${name}`);
  return validate;
}

function example(name: string, file: string): unknown {
  return JSON.parse(readFileSync(join(root, "spec/examples", name, file), "utf8"));
}

function validExamples(name: string): string[] {
  return readdirSync(join(root, "spec/examples", name)).filter((f) => f.startsWith("valid")).sort();
}

/**
 * Maps whose keys are data, not field names: `_links` (each value `{href}`) and a delivery's
 * `headers` (header name → value). A new key there must have the map's value type, so they are
 * left alone; their own values (`_links.self`) still get the extra field.
 */
const MAPS = new Set(["_links", "headers"]);

/** Adds an unknown string-valued field to every record object in the value (the top level included). */
function withUnknownFields(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withUnknownFields(v));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = key !== undefined && MAPS.has(key) ? {} : { x_field_added_later: "new" };
  for (const [k, v] of Object.entries(value)) out[k] = withUnknownFields(v, k);
  return out;
}

function setAt(value: unknown, path: string[], to: unknown): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path.at(-1)!;
  expect(node, `example has ${path.join(".")}`).toHaveProperty(last);
  node[last] = to;
  return copy;
}

describe("unknown fields are accepted wherever the service sends objects", () => {
  const objectSchemas = schemas.filter((s) => !["scope", "webhook-event-name"].includes(s.name));
  it.each(objectSchemas.flatMap((s) => validExamples(s.name).map((f) => [`${s.name}/${f}`, s.name, f] as const)))(
    "%s with an extra field in every object",
    (_label, name, file) => {
      const validate = validator(name);
      const ok = validate(withUnknownFields(example(name, file)));
      expect(ok, JSON.stringify(validate.errors, null, 2)).toBe(true);
    },
  );
});

/** [schema, example file, path to a field the service sends as null]. */
const NULLABLE: [string, string, string][] = [
  ["issue", "valid-open.json", "closed_at"],
  ["issue", "valid-open.json", "milestone"],
  ["issue", "valid-open.json", "assignee"],
  ["issue", "valid-open.json", "body"],
  ["pull-request", "valid-open.json", "closed_at"],
  ["pull-request", "valid-open.json", "milestone"],
  ["pull-request", "valid-open.json", "assignee"],
  ["pull-request", "valid-open.json", "merged_at"],
  ["pull-request", "valid-open.json", "merged_by"],
  ["pull-request", "valid-open.json", "merge_commit_sha"],
  ["pull-request", "valid-open.json", "mergeable"],
  ["milestone", "valid-open.json", "closed_at"],
  ["milestone", "valid-open.json", "due_on"],
  ["milestone", "valid-open.json", "description"],
  ["repository", "valid-repository.json", "description"],
  ["repository", "valid-repository.json", "homepage"],
  ["repository", "valid-repository.json", "pushed_at"],
  ["webhooks/push", "valid-branch-push.json", "base_ref"],
  ["webhooks/push", "valid-branch-push.json", "head_commit"],
  ["issue-event-base", "valid-subscribed.json", "commit_id"],
  ["issue-event-base", "valid-closed-by-commit.json", "commit_id"],
];

describe("null is accepted where the service sends null", () => {
  it.each(NULLABLE.map(([s, f, p]) => [`${s}.${p}`, s, f, p] as const))("%s", (_label, name, file, path) => {
    const validate = validator(name);
    const ok = validate(setAt(example(name, file), path.split("."), null));
    expect(ok, JSON.stringify(validate.errors, null, 2)).toBe(true);
  });
});
