/**
 * What the client target prints, derived from the model: per operation, the runtime metadata
 * (method, path, host, parameter names by location, request media, declared responses with
 * their headers' wire types) and the facts the typed layer needs (which parts of the request are
 * required, which statuses exist, whether the operation pages by `Link` or polls by ETag).
 * Every decision is made here; the templates and the ts-morph writers only print.
 */
import type { Model, ModelOperation, ModelResponse, SchemaNode } from "../../model.ts";
import { unsupported } from "../../problems.ts";

export interface ResponseView {
  /** Spec key: "200", "304", "2XX", "default". */
  status: string;
  /** A numeric literal type for exact statuses, `number` for ranges and default. */
  statusType: string;
  /** Media types in spec order (sorted); empty when there is no body. */
  media: string[];
  headers: Record<string, "number" | "string">;
}

export interface OperationView {
  id: string;
  /** PascalCase stem for the operation's type names (`listRepoEvents` → `ListRepoEvents`). */
  typeName: string;
  method: string;
  path: string;
  host: "api" | "auth";
  summary: string;
  pathParams: string[];
  queryParams: string[];
  headerParams: string[];
  requiredQuery: boolean;
  requiredHeaders: boolean;
  /** Request media, the default (JSON when offered) first. */
  requestMedia: string[];
  bodyRequired: boolean;
  responses: ResponseView[];
  /** The request argument may be left out (nothing in it is required). */
  requestOptional: boolean;
  /** 200 is a JSON array and carries `Link`: `paginate`/`items` accept it. */
  pageable: boolean;
  /** 200 is a JSON array and 304 is declared: `poll` accepts it. */
  pollable: boolean;
}

export interface ClientViewModel {
  operations: OperationView[];
  webhookEvents: string[];
}

/** Method names of the runtime's ServiceClientCore/BaseClient; an operationId must not shadow them. */
export const RESERVED_METHOD_NAMES = new Set([
  "authUrl", "authorizeUrl", "baseUrl", "call", "callUrl", "checkState", "clock", "constructor", "exchangeCode", "hostUrl",
  "items", "operation", "operationIdOf", "operationIds", "paginate", "poll", "rateLimit",
]);

function headerKind(schema: SchemaNode): "number" | "string" {
  return schema.type === "integer" || schema.type === "number" ? "number" : "string";
}

function isJsonArray(response: ModelResponse | undefined): boolean {
  const json = response?.content.find((m) => m.mediaType === "application/json");
  return json?.schema?.type === "array";
}

function responseView(r: ModelResponse): ResponseView {
  return {
    status: r.status,
    statusType: /^\d{3}$/.test(r.status) ? r.status : "number",
    media: r.content.map((m) => m.mediaType),
    headers: Object.fromEntries(r.headers.map((h) => [h.name, headerKind(h.schema)])),
  };
}

function requestMedia(op: ModelOperation): string[] {
  const media = (op.requestBody?.content ?? []).map((m) => m.mediaType);
  return [...media.filter((m) => m === "application/json"), ...media.filter((m) => m !== "application/json")];
}

function operationView(op: ModelOperation, specFile: string | undefined): OperationView {
  const at = ["paths", op.path, op.method, "operationId"];
  // model.ts already refused an operationId that is not a camelCase identifier.
  if (RESERVED_METHOD_NAMES.has(op.id)) throw unsupported(specFile, at, `"${op.id}" collides with a ServiceClient method`);
  const of = (where: string) => op.parameters.filter((p) => p.in === where);
  const ok = op.responses.find((r) => r.status === "200");
  const requiredQuery = of("query").some((p) => p.required);
  const requiredHeaders = of("header").some((p) => p.required);
  const bodyRequired = op.requestBody?.required ?? false;
  return {
    id: op.id,
    typeName: op.id[0]!.toUpperCase() + op.id.slice(1),
    method: op.method.toUpperCase(),
    path: op.path,
    host: op.host,
    summary: op.summary,
    pathParams: of("path").map((p) => p.name),
    queryParams: of("query").map((p) => p.name),
    headerParams: of("header").map((p) => p.name),
    requiredQuery,
    requiredHeaders,
    requestMedia: requestMedia(op),
    bodyRequired,
    responses: op.responses.map(responseView),
    requestOptional: of("path").length === 0 && !requiredQuery && !requiredHeaders && !bodyRequired,
    pageable: isJsonArray(ok) && (ok?.headers.some((h) => h.name.toLowerCase() === "link") ?? false),
    pollable: isJsonArray(ok) && op.responses.some((r) => r.status === "304"),
  };
}

export function clientViewModel(model: Model): ClientViewModel {
  return {
    operations: model.operations.map((op) => operationView(op, model.specFile)),
    webhookEvents: model.webhooks.map((w) => w.event).sort(),
  };
}

/** The runtime metadata of one operation (an OperationMeta), as printed into operations.ts. */
export function operationMeta(op: OperationView): object {
  return {
    method: op.method,
    path: op.path,
    host: op.host,
    pathParams: op.pathParams,
    queryParams: op.queryParams,
    headerParams: op.headerParams,
    requestMedia: op.requestMedia,
    responses: Object.fromEntries(op.responses.map((r) => [r.status, { media: r.media, headers: r.headers }])),
  };
}
