/**
 * What the validators target compiles, and the lookup tables the public API needs, derived from
 * the model. Every compiled function gets a stable export name; the tables refer to those names
 * so the template only prints.
 *
 * Two families: "bodies" (payloads, request and response bodies) are validated exactly as sent;
 * "params" (path, query, header values, which arrive as strings) are validated with type
 * coercion, the way an HTTP framework reads them. They are compiled by two Ajv instances.
 */
import type { Model, ModelHeader, ModelMedia, ModelParameter, SchemaNode } from "../../model.ts";

export interface CompileUnit {
  exportName: string;
  id: string;
  /** Undefined when the unit is a schema file already registered under `id`. */
  schema?: SchemaNode;
}

export interface MediaEntry {
  mediaType: string;
  exportName: string | null;
}

export interface OperationTables {
  id: string;
  request: {
    path: string | null;
    query: string | null;
    headers: string | null;
    bodyRequired: boolean;
    body: MediaEntry[];
  };
  responses: { status: string; headers: string | null; content: MediaEntry[] }[];
}

export interface ValidatorsViewModel {
  bodies: CompileUnit[];
  params: CompileUnit[];
  schemas: { name: string; exportName: string }[];
  webhooks: { event: string; exportName: string }[];
  operations: OperationTables[];
}

const UNIT_BASE = "https://service-contract.dev/validators/";

function ident(...parts: string[]): string {
  return parts.join("_").replace(/[^A-Za-z0-9_$]/g, "_");
}

/** An object schema over named values (query parameters, headers), header names lowercased. */
function objectOf(entries: readonly (ModelParameter | ModelHeader)[], lowercase: boolean): SchemaNode {
  const key = (name: string): string => (lowercase ? name.toLowerCase() : name);
  return {
    type: "object",
    properties: Object.fromEntries(entries.map((e) => [key(e.name), e.schema])),
    required: entries.filter((e) => e.required).map((e) => key(e.name)),
  };
}

export function validatorsViewModel(model: Model): ValidatorsViewModel {
  const bodies: CompileUnit[] = model.schemas.map((s) => ({ exportName: ident("schema", s.name), id: s.id }));
  const params: CompileUnit[] = [];
  const byId = new Map(model.schemas.map((s) => [s.id, ident("schema", s.name)]));

  /** A body schema that is only a `$ref` to a schema file reuses that file's validator. */
  const bodiesByShape = new Map<string, string>();
  const bodyUnit = (name: string, media: ModelMedia): string | null => {
    if (!media.schema) return null;
    const ref = media.schema.$ref;
    if (typeof ref === "string" && Object.keys(media.schema).length === 1 && byId.has(ref)) return byId.get(ref)!;
    const shape = JSON.stringify(media.schema);
    const existing = bodiesByShape.get(shape);
    if (existing) return existing;
    bodiesByShape.set(shape, name);
    bodies.push({ exportName: name, id: UNIT_BASE + name, schema: media.schema });
    return name;
  };
  // Many responses share the same headers (every 404, every rate-limited list); compile each
  // distinct header/parameter set once and point all users at it.
  const paramsByShape = new Map<string, string>();
  const paramUnit = (name: string, entries: readonly (ModelParameter | ModelHeader)[], lowercase: boolean): string | null => {
    if (entries.length === 0) return null;
    const schema = objectOf(entries, lowercase);
    const shape = JSON.stringify(schema);
    const existing = paramsByShape.get(shape);
    if (existing) return existing;
    paramsByShape.set(shape, name);
    params.push({ exportName: name, id: UNIT_BASE + name, schema });
    return name;
  };

  const operations = model.operations.map((op): OperationTables => {
    const of = (where: string): ModelParameter[] => op.parameters.filter((p) => p.in === where);
    return {
      id: op.id,
      request: {
        path: paramUnit(ident(op.id, "path"), of("path"), false),
        query: paramUnit(ident(op.id, "query"), of("query"), false),
        headers: paramUnit(ident(op.id, "headers"), of("header"), true),
        bodyRequired: op.requestBody?.required ?? false,
        body: (op.requestBody?.content ?? []).map((m) => ({ mediaType: m.mediaType, exportName: bodyUnit(ident(op.id, "body", m.mediaType), m) })),
      },
      responses: op.responses.map((r) => ({
        status: r.status,
        headers: paramUnit(ident(op.id, r.status, "headers"), r.headers, true),
        content: r.content.map((m) => ({ mediaType: m.mediaType, exportName: bodyUnit(ident(op.id, r.status, m.mediaType), m) })),
      })),
    };
  });

  const webhooks = model.webhooks.flatMap((w) => {
    const json = w.content.find((c) => c.mediaType === "application/json");
    const exportName = json ? bodyUnit(ident("webhook", w.event), json) : null;
    return exportName ? [{ event: w.event, exportName }] : [];
  });

  return {
    bodies,
    params,
    schemas: model.schemas.map((s) => ({ name: s.name, exportName: ident("schema", s.name) })),
    webhooks,
    operations,
  };
}
