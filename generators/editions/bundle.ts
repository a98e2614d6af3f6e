/**
 * `service-contract bundle`: the contract in the forms other tools and languages read, as a map
 * of relative path → contents (written and drift-checked by generators/output.ts, like generate):
 *
 *   openapi.json                     OpenAPI 3.1, one file (the portable document)
 *   openapi-3.0.json                 OpenAPI 3.0.3, with `x-not-expressible-in-3.0`
 *   json-schema/index.json           every file below: event or resource → its files
 *   json-schema/<dialect>/webhooks/<event>.json     one per X-Service-Event (and ping)
 *   json-schema/<dialect>/resources/<name>.json     one per resource a JSON response carries
 *   README.md                        what each file is, and what 3.0 cannot say
 *
 * with <dialect> `2020-12` and `draft-07`.
 */
import { basename, dirname, join } from "node:path";
import { loadPortableDocument } from "../portable-bundle.ts";
import { readSchemaFiles } from "../schema-files.ts";
import type { GeneratedFile } from "../output.ts";
import { openapi30, type Loss } from "./openapi-30.ts";
import { DIALECTS, rootsOf, standaloneSchema, type Entry } from "./json-schema.ts";
import { bundleReadme } from "./readme.ts";

type Json = unknown;
type Doc = Record<string, Json> & { paths?: Record<string, Record<string, Json>>; webhooks?: Record<string, Record<string, Json>>; components?: Record<string, Record<string, Json>> };

/** The files under `bundle --out`, for `--check` and the docs route: everything the command owns there. */
export const BUNDLE_SCOPE = ["openapi.json", "openapi-3.0.json", "json-schema/", "README.md"];

const json = (value: Json): string => JSON.stringify(value, null, 2) + "\n";

function resolve(doc: Doc, node: Json): Json {
  const ref = (node as { $ref?: unknown } | null)?.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return node;
  return ref.slice(2).split("/").reduce<Json>((n, t) => (n as Record<string, Json> | undefined)?.[t.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
}

function jsonBody(doc: Doc, holder: Json): Json {
  return ((resolve(doc, holder) as { content?: Record<string, { schema?: Json }> } | undefined)?.content ?? {})["application/json"]?.schema;
}

const kebab = (title: string): string => title.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();

/** The webhook events and the response resources, each with its schema file (for its name and examples). */
export function entries(doc: Doc, fileOf: ReadonlyMap<string, string>): Entry[] {
  const out = new Map<string, Entry>();
  for (const [event, item] of Object.entries(doc.webhooks ?? {})) {
    const [title] = rootsOf(jsonBody(doc, (item.post as { requestBody?: Json } | undefined)?.requestBody));
    if (title) out.set(`webhooks/${event}`, { name: `webhooks/${event}`, title, source: fileOf.get(title) ?? "" });
  }
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      for (const response of Object.values(((op as { responses?: Record<string, Json> } | null)?.responses ?? {}))) {
        for (const title of rootsOf(jsonBody(doc, response))) {
        const source = fileOf.get(title) ?? "";
        const name = `resources/${source ? basename(source) : kebab(title)}`;
        if (!out.has(name)) out.set(name, { name, title, source });
        }
      }
    }
  }
  return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Each operation's `$ref: '#/components/responses/…'` replaced by a copy of that response:
 * swagger-typescript-api (13.13) reads no media type through a response reference and so never
 * parses those bodies as JSON. The components stay, for readers that list them.
 */
export function inlineResponses(doc: Doc): Doc {
  const responses = (doc.components?.responses ?? {}) as Record<string, Json>;
  const inline = (item: Record<string, Json>): Record<string, Json> =>
    Object.fromEntries(
      Object.entries(item).map(([method, op]) => {
        const rs = (op as { responses?: Record<string, Json> } | null)?.responses;
        if (!rs) return [method, op];
        const copied = Object.fromEntries(
          Object.entries(rs).map(([status, r]) => {
            const ref = (r as { $ref?: unknown }).$ref;
            const name = typeof ref === "string" && ref.startsWith("#/components/responses/") ? ref.slice("#/components/responses/".length) : undefined;
            return [status, name !== undefined && name in responses ? structuredClone(responses[name]) : r];
          }),
        );
        return [method, { ...(op as object), responses: copied }];
      }),
    );
  const paths = Object.fromEntries(Object.entries(doc.paths ?? {}).map(([p, item]) => [p, inline(item)]));
  const webhooks = doc.webhooks ? Object.fromEntries(Object.entries(doc.webhooks).map(([w, item]) => [w, inline(item)])) : undefined;
  return { ...doc, paths, ...(webhooks ? { webhooks } : {}) };
}

export interface Bundle {
  files: GeneratedFile[];
  losses: Loss[];
  entries: Entry[];
}

export async function buildBundle(specPath: string): Promise<Bundle> {
  const doc = inlineResponses((await loadPortableDocument(specPath)) as unknown as Doc);
  const fileOf = new Map(readSchemaFiles(join(dirname(specPath), "schemas")).map((f) => [String(f.schema.title), f.name]));
  const schemas = (doc.components?.schemas ?? {}) as Record<string, Json>;
  const list = entries(doc, fileOf);
  const { document: v30, losses } = openapi30(doc);
  const files: GeneratedFile[] = [
    { path: "openapi.json", contents: json(doc) },
    { path: "openapi-3.0.json", contents: json(v30) },
  ];
  const index: Record<string, Record<string, Json>> = { webhooks: {}, resources: {} };
  for (const entry of list) {
    const [kind, key] = entry.name.split("/") as ["webhooks" | "resources", string];
    const paths: Record<string, string> = {};
    for (const dialect of DIALECTS) {
      const path = `json-schema/${dialect}/${entry.name}.json`;
      files.push({ path, contents: json(standaloneSchema(schemas, entry.title, dialect)) });
      paths[dialect] = path.slice("json-schema/".length);
    }
    index[kind]![key] = { title: entry.title, ...(entry.source ? { source: `spec/schemas/${entry.source}.json` } : {}), ...paths };
  }
  files.push({ path: "json-schema/index.json", contents: json(index) });
  files.push({ path: "README.md", contents: bundleReadme(list, losses) });
  return { files, losses, entries: list };
}
