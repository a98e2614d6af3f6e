/**
 * The fuzz's view of the contract: every operation of `spec/openapi.yaml`'s `paths` (both hosts),
 * read from the spec itself so a new operation, parameter or body is fuzzed without touching the
 * test — its path and query parameters, the request headers it declares, its request body (media
 * types, the top-level properties of its schema, and the schema's valid and invalid examples from
 * `spec/examples/`), the credential that reaches its handler, and the headers each declared
 * response may carry.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

type Json = Record<string, unknown>;

export const ROOT = join(import.meta.dirname, "../../..");
const doc = parse(readFileSync(join(ROOT, "spec/openapi.yaml"), "utf8")) as Json;

/** Follows `#/…` references inside openapi.yaml. */
function deref(value: unknown): Json {
  let node = value as Json;
  while (node && typeof node.$ref === "string" && node.$ref.startsWith("#/")) {
    node = node.$ref.slice(2).split("/").reduce<Json>((o, k) => o[k.replace(/~1/g, "/")] as Json, doc);
  }
  return node;
}

export interface BodyExample {
  name: string;
  valid: boolean;
  value: unknown;
}

export interface FuzzBody {
  required: boolean;
  mediaTypes: string[];
  /** The top-level properties of the body's schema (each gets values of every JSON type). */
  properties: string[];
  /** `spec/examples/<schema>/valid-*.json` and `invalid-*.json`, and the spec's own examples. */
  examples: BodyExample[];
}

/**
 * Which credential gets a request past authentication to the operation's checks: a token
 * (`token`), the user's password (`basic`), the application's client ID and secret (`client`), or
 * none (the web host's pages and token exchange).
 */
export type Credential = "token" | "basic" | "client" | "none";

export interface FuzzOperation {
  id: string;
  method: string;
  template: string;
  /** Served by the web host (`auth_url`), not the API host. */
  web: boolean;
  pathParams: { name: string; integer: boolean }[];
  query: string[];
  /** Request headers the operation declares (lower case). */
  headerParams: string[];
  body: FuzzBody | undefined;
  credential: Credential;
  /** Status → header names (lower case) the response declares. */
  responseHeaders: Map<string, Set<string>>;
}

/** The body schema's file (`schemas/hook-create-request.json`) from its `#/components/schemas/…` reference. */
function schemaFile(schema: Json | undefined): string | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== "string") return undefined;
  const target = (doc.components as Json).schemas as Json;
  const file = (target[ref.split("/").pop()!] as Json | undefined)?.$ref;
  return typeof file === "string" ? file : undefined;
}

function bodyOf(raw: unknown): FuzzBody | undefined {
  if (!raw) return undefined;
  const body = deref(raw);
  const content = body.content as Record<string, Json>;
  const mediaTypes = Object.keys(content);
  const examples: BodyExample[] = [];
  let properties: string[] = [];
  const seen = new Set<string>();
  for (const media of Object.values(content)) {
    const spec = [media.example, ...Object.values((media.examples as Record<string, Json>) ?? {}).map((e) => deref(e).value)];
    for (const value of spec) if (value !== undefined) examples.push({ name: "spec example", valid: true, value });
    const file = schemaFile(media.schema as Json);
    if (!file || seen.has(file)) continue;
    seen.add(file);
    const schema = JSON.parse(readFileSync(join(ROOT, "spec", file), "utf8")) as Json;
    properties = [...new Set([...properties, ...Object.keys((schema.properties as Json) ?? {})])];
    const dir = join(ROOT, "spec/examples", file.replace(/^schemas\//, "").replace(/\.json$/, ""));
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith(".json")) continue;
      examples.push({ name, valid: name.startsWith("valid-"), value: JSON.parse(readFileSync(join(dir, name), "utf8")) });
    }
  }
  return { required: body.required === true, mediaTypes, properties, examples };
}

function credentialOf(op: Json, template: string): Credential {
  const security = (op.security ?? doc.security ?? []) as Json[];
  const schemes = new Set(security.flatMap((s) => Object.keys(s)));
  if (schemes.has("basic")) return template.startsWith("/applications/") ? "client" : "basic";
  if (schemes.has("token")) return "token";
  return "none";
}

export const OPERATIONS: FuzzOperation[] = Object.entries(doc.paths as Json).flatMap(([template, rawItem]) => {
  const item = rawItem as Json;
  return Object.entries(item)
    .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
    .map(([method, raw]) => {
      const op = raw as Json;
      const params = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map(deref);
      const responseHeaders = new Map(
        Object.entries(op.responses as Json).map(([status, r]) => [status, new Set(Object.keys((deref(r).headers as Json) ?? {}).map((h) => h.toLowerCase()))]),
      );
      return {
        id: op.operationId as string,
        method: method.toUpperCase(),
        template,
        web: Boolean(op.servers),
        pathParams: params.filter((p) => p.in === "path").map((p) => ({ name: p.name as string, integer: (p.schema as Json).type === "integer" })),
        query: params.filter((p) => p.in === "query").map((p) => p.name as string),
        headerParams: params.filter((p) => p.in === "header").map((p) => (p.name as string).toLowerCase()),
        body: bodyOf(op.requestBody),
        credential: credentialOf(op, template),
        responseHeaders,
      };
    });
});
