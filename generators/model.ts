/**
 * The generators' one view of the contract: a frozen, sorted model built from the OpenAPI root
 * document and the schema files beside it. Every target reads this and nothing else, so the
 * order of operations, parameters, responses and schemas is decided here, once, and output
 * is byte-for-byte stable between runs and machines.
 *
 * Schema nodes in the model are "compilable": local `$ref`s are inlined and file refs are
 * absolute `$id`s, so Ajv can compile any of them next to the schema files.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { readSchemaFiles, type SchemaFile } from "./schema-files.ts";
import { compilableSchema, resolvePointer } from "./spec-schemas.ts";
import { problem, unsupported } from "./problems.ts";

export type Json = unknown;
export type SchemaNode = Record<string, Json>;
export type Host = "api" | "auth";
export type ParamLocation = "path" | "query" | "header" | "cookie";

export interface ModelParameter {
  name: string;
  in: ParamLocation;
  required: boolean;
  description: string;
  schema: SchemaNode;
}

export interface ModelMedia {
  mediaType: string;
  schema: SchemaNode | undefined;
}

export interface ModelHeader {
  name: string;
  required: boolean;
  schema: SchemaNode;
}

export interface ModelResponse {
  /** "200", "304", "2XX", "default". */
  status: string;
  description: string;
  headers: ModelHeader[];
  content: ModelMedia[];
}

export interface ModelOperation {
  id: string;
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI path template: `/repos/{owner}/{repo}/events`. */
  path: string;
  host: Host;
  summary: string;
  tags: string[];
  /** Names of security schemes that may authorize the call; "" means anonymous is allowed. */
  security: string[];
  parameters: ModelParameter[];
  requestBody: { required: boolean; content: ModelMedia[] } | undefined;
  responses: ModelResponse[];
}

export interface ModelWebhook {
  event: string;
  summary: string;
  headers: ModelParameter[];
  content: ModelMedia[];
}

export interface ModelSchema {
  /** The schema file's title, used as the TypeScript type name and the validator name. */
  name: string;
  /** Path under spec/schemas without `.json`. */
  file: string;
  /** The schema file on disk (SchemaFile.file), for problem reports. */
  path: string;
  id: string;
}

