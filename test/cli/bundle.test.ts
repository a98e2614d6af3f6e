/**
 * `service-contract bundle`: the committed bundle/ is what the command writes (drift-checked like
 * generated/), the command replaces only the files it owns, the OpenAPI 3.0 edition is read by
 * an OpenAPI 3.0 reader (swagger-parser validates it against the 3.0 schema) and says what it
 * lost, and `serve` serves the bundle under /docs/bundle/.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../repo-root.ts";
import { runCliInProcess } from "./in-process.ts";
import { useServer } from "../reference/harness.ts";
import { ceiling } from "../ceilings.ts";

const bundle = (path: string): string => readFileSync(join(repoRoot, "bundle", path), "utf8");

describe("service-contract bundle", () => {
  it("the package's bundle/ is up to date with the contract (run: service-contract bundle --out bundle)", async () => {
    const result = await runCliInProcess(["bundle", "--out", "bundle", "--check"]);
    expect(result.stdout).toMatch(/^bundle\/ is up to date \(\d+ files\)/);
    expect(result.code).toBe(0);
  }, ceiling(60_000));

  it("replaces only its own files in --out, and --check names what differs", async () => {
    const out = mkdtempSync(join(tmpdir(), "bundle-"));
    mkdirSync(join(out, "json-schema/2020-12"), { recursive: true });
    writeFileSync(join(out, "json-schema/2020-12/stale.json"), "{}");
    writeFileSync(join(out, "mine.txt"), "kept");
    expect((await runCliInProcess(["bundle", "--out", out, "--check"])).code).toBe(1);
    const written = await runCliInProcess(["bundle", "--out", out]);
    expect(written.code, written.stderr).toBe(0);
    expect(existsSync(join(out, "json-schema/2020-12/stale.json"))).toBe(false);
    expect(readFileSync(join(out, "mine.txt"), "utf8")).toBe("kept");
    expect(readFileSync(join(out, "openapi.json"), "utf8")).toBe(bundle("openapi.json"));
    writeFileSync(join(out, "openapi-3.0.json"), "{}");
    const check = await runCliInProcess(["bundle", "--out", out, "--check"]);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("changed: openapi-3.0.json");
  }, ceiling(60_000));

  it("refuses a missing --out and a file as --out (exit 2)", async () => {
    expect((await runCliInProcess(["bundle"])).code).toBe(2);
    const file = join(mkdtempSync(join(tmpdir(), "bundle-")), "f");
    writeFileSync(file, "");
    const result = await runCliInProcess(["bundle", "--out", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("is a file, not a folder");
  });

  it("the 3.1 file is one self-contained document an OpenAPI reader validates", async () => {
    expect(bundle("openapi.json")).not.toMatch(/"\$ref": "(?!#)/);
    const api = (await SwaggerParser.validate(join(repoRoot, "bundle/openapi.json"))) as { openapi: string; webhooks: object };
    expect(api.openapi).toBe("3.1.0");
    expect(Object.keys(api.webhooks).length).toBeGreaterThanOrEqual(22);
  }, ceiling(30_000));

  it("the 3.0 edition is OpenAPI 3.0.3 that a 3.0 reader validates, with 3.1's forms rewritten and its losses listed", async () => {
    const text = bundle("openapi-3.0.json");
    const doc = JSON.parse(text) as Record<string, unknown> & { "x-not-expressible-in-3.0": { pointer: string; keyword: string }[]; components: { schemas: Record<string, Record<string, unknown>> } };
    expect(doc.openapi).toBe("3.0.3");
    // Nothing 3.0 does not know is left in a schema.
    for (const keyword of ["const", "prefixItems", "$defs", "if", "then", "dependentRequired", "dependentSchemas", "jsonSchemaDialect"]) expect(text, keyword).not.toContain(`"${keyword}":`);
    expect(text).not.toMatch(/"type": \[/);
    expect(text).not.toContain('"type": "null"');
    expect(Object.keys(doc["x-webhooks"] as object).length).toBeGreaterThanOrEqual(22);
    expect(doc).not.toHaveProperty("webhooks");
    // `closed_at: ["string", "null"]` → nullable.
    expect((doc.components.schemas.Issue!.properties as Record<string, unknown>).closed_at).toMatchObject({ type: "string", nullable: true });
    expect(doc["x-not-expressible-in-3.0"]).toContainEqual(expect.objectContaining({ keyword: "prefixItems", pointer: "#/components/schemas/ServiceHook/properties/schema/items" }));
    expect(bundle("README.md")).toContain("`prefixItems`: a tuple");
    const api = (await SwaggerParser.validate(join(repoRoot, "bundle/openapi-3.0.json"))) as { openapi: string; paths: object };
    expect(api.openapi).toBe("3.0.3");
    expect(Object.keys(api.paths).length).toBeGreaterThan(20);
  }, ceiling(30_000));

  it("the JSON Schema edition has one file per webhook event and per response resource, in both dialects, with an index", () => {
    const index = JSON.parse(bundle("json-schema/index.json")) as Record<"webhooks" | "resources", Record<string, Record<string, string>>>;
    expect(Object.keys(index.webhooks)).toEqual(expect.arrayContaining(["push", "issues", "ping", "pull_request_review_comment"]));
    expect(Object.keys(index.resources)).toEqual(expect.arrayContaining(["activity-event", "issue-event", "issue-event-with-issue", "hook", "service-hook", "error", "validation-error"]));
    for (const entry of [...Object.values(index.webhooks), ...Object.values(index.resources)]) {
      for (const dialect of ["2020-12", "draft-07"]) {
        const text = bundle(`json-schema/${entry[dialect]}`);
        // Self-contained: every reference points inside the file.
        expect(text, entry[dialect]).not.toMatch(/"\$ref": "(?!#\/(\$defs|definitions)\/)/);
        expect(JSON.parse(text).$schema, entry[dialect]).toBe(dialect === "2020-12" ? "https://json-schema.org/draft/2020-12/schema" : "http://json-schema.org/draft-07/schema#");
      }
    }
  });
});

describe("serve: the bundle under /docs/bundle/", () => {
  const t = useServer();
  it("serves each file as it ships, and nothing else under that path", async () => {
    for (const path of ["openapi-3.0.json", "json-schema/index.json", "json-schema/draft-07/webhooks/push.json", "README.md"]) {
      const res = await fetch(`${t.api}/docs/bundle/${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toBe(bundle(path));
    }
    expect((await fetch(`${t.api}/docs/bundle/json-schema/2020-12/webhooks/push.json`)).headers.get("content-type")).toMatch(/^application\/json/);
    expect((await fetch(`${t.api}/docs/bundle/../package.json`)).status).toBe(404);
    expect((await fetch(`${t.api}/docs/bundle/nothing.json`)).status).toBe(404);
  }, ceiling(30_000));
});
