/**
 * Target `server` → `generated/server/`: typed server stubs for the contract. `operations.ts`
 * holds a request type and a response union per operation (ts-morph), `routes.ts` the route
 * table the runtime registers (handlebars; it only prints the view-model), and `index.ts` the
 * `Handlers` interface with `registerRoutes` / `registerAllRoutes` (ts-morph). Everything that
 * does not depend on the operation (decoding, validation, serialization, errors) is the
 * hand-written runtime in `runtime/server/`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import { generatedHeader } from "../../header.ts";
import { DEFAULT_RUNTIME_MODULES } from "../../runtime-modules.ts";
import type { GeneratedFile } from "../../output.ts";
import type { TargetInput } from "../registry.ts";
import { serverEntry } from "./entry.ts";
import { operationTypes } from "./operation-types.ts";
import { routeViews } from "./view-model.ts";
import { packageFile } from "../../package-files.ts";

const templatesDir = packageFile("templates", "server");

const handlebars = Handlebars.create();
handlebars.registerHelper("json", (value: unknown) => JSON.stringify(value));

function render(template: string, view: object): string {
  return handlebars.compile(readFileSync(join(templatesDir, template), "utf8"), { noEscape: true, strict: true })(view);
}

export function serverTarget({ model, portable, source, runtime = DEFAULT_RUNTIME_MODULES }: TargetInput): GeneratedFile[] {
  const header = generatedHeader(source);
  return [
    { path: "server/index.ts", contents: serverEntry(model, header, runtime.server) },
    { path: "server/operations.ts", contents: operationTypes(model, header, runtime.server) },
    { path: "server/routes.ts", contents: render("routes.ts.hbs", { header, routes: routeViews(model, portable), runtime: runtime.server }) },
  ];
}
