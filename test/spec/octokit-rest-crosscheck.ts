/**
 * The cross-check of our response schemas against the counterpart's published REST description
 * (`@octokit/openapi`, `generated/api.github.com.json`, OpenAPI 3.0.3): for every operation both
 * describe (same path and method) and each success status both give a JSON body for, where our
 * schema is stricter (schema-strictness.ts), and which of their example responses our generated
 * `validateResponse` refuses.
 *
 * Feeds are compared event type by event type: their `event` has one `payload` that is any of
 * sixteen payload schemas (not tied to `type`), so each of our activity event types is paired with
 * their `event` whose `payload` is the payload schema of the same name (`PushEvent` with
 * `push-event`); a union of sixteen would hide every payload rule.
 *
 * Their document is OpenAPI 3.0: `nullable: true` is turned into JSON Schema's `null` type first,
 * so that a null they allow is compared as one.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { parse } from "yaml";
import { readSchemaFiles, SCHEMA_ID_BASE } from "../../generators/schema-files.ts";
import { validateResponse } from "../../generated/validators/index.js";
import type { OperationId } from "../../generated/types.ts";
import { compare, documentResolver, expand, fileResolver, noFacts, rootFacts, type Finding } from "./schema-strictness.ts";
import type { Node, Resolver } from "./schema-alternatives.ts";

const root = join(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);
/** Where our openapi.yaml sits among the schema files' base addresses (`schemas/x.json` resolves beside it). */
const OPENAPI_ID = new URL("../openapi.yaml", SCHEMA_ID_BASE).href;
const METHODS = ["get", "put", "post", "patch", "delete"] as const;

type Json = Record<string, unknown>;

export interface ResponseFinding extends Finding {
  /** `operationId status` (ours), or `feed:<EventType>` for one activity event type of every feed. */
  unit: string;
}

export interface SharedResponse {
  operationId: OperationId;
  path: string;
  method: string;
  status: string;
  ours: Json;
  theirs: Json;
}

export interface ExampleResult {
  operationId: OperationId;
  status: string;
  name: string;
  value: unknown;
  errors: { path: string; message: string }[];
}

/** OpenAPI 3.0's `nullable: true` as JSON Schema: `null` added to `type` (and `enum`), or an `anyOf` with null. */
export function nullableToJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(nullableToJsonSchema);
  if (value === null || typeof value !== "object") return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value as Json)) out[k] = k === "example" || k === "examples" ? v : nullableToJsonSchema(v);
  if (out.nullable !== true) return out;
  delete out.nullable;
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (typeof out.type === "string") return { ...out, type: [out.type, "null"] };
  if (out.type === undefined) return { anyOf: [out, { type: "null" }] };
  return out;
}

let theirDoc: Json | undefined;
/** Their description, with `nullable` turned into JSON Schema (13 MB: read once, and never the package's index.js, which loads all ten editions). */
export function theirRestDocument(): Json {
  theirDoc ??= nullableToJsonSchema(JSON.parse(readFileSync(require.resolve("@octokit/openapi/generated/api.github.com.json"), "utf8"))) as Json;
  return theirDoc;
}

let ourDoc: Json | undefined;
function ourOpenApi(): Json {
  ourDoc ??= parse(readFileSync(join(root, "spec/openapi.yaml"), "utf8")) as Json;
  return ourDoc;
}

/** A `#/components/…` reference inside one document, followed until it is not one. */
function local(doc: Json, node: unknown): Json {
  let n = node as Json;
  for (let i = 0; typeof n?.$ref === "string" && n.$ref.startsWith("#/"); i++) {
    if (i > 10) throw new Error(`reference loop at ${String(n.$ref)}`);
    n = n.$ref
      .slice(2)
      .split("/")
      .reduce<unknown>((cur, key) => (cur as Json)[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc) as Json;
  }
  return n;
}

/** Every operation both describe, by path and method, with each success status both give a JSON body for. */
export function sharedResponses(): SharedResponse[] {
  const ours = ourOpenApi();
  const theirs = theirRestDocument();
  const out: SharedResponse[] = [];
  for (const [path, item] of Object.entries(ours.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      const theirOp = ((theirs.paths as Record<string, Json>)[path]?.[method] ?? undefined) as Json | undefined;
      if (!op || !theirOp) continue;
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (!/^2\d\d$/.test(status)) continue;
        const ourBody = (local(ours, response).content as Json | undefined)?.["application/json"] as Json | undefined;
        const theirResponse = (theirOp.responses as Json)[status];
        const theirBody = theirResponse ? ((local(theirs, theirResponse).content as Json | undefined)?.["application/json"] as Json | undefined) : undefined;
        if (ourBody?.schema && theirBody?.schema) out.push({ operationId: op.operationId as OperationId, path, method, status, ours: ourBody.schema as Json, theirs: theirBody.schema as Json });
      }
    }
  }
  return out;
}

