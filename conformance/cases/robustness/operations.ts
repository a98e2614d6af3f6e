/**
 * What the robustness cases need to know of each operation, read from the contract itself:
 * host, method and path template (generated/client/operations.ts), and from spec/openapi.yaml
 * dereferenced once (swagger-parser resolves the schema files) the schema of every path and query
 * parameter, the request body's schema and media types, and which credentials the operation
 * takes (`security`). Bad inputs are derived from these schemas, so a change to the contract
 * changes what is tried without touching the cases.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { operationTable } from "../../../generated/client/operations.ts";
import type { OperationId } from "../../core/http.ts";
import { PACKAGE_SPEC } from "../../../generators/package-files.ts";

/** A JSON Schema as it appears after dereferencing: every `$ref` replaced by its target. */
export type Schema = Record<string, any>;

export interface ParameterModel {
  name: string;
  required: boolean;
  schema: Schema;
}

export interface OperationModel {
  operationId: OperationId;
  host: "api" | "auth";
  method: string;
  /** `/repos/{owner}/{repo}/hooks` */
  path: string;
  pathParams: ParameterModel[];
  queryParams: ParameterModel[];
  body?: { schema: Schema; mediaTypes: string[] };
  /** Credentials the operation accepts: anonymous, an OAuth token, Basic (of a user or of an application). */
  auth: { anonymous: boolean; token: boolean; basic?: "user" | "app" };
}

export const SPEC_PATH = PACKAGE_SPEC;

let loading: Promise<Map<string, OperationModel>> | undefined;

/** Every operation's model; the spec is read and dereferenced once per process. */
export function operationModels(): Promise<Map<string, OperationModel>> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

export async function operationModel(operationId: OperationId): Promise<OperationModel> {
  const model = (await operationModels()).get(operationId);
  if (!model) throw new Error(`the contract has no operation ${operationId}`);
  return model;
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

async function load(): Promise<Map<string, OperationModel>> {
  const doc = (await SwaggerParser.dereference(SPEC_PATH)) as { paths?: Record<string, Record<string, any>> };
  const models = new Map<string, OperationModel>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId || !(op.operationId in operationTable)) continue;
      const operationId = op.operationId as OperationId;
      const table = operationTable[operationId]!;
      const params: any[] = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      const of = (where: string): ParameterModel[] =>
        params.filter((p) => p.in === where).map((p) => ({ name: p.name as string, required: p.required === true, schema: (p.schema ?? {}) as Schema }));
      const content: Record<string, { schema?: Schema }> = op.requestBody?.content ?? {};
      const mediaTypes = Object.keys(content);
      const bodySchema = mediaTypes.map((m) => content[m]?.schema).find((s) => s !== undefined);
      const security: Record<string, unknown>[] = op.security ?? [];
      models.set(operationId, {
        operationId,
        host: table.host as "api" | "auth",
        method: table.method.toUpperCase(),
        path: table.path,
        pathParams: of("path"),
        queryParams: of("query"),
        ...(bodySchema ? { body: { schema: bodySchema, mediaTypes } } : {}),
        auth: {
          anonymous: security.length === 0 || security.some((s) => Object.keys(s).length === 0),
          token: security.some((s) => "token" in s || "access_token" in s),
          // Basic of an application: the /applications endpoints, and the token exchange's client authentication.
          ...(security.some((s) => "basic" in s) ? { basic: path.startsWith("/applications/") || table.host === "auth" ? ("app" as const) : ("user" as const) } : {}),
        },
      });
    }
  }
  return models;
}
