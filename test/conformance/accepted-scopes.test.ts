/**
 * The suite's table of x-accepted-scopes (conformance/cases/oauth/accepted-scopes.ts) is read from
 * the generated route table instead of the YAML: it must still say, operation by operation, what
 * spec/openapi.yaml says — the value X-Accepted-OAuth-Scopes is checked against.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { acceptedScopes } from "../../conformance/cases/oauth/accepted-scopes.ts";
import type { OperationId } from "../../conformance/core/http.ts";

const repoRoot = join(import.meta.dirname, "..", "..");

describe("acceptedScopes", () => {
  it("is each operation's x-accepted-scopes in spec/openapi.yaml, sorted", () => {
    const doc = parse(readFileSync(join(repoRoot, "spec/openapi.yaml"), "utf8")) as { paths: Record<string, Record<string, { operationId?: string; "x-accepted-scopes"?: string[] }>> };
    let withScopes = 0;
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        if (!op || typeof op !== "object" || typeof op.operationId !== "string") continue;
        const expected = [...(op["x-accepted-scopes"] ?? [])].sort();
        if (expected.length > 0) withScopes++;
        expect(acceptedScopes(op.operationId as OperationId), op.operationId).toEqual(expected);
      }
    }
    // Operations with scopes exist, so the loop compared something.
    expect(withScopes).toBeGreaterThan(5);
    expect(() => acceptedScopes("noSuchOperation" as OperationId)).toThrow(/not in the contract/);
  });
});