export interface Model {
  /** The root document's path as given to buildModel, for problem reports. */
  specFile: string;
  /** The root document as parsed (local refs unresolved), for targets that need more than the model. */
  root: Readonly<Record<string, Json>>;
  title: string;
  version: string;
  operations: readonly ModelOperation[];
  webhooks: readonly ModelWebhook[];
  schemas: readonly ModelSchema[];
  schemaFiles: readonly SchemaFile[];
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;
const LOCATION_ORDER: Record<ParamLocation, number> = { path: 0, query: 1, header: 2, cookie: 3 };

const byKey =
  <T>(key: (t: T) => string) =>
  (a: T, b: T): number =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

// `file` is the root document's path, for problem reports.
function deref(doc: Json, node: Json, file: string): Record<string, Json> {
  let current = node as Record<string, Json>;
  for (let hops = 0; typeof current?.$ref === "string" && String(current.$ref).startsWith("#"); hops++) {
    if (hops > 32) throw problem("SPEC_UNSUPPORTED", file, String(current.$ref), "$ref chain longer than 32 hops (a cycle?)");
    current = resolvePointer(doc, current.$ref as string, file) as Record<string, Json>;
  }
  return current ?? {};
}

function parameter(doc: Json, node: Json, file: string): ModelParameter {
  const p = deref(doc, node, file);
  return {
    name: String(p.name),
    in: p.in as ParamLocation,
    required: p.in === "path" ? true : Boolean(p.required),
    description: String(p.description ?? ""),
    schema: compilableSchema(doc, p.schema ?? {}, file),
  };
}

function media(doc: Json, content: Json, file: string): ModelMedia[] {
  return Object.entries((content ?? {}) as Record<string, Json>)
    .map(([mediaType, m]) => {
      const schema = (m as { schema?: Json }).schema;
      return { mediaType, schema: schema === undefined ? undefined : compilableSchema(doc, schema, file) };
    })
    .sort(byKey((m) => m.mediaType));
}

function responses(doc: Json, node: Json, file: string): ModelResponse[] {
  return Object.entries((node ?? {}) as Record<string, Json>)
    .map(([status, r]) => {
      const response = deref(doc, r, file);
      const headers = Object.entries((response.headers ?? {}) as Record<string, Json>)
        .map(([name, h]) => {
          const header = deref(doc, h, file);
          return { name, required: Boolean(header.required), schema: compilableSchema(doc, header.schema ?? {}, file) };
        })
        .sort(byKey((h) => h.name.toLowerCase()));
      return { status, description: String(response.description ?? ""), headers, content: media(doc, response.content, file) };
    })
    .sort(byKey((r) => r.status));
}

function hostOf(servers: Json): Host {
  const urls = ((servers ?? []) as { url?: string }[]).map((s) => s.url ?? "");
  return urls.some((u) => u.includes("{auth_url}")) ? "auth" : "api";
}

function securityOf(doc: Record<string, Json>, op: Record<string, Json>): string[] {
  const requirements = (op.security ?? doc.security ?? []) as Record<string, string[]>[];
  const names = requirements.flatMap((r) => (Object.keys(r).length === 0 ? [""] : Object.keys(r)));
  return [...new Set(names)].sort();
}

function operations(doc: Record<string, Json>, specFile: string): ModelOperation[] {
  const out: ModelOperation[] = [];
  for (const [path, itemNode] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    const item = deref(doc, itemNode, specFile);
    for (const method of METHODS) {
      const op = item[method] as Record<string, Json> | undefined;
      if (!op) continue;
      if (typeof op.operationId !== "string") throw unsupported(specFile, ["paths", path, method], "operationId is required: it names the validator, client method and handler");
      // Every target turns the id into code (a method, type names, export names).
      if (!/^[a-z][A-Za-z0-9]*$/.test(op.operationId)) {
        throw unsupported(specFile, ["paths", path, method, "operationId"], `"${op.operationId}" must be a camelCase identifier: it becomes a client method and handler type names`);
      }
      const params = new Map<string, ModelParameter>();
      // Operation parameters override path-item ones with the same name and location.
      for (const p of [...((item.parameters ?? []) as Json[]), ...((op.parameters ?? []) as Json[])]) {
        const mp = parameter(doc, p, specFile);
        params.set(`${mp.in}:${mp.name.toLowerCase()}`, mp);
      }
      const body = op.requestBody ? deref(doc, op.requestBody, specFile) : undefined;
      out.push({
        id: op.operationId,
        method,
        path,
        host: hostOf(op.servers ?? item.servers),
        summary: String(op.summary ?? ""),
        tags: ((op.tags ?? []) as string[]).slice(),
        security: securityOf(doc, op),
        parameters: [...params.values()].sort(
          (a, b) => LOCATION_ORDER[a.in] - LOCATION_ORDER[b.in] || byKey<ModelParameter>((p) => p.name.toLowerCase())(a, b),
        ),
        requestBody: body ? { required: Boolean(body.required), content: media(doc, body.content, specFile) } : undefined,
        responses: responses(doc, op.responses, specFile),
      });
    }
  }
  return out.sort(byKey((o) => o.id));
}

function webhooks(doc: Record<string, Json>, specFile: string): ModelWebhook[] {
  return Object.entries((doc.webhooks ?? {}) as Record<string, Json>)
    .map(([event, itemNode]) => {
      const post = (deref(doc, itemNode, specFile).post ?? {}) as Record<string, Json>;
      const body = post.requestBody ? deref(doc, post.requestBody, specFile) : { content: {} };
      return {
        event,
        summary: String(post.summary ?? ""),
        headers: ((post.parameters ?? []) as Json[]).map((p) => parameter(doc, p, specFile)).filter((p) => p.in === "header").sort(byKey((p) => p.name.toLowerCase())),
        content: media(doc, body.content, specFile),
      };
    })
    .sort(byKey((w) => w.event));
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Build the model. The caller has already validated the spec with validateSpec(); the schema files
 * are those under `schemas/` beside the root document.
 */
export function buildModel(specPath: string, parsedRoot?: unknown): Model {
  // `parsedRoot`: the root as validateSpec's guard parsed it (the same `yaml` reading as parse()).
  const doc = (parsedRoot ?? parse(readFileSync(specPath, "utf8"))) as Record<string, Json>;
  const schemaFiles = readSchemaFiles(join(dirname(specPath), "schemas"));
  const schemas = schemaFiles
    .map((f) => ({ name: String(f.schema.title ?? ""), file: f.name, path: f.file, id: f.id }))
    .sort(byKey((s) => s.name));
  const seen = new Set<string>();
  for (const s of schemas) {
    if (!/^[A-Z][A-Za-z0-9]*$/.test(s.name)) throw unsupported(s.path, ["title"], `must be a PascalCase type name, got ${JSON.stringify(s.name)}`);
    if (seen.has(s.name)) throw unsupported(s.path, ["title"], `"${s.name}" is used by another schema file`);
    seen.add(s.name);
  }
  const info = (doc.info ?? {}) as { title?: string; version?: string };
  return deepFreeze({
    specFile: specPath,
    root: doc,
    title: String(info.title ?? ""),
    version: String(info.version ?? ""),
    operations: operations(doc, specPath),
    webhooks: webhooks(doc, specPath),
    schemas,
    schemaFiles,
  });
}

/** Convenience for targets: `resolvePointer` re-exported so they need not know spec-schemas. */
export { resolvePointer };
