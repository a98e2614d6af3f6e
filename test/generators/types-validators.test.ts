/**
 * The `types` and `validators` targets on the real contract: a named type for every schema file
 * and a payload type for every webhook event; a precompiled validator for every schema, webhook
 * and request/response part, with shared parts compiled once; ESM output that needs no Ajv
 * compiler, so importing the validators generates no code at all.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { buildModel, type Model } from "../../generators/model.ts";
import { loadPortableDocument } from "../../generators/portable-bundle.ts";
import type { OpenApiDocument } from "../../generators/load-spec.ts";
import { RESERVED_TYPE_NAMES, typesTarget, webhookPayloadNames } from "../../generators/targets/types.ts";
import { validatorsTarget } from "../../generators/targets/validators/index.ts";
import { validatorsViewModel } from "../../generators/targets/validators/view-model.ts";
import { ceiling } from "../ceilings.ts";

const root = join(import.meta.dirname, "../..");
const spec = join(root, "spec/openapi.yaml");
const run = promisify(execFile);

let model: Model;
let portable: OpenApiDocument;
let typesText = "";
beforeAll(async () => {
  model = buildModel(spec);
  portable = await loadPortableDocument(spec);
  typesText = (await typesTarget({ model, portable, source: "spec/openapi.yaml" }))[0]!.contents;
}, ceiling(120_000));

describe("types target", () => {
  it("emits openapi-typescript's paths, webhooks, components and operations", () => {
    for (const name of ["paths", "webhooks", "components", "operations"]) expect(typesText).toMatch(new RegExp(`^export interface ${name} \\{`, "m"));
  });

  it("exports a named type for every schema file, by its title", () => {
    expect(model.schemas.length).toBeGreaterThan(40);
    for (const s of model.schemas) expect(typesText, s.name).toContain(`export type ${s.name} = components["schemas"]["${s.name}"];`);
  });

  it.each([
    ["push", "PushWebhookPayload"],
    ["ping", "PingWebhookPayload"],
    ["issues", "IssuesWebhookPayload"],
    ["pull_request", "PullRequestWebhookPayload"],
  ])("maps the %s event to %s in WebhookPayloads", (event, type) => {
    expect(webhookPayloadNames(model)).toContainEqual([event, type]);
    const block = /export interface WebhookPayloads \{([^}]*)\}/.exec(typesText)![1]!;
    expect(block).toMatch(new RegExp(`"${event}": ${type};`));
  });

  it("has a payload type for every webhook of the contract", () => {
    expect(webhookPayloadNames(model).map(([event]) => event)).toEqual(model.webhooks.map((w) => w.event));
  });

  it.each(RESERVED_TYPE_NAMES)("refuses a schema titled %s, which would clash with a generated type", async (name) => {
    const clash = { ...model, schemas: [...model.schemas, { ...model.schemas[0]!, name }] } as Model;
    await expect(typesTarget({ model: clash, portable, source: "spec/openapi.yaml" })).rejects.toThrow(new RegExp(`"${name}" is reserved`));
  });
});

describe("validators view-model", () => {
  it("has a validator for every schema and every webhook event", () => {
    const view = validatorsViewModel(model);
    expect(view.schemas.map((s) => s.name)).toEqual(model.schemas.map((s) => s.name));
    expect(view.webhooks.map((w) => w.event)).toEqual(model.webhooks.map((w) => w.event));
    expect(view.operations.map((o) => o.id)).toEqual(model.operations.map((o) => o.id));
  });

  it("a body that is only a $ref to a schema file reuses that file's validator", () => {
    expect(validatorsViewModel(model).webhooks.find((w) => w.event === "push")!.exportName).toBe("schema_PushWebhookPayload");
  });

  it.each([
    ["listPublicEvents", "query", { type: "object", required: [], properties: { page: { type: "integer", minimum: 1, maximum: 10, default: 1 } } }],
    ["listRepoEvents", "path", { type: "object", required: ["owner", "repo"] }],
  ] as const)("the %s %s values are checked against one object schema", (id, where, expected) => {
    const view = validatorsViewModel(model);
    const name = view.operations.find((o) => o.id === id)!.request[where];
    expect(view.params.find((p) => p.exportName === name)!.schema).toMatchObject(expected);
  });

  it("compiles each distinct parameter or header set once and points every user at it", () => {
    const view = validatorsViewModel(model);
    const names = view.params.map((p) => p.exportName);
    expect(new Set(names).size).toBe(names.length);
    const shapes = view.params.map((p) => JSON.stringify(p.schema));
    expect(new Set(shapes).size).toBe(shapes.length);
    const used = view.operations.flatMap((o) => [o.request.path, o.request.query, o.request.headers, ...o.responses.map((r) => r.headers)]).filter(Boolean);
    expect(used.length).toBeGreaterThan(names.length); // shared: more uses than compiled units
    for (const name of used) expect(names).toContain(name);
  });

  it("lower-cases header names, as they arrive over HTTP", () => {
    const view = validatorsViewModel(model);
    const feed = view.operations.find((o) => o.id === "listRepoEvents")!.responses.find((r) => r.status === "200")!;
    const unit = view.params.find((p) => p.exportName === feed.headers)!;
    expect(Object.keys(unit.schema!.properties as object)).toEqual(expect.arrayContaining(["etag", "x-poll-interval"]));
  });
});

describe("validators target output", () => {
  let files: Map<string, string>;
  beforeAll(() => {
    files = new Map(validatorsTarget(model, "spec/openapi.yaml").map((f) => [f.path, f.contents]));
  }, ceiling(120_000));

  it("writes the compiled modules, tables, API and declarations", () => {
    const paths = [...files.keys()];
    const folder = (family: string) => paths.filter((p) => p.startsWith(`validators/compiled-${family}/`));
    expect(folder("bodies").length).toBeGreaterThan(100);
    expect(folder("params").length).toBeGreaterThan(10);
    expect(paths.filter((p) => !/^validators\/compiled-(bodies|params)\//.test(p))).toEqual([
      "validators/compiled-bodies-explain.js",
      "validators/compiled-params-explain.js",
      "validators/tables.js",
      "validators/index.js",
      "validators/index.d.ts",
    ]);
  });

  it.each(["bodies", "params"])("compiled-%s/ holds one CommonJS module per compiled function, requiring only its callees and Ajv's runtime", (family) => {
    const modules = [...files].filter(([p]) => p.startsWith(`validators/compiled-${family}/`));
    const names = new Set(modules.map(([p]) => /\/(validate\d+)\.cjs$/.exec(p)![1]));
    expect(names.size).toBe(modules.length);
    for (const [path, text] of modules) {
      const self = /\/(validate\d+)\.cjs$/.exec(path)![1]!;
      // (booleans, not toMatch: a failure must not print the generated code)
      expect(text.includes(`\n"use strict";\nexports.${self} = ${self};\n`), path).toBe(true);
      expect(text.match(/^exports\./gm), path).toHaveLength(1);
      expect(/^(import|export) /m.test(text), path).toBe(false);
      expect(new RegExp(`^function ${self}\\(`, "m").test(text), path).toBe(true);
      for (const [, specifier] of text.matchAll(/require\("([^"]+)"\)/g)) {
        const sibling = /^\.\/(validate\d+)\.cjs$/.exec(specifier!);
        if (sibling) expect(names.has(sibling[1]!), `${path} requires ${specifier}`).toBe(true);
        else expect(specifier).toMatch(/^(ajv\/dist\/runtime\/[a-z0-9]+|ajv-formats\/dist\/formats)$/);
      }
    }
    // Every unit of the family is one of these functions, as tables.js names it.
    const tables = files.get("validators/tables.js")!;
    const units = family === "bodies" ? validatorsViewModel(model).bodies : validatorsViewModel(model).params;
    for (const unit of units) {
      const fn = new RegExp(`${unit.exportName}: unit\\("${family}", "${unit.exportName}", "(validate\\d+)"\\)`).exec(tables)?.[1];
      expect(fn && names.has(fn), unit.exportName).toBe(true);
    }
  });

  it.each(["validators/compiled-bodies-explain.js", "validators/compiled-params-explain.js"])("%s is real ESM: imports only Ajv's runtime helpers and formats, no require", (path) => {
    const text = files.get(path)!;
    // (booleans, not toMatch: a failure must not print 800 KB of generated code)
    expect(/\brequire\s*\(/.test(text)).toBe(false);
    const imports = [...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    for (const specifier of imports) expect(specifier).toMatch(/^(ajv\/dist\/runtime\/[a-z0-9]+\.js|ajv-formats\/dist\/formats\.js)$/);
    const units = path.includes("bodies") ? validatorsViewModel(model).bodies : validatorsViewModel(model).params;
    for (const unit of units) expect(text.includes(`export const ${unit.exportName} = `), unit.exportName).toBe(true);
    const exported = path.includes("bodies") ? "export const schema_PushWebhookPayload = " : `export const ${units[0]!.exportName} = `;
    expect(text.includes(exported)).toBe(true);
    expect(text.match(/export const /g)!.length).toBe(units.length);
  });
});

describe("the generated validators at import", () => {
  // With code generation from strings disabled, Ajv cannot compile anything (it builds each
  // validator with `new Function`), so this proves that importing and validating compile nothing.
  const script = `
    import { readFileSync } from "node:fs";
    const v = await import("service-contract/validators");
    const push = JSON.parse(readFileSync("spec/examples/webhooks/push/valid-branch-push.json", "utf8"));
    const results = [
      v.validateWebhook("push", push).valid,
      v.validateWebhook("push", { ...push, after: "x" }).valid,
      v.validateSchema("User", {}).valid,
      v.validateRequest("listPublicEvents", { query: { page: "2" } }).valid,
      v.validateResponse("listPublicEvents", 200, "[]").valid,
      v.validateResponse("createAccessToken", 200, "<OAuth><access_token>t</access_token><scope></scope><token_type>bearer</token_type></OAuth>", { mediaType: "application/xml" }).valid,
    ];
    console.log(JSON.stringify(results));`;

  it("import and validate with code generation disabled", async () => {
    const { stdout } = await run(process.execPath, ["--disallow-code-generation-from-strings", "--conditions=service-contract-source", "--input-type=module", "-e", script], { cwd: root });
    expect(JSON.parse(stdout)).toEqual([true, false, false, true, true, true]);
  });

  it("while compiling at run time is refused under the same flag (the check above can fail)", async () => {
    const compile = `import { Ajv2020 } from "ajv/dist/2020.js"; new Ajv2020().compile({ type: "object" }); console.log("compiled");`;
    const result = await run(process.execPath, ["--disallow-code-generation-from-strings", "--input-type=module", "-e", compile], { cwd: root }).catch((error: { stderr: string }) => ({ stdout: "", stderr: error.stderr }));
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/EvalError|Code generation from strings disallowed/);
  });
});
