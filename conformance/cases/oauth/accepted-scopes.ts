/**
 * The scopes each operation checks for — the contract's `x-accepted-scopes`, which is what
 * `X-Accepted-OAuth-Scopes` must say. Read from the generated route table (generated from
 * spec/openapi.yaml, kept in step by `generate --check`), which carries the extension for every
 * operation: parsing the 230 KB of YAML on first use cost about 0.4 s of CPU in every run.
 */
import type { OperationId } from "../../core/http.ts";
import { routes } from "../../../generated/server/routes.ts";

let table: Map<string, string[]> | undefined;

function load(): Map<string, string[]> {
  return new Map(routes.map((r) => [r.operationId, [...r.acceptedScopes].sort()]));
}

export function acceptedScopes(operationId: OperationId): string[] {
  table ??= load();
  const scopes = table.get(operationId);
  if (!scopes) throw new Error(`${operationId}: not in the contract`);
  return [...scopes];
}
