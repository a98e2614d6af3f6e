/**
 * The scopes each operation checks for — the contract's `x-accepted-scopes`, which is what
 * `X-Accepted-OAuth-Scopes` must say. The generated client tables do not carry the extension, so
 * it is read from spec/openapi.yaml once, on first use (the suite ships with its contract).
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { OperationId } from "../../core/http.ts";
import { PACKAGE_SPEC } from "../../../generators/package-files.ts";

let table: Map<string, string[]> | undefined;

function load(): Map<string, string[]> {
  const doc = parse(readFileSync(PACKAGE_SPEC, "utf8")) as { paths: Record<string, Record<string, { operationId?: string; "x-accepted-scopes"?: string[] }>> };
  const out = new Map<string, string[]>();
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      if (op && typeof op === "object" && typeof op.operationId === "string") out.set(op.operationId, [...(op["x-accepted-scopes"] ?? [])].sort());
    }
  }
  return out;
}

export function acceptedScopes(operationId: OperationId): string[] {
  table ??= load();
  const scopes = table.get(operationId);
  if (!scopes) throw new Error(`${operationId}: not in the contract`);
  return scopes;
}
