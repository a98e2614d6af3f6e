/**
 * The suite keeps the seed's Scopes table as a list of its own (conformance/cases/oauth/
 * authorize-scopes.ts SEED_SCOPES), since a case must not read our contract or our reference to
 * know what the seed says. Three copies of one table drift apart silently; this keeps the
 * suite's, the contract's (spec/schemas/scope.json) and the reference's (reference/auth/scopes.ts)
 * the same set.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SEED_SCOPES } from "../../conformance/cases/oauth/authorize-scopes.ts";
import { SCOPES } from "../../reference/auth/scopes.ts";
import { repoRoot } from "../repo-root.ts";

describe("the seed's Scopes table", () => {
  it("is the same set in the suite, the contract and the reference", () => {
    const contract = (JSON.parse(readFileSync(join(repoRoot, "spec/schemas/scope.json"), "utf8")) as { enum: string[] }).enum;
    const sorted = (xs: readonly string[]) => [...xs].sort();
    expect(new Set(SEED_SCOPES).size).toBe(SEED_SCOPES.length);
    expect(sorted(SEED_SCOPES)).toEqual(sorted(contract));
    expect(sorted(SEED_SCOPES)).toEqual(sorted(SCOPES));
  });
});
