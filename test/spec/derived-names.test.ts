/**
 * No two type names a generator derives from the contract clash (test/spec/derived-names.ts):
 * none differ only in letter case (kubb's TS1149 with `OAuthTokenError` beside the file
 * `oauth-token-error.json`), and no `<Response>Response`, `<Operation>Response` or
 * `<Schema><Property>` name is taken twice (orval's TS2300 on `HookDeliveryDetailResponse`).
 * The generators themselves run in test/tools/{hey-api,kubb,orval,swagger-typescript-api}.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../repo-root.ts";
import { nameClashes, readSchemaFolder, type ContractNames } from "./derived-names.ts";

const contract: ContractNames = {
  doc: parse(readFileSync(join(repoRoot, "spec/openapi.yaml"), "utf8")) as ContractNames["doc"],
  files: readSchemaFolder(join(repoRoot, "spec/schemas")),
};

describe("the names generators derive from the contract", () => {
  it("has none that differ only in case, and no pattern-built name taken twice", () => {
    expect(nameClashes(contract)).toEqual([]);
  });

  it("finds the clashes the contract had before they were renamed", () => {
    const doc = structuredClone(contract.doc);
    const schemas = doc.components!.schemas!;
    schemas.OAuthTokenError = schemas.OauthTokenError;
    delete schemas.OauthTokenError;
    doc.components!.responses!.HookDeliveryDetail = doc.components!.responses!.HookDeliveryAttempt;
    const files = new Map(contract.files);
    files.set("oauth-token-error.json", { ...files.get("oauth-token-error.json"), title: "OAuthTokenError" });
    const clashes = nameClashes({ doc, files });
    expect(clashes).toHaveLength(2);
    expect(clashes[0]).toMatch(/^differ only in case: OAuthTokenError \(.*\) \/ OauthTokenError \(the file schemas\/oauth-token-error\.json\)$/);
    expect(clashes[1]).toMatch(/^HookDeliveryDetailResponse names 2 things: components\.responses\.HookDeliveryDetail \+ "Response", HookDeliveryDetail\.properties\.response/);
  });
});