/** The operations both describe: same path, same method. */
export function sharedOperations(): { operationId: OperationId; path: string; method: string; theirs: Json }[] {
  const theirs = theirRestDocument();
  const out: { operationId: OperationId; path: string; method: string; theirs: Json }[] = [];
  for (const [path, item] of Object.entries(ourOpenApi().paths as Record<string, Json>))
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      const theirOp = (theirs.paths as Record<string, Json>)[path]?.[method] as Json | undefined;
      if (op && theirOp) out.push({ operationId: op.operationId as OperationId, path, method, theirs: theirOp });
    }
  return out;
}

/** Every example response they publish for an operation we share (any status), run through our `validateResponse`. */
export function exampleResults(): ExampleResult[] {
  const theirs = theirRestDocument();
  const results: ExampleResult[] = [];
  for (const shared of sharedOperations()) {
    for (const [status, response] of Object.entries(shared.theirs.responses as Json)) {
      for (const [media, body] of Object.entries((local(theirs, response).content as Record<string, Json> | undefined) ?? {})) {
        for (const [name, example] of Object.entries((body.examples as Json | undefined) ?? {})) {
          const value = (local(theirs, example) as Json).value;
          const r = validateResponse(shared.operationId, status, value, { mediaType: media });
          results.push({ operationId: shared.operationId, status, name, value, errors: r.valid ? [] : r.errors });
        }
      }
    }
  }
  return results;
}

/** Our schemas (the files and openapi.yaml) as one resolver: `schemas/x.json` from openapi.yaml lands on the file. */
function ourResolver(): Resolver {
  const files = readSchemaFiles(join(root, "spec/schemas"));
  return fileResolver(new Map<string, Json>([...files.map((f) => [f.id, f.schema] as const), [OPENAPI_ID, ourOpenApi()]]));
}

/** `PushEvent` → `push-event`, their payload schema's name. */
const payloadSchemaName = (type: string) =>
  type
    .replace(/([a-z])([A-Z])/g, "$1-$2")
    .toLowerCase();

/** Every activity event type of ours (the `oneOf` of ActivityEvent), with the file that describes it. */
function activityTypes(): { type: string; file: string }[] {
  const files = readSchemaFiles(join(root, "spec/schemas"));
  return files
    .filter((f) => f.name.startsWith("activity/"))
    .map((f) => ({ type: ((f.schema.properties as Json).type as Json).const as string, file: f.id }));
}

export interface CrossCheck {
  findings: ResponseFinding[];
  /** The units compared (`listRepoHooks 200`, `feed:PushEvent`). */
  compared: string[];
  /** Our activity event types their description has no payload schema for. */
  uncompared: string[];
}

export function crossCheckResponses(): CrossCheck {
  const ours = ourResolver();
  const doc = theirRestDocument();
  const theirs = documentResolver(doc);
  const schemas = (doc.components as Json).schemas as Json;
  const result: CrossCheck = { findings: [], compared: [], uncompared: [] };
  const run = (unit: string, ourNode: Node, theirNode: Node) => {
    const theirAlts = expand(theirNode, theirs, noFacts);
    const ourAlts = expand(ourNode, ours, rootFacts(theirAlts, theirs));
    result.compared.push(unit);
    result.findings.push(...compare(ourAlts, theirAlts, { ours, theirs }).map((f) => ({ ...f, unit })));
  };
  let feedsDone = false;
  for (const shared of sharedResponses()) {
    const isFeed = /^list\w*Events$/.test(shared.operationId) && !shared.operationId.startsWith("listIssue");
    if (!isFeed) {
      run(`${shared.operationId} ${shared.status}`, { s: shared.ours, base: OPENAPI_ID }, { s: shared.theirs, base: "" });
      continue;
    }
    // Every feed answers the same array of ActivityEvent (checked here, not assumed): compare its types once.
    const items = ((shared.ours as Json).items ?? {}) as Json;
    if (shared.ours.type !== "array" || !/activity-event\.json$|ActivityEvent$/.test(String(items.$ref))) throw new Error(`${shared.operationId}: a feed that is not an array of ActivityEvent`);
    if (feedsDone) continue;
    feedsDone = true;
    const event = schemas.event as Json;
    for (const { type, file } of activityTypes()) {
      const name = payloadSchemaName(type);
      if (!schemas[name]) {
        result.uncompared.push(type);
        continue;
      }
      const paired = { ...event, properties: { ...(event.properties as Json), payload: { $ref: `#/components/schemas/${name}` } } };
      run(`feed:${type}`, { s: { $ref: file }, base: OPENAPI_ID }, { s: paired, base: "" });
    }
  }
  return result;
}

export function format(f: ResponseFinding): string {
  return `${f.unit} ${f.pointer || "/"} ${f.kind}: ${f.detail}${f.when ? ` (${f.when})` : ""}`;
}
