/**
 * Target `validators` → `generated/validators/`: every schema of the contract and every
 * request/response part of every operation, precompiled by Ajv into standalone ES modules at
 * generate time, plus lookup tables and the public API (`validateWebhook`, `validateResponse`, …).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { problem } from "../../problems.ts";
import Handlebars from "handlebars";
import standaloneModule from "ajv/dist/standalone/index.js";
import type { Options } from "ajv";
import { createAjv } from "../../ajv.ts";
import type { Model } from "../../model.ts";
import type { GeneratedFile } from "../../output.ts";
import { generatedHeader } from "../../header.ts";
import { requireToImports } from "./esm.ts";
import { compiledModules, trimSchemaConstants } from "./modules.ts";
import { validatorsViewModel, type CompileUnit, type MediaEntry, type ValidatorsViewModel } from "./view-model.ts";
import { validatorDeclarations } from "./declarations.ts";
import { packageFile } from "../../package-files.ts";

type Standalone = (ajv: unknown, refsOrFunc: Record<string, string>) => string;
const standaloneCode = ((standaloneModule as unknown as { default?: Standalone }).default ?? standaloneModule) as unknown as Standalone;

const templatesDir = packageFile("templates", "validators");

const handlebars = Handlebars.create();
handlebars.registerHelper("json", (value: unknown) => JSON.stringify(value));

function render(template: string, view: object): string {
  return handlebars.compile(readFileSync(join(templatesDir, template), "utf8"), { noEscape: true, strict: true })(view);
}

// inlineRefs: false keeps one function per schema file instead of copying it into every user,
// which halves the code and so the import time; calls between them cost next to nothing.
const COMPILE_OPTIONS: Options = { code: { source: true, esm: true, lines: false }, inlineRefs: false };

/** An Ajv instance with every unit compiled, or the problem naming the unit Ajv refused. */
function compileUnits(model: Model, units: readonly CompileUnit[], options: Options): ReturnType<typeof createAjv> {
  const ajv = createAjv(model.schemaFiles, { ...COMPILE_OPTIONS, ...options });
  for (const unit of units) if (unit.schema) ajv.addSchema({ ...unit.schema, $id: unit.id });
  // Compile one unit at a time first, so a schema Ajv refuses in strict mode (an unknown keyword,
  // a type it cannot be) is reported by its name instead of failing the whole module anonymously.
  for (const unit of units) {
    try {
      ajv.getSchema(unit.id);
    } catch (error) {
      const file = model.schemaFiles.find((f) => f.id === unit.id)?.file;
      const message = `${(error as Error).message} (validator ${unit.exportName})`;
      throw problem("SPEC_INVALID", file ?? model.specFile, "#", message);
    }
  }
  return ajv;
}

/** One ES module of every unit's function, each exported under the unit's name (standalone). */
function singleModule(model: Model, units: readonly CompileUnit[], options: Options): string {
  const ajv = compileUnits(model, units, options);
  const exports = Object.fromEntries(units.map((u) => [u.exportName, u.id]));
  return requireToImports(trimSchemaConstants(ajv, units.map((u) => u.id), standaloneCode(ajv, exports)));
}

/**
 * One CommonJS module per compiled function under `validators/<folder>/` (modules.ts), and for
 * each unit the function that validates it, which tables.js names.
 */
function moduleFolder(model: Model, units: readonly CompileUnit[], options: Options, folder: string, header: string): { files: GeneratedFile[]; functions: Map<string, string> } {
  const ajv = compileUnits(model, units, options);
  const { modules, functionOf } = compiledModules(ajv, units.map((u) => u.id));
  const files = modules.map((m) => ({ path: `validators/${folder}/${m.name}.cjs`, contents: header + m.code }));
  return { files, functions: new Map(units.map((u) => [u.exportName, functionOf.get(u.id)!])) };
}

/**
 * Each family is compiled twice. The verdict comes from validators that stop at the first error
 * (`allErrors: false`): their work is linear in the value. With `allErrors: true` Ajv goes on past
 * every error and merges each referenced schema's errors by copying the list so far, so a long
 * array of wrong items costs the square of its length (issue 41: 20,000 bad items, 12 s). The
 * "explain" copies, which do collect every error, run only on a failed value small enough for
 * that to stay cheap (index.js.hbs, EXPLAIN_NODES).
 */
const FIRST_ERROR: Options = { allErrors: false };
const EVERY_ERROR: Options = { allErrors: true };
// Path, query and header values arrive as strings; coerce them as an HTTP framework would.
const PARAMS: Options = { coerceTypes: true };

/**
 * The operations table of tables.js as JSON, one operation a line: each validator as
 * "bodies.<export name>" or "params.<export name>", which tables.js resolves. Escaped for a
 * template literal (a backslash, a backtick and `${` stand for themselves).
 */
function operationsJson(operations: ValidatorsViewModel["operations"]): string {
  const ref = (family: string, name: string | null): string | null => (name ? `${family}.${name}` : null);
  const media = (entries: readonly MediaEntry[]) => Object.fromEntries(entries.map((m) => [m.mediaType, ref("bodies", m.exportName)]));
  const lines = operations.map((op) => {
    const table = {
      request: {
        path: ref("params", op.request.path),
        query: ref("params", op.request.query),
        headers: ref("params", op.request.headers),
        bodyRequired: op.request.bodyRequired,
        body: media(op.request.body),
      },
      responses: Object.fromEntries(op.responses.map((r) => [r.status, { headers: ref("params", r.headers), content: media(r.content) }])),
    };
    return `  ${JSON.stringify(op.id)}: ${JSON.stringify(table)}`;
  });
  return `{\n${lines.join(",\n")}\n}`.replace(/[\\`$]/g, "\\$&");
}

export function validatorsTarget(model: Model, source: string): GeneratedFile[] {
  const view = validatorsViewModel(model);
  const header = generatedHeader(source);
  const bodies = moduleFolder(model, view.bodies, FIRST_ERROR, "compiled-bodies", header);
  const params = moduleFolder(model, view.params, { ...PARAMS, ...FIRST_ERROR }, "compiled-params", header);
  const units = (family: string, list: readonly CompileUnit[], functions: Map<string, string>) =>
    list.map((u) => ({ family, exportName: u.exportName, fn: functions.get(u.exportName)! }));
  return [
    ...bodies.files,
    { path: "validators/compiled-bodies-explain.js", contents: header + singleModule(model, view.bodies, EVERY_ERROR) },
    ...params.files,
    { path: "validators/compiled-params-explain.js", contents: header + singleModule(model, view.params, { ...PARAMS, ...EVERY_ERROR }) },
    { path: "validators/tables.js", contents: render("tables.js.hbs", { header, ...view, operationsJson: operationsJson(view.operations), bodyUnits: units("bodies", view.bodies, bodies.functions), paramUnits: units("params", view.params, params.functions) }) },
    { path: "validators/index.js", contents: render("index.js.hbs", { header }) },
    { path: "validators/index.d.ts", contents: validatorDeclarations(model, header) },
  ];
}
