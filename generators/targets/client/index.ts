/**
 * Target `client` → `generated/client/`: a typed client of the contract. The view-model decides
 * everything per operation; handlebars prints the data files (operation table, webhook binding,
 * entry module) and ts-morph writes the type-heavy ones (request/response types, the client
 * class). Everything that does not vary per operation is hand-written in runtime/client.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import { generatedHeader } from "../../header.ts";
import { DEFAULT_RUNTIME_MODULES } from "../../runtime-modules.ts";
import type { GeneratedFile } from "../../output.ts";
import type { TargetInput } from "../registry.ts";
import { clientClass } from "./class-file.ts";
import { clientDeclarations } from "./declarations.ts";
import { clientViewModel, operationMeta } from "./view-model.ts";
import { packageFile } from "../../package-files.ts";

const templatesDir = packageFile("templates", "client");

const handlebars = Handlebars.create();
handlebars.registerHelper("json", (value: unknown) => JSON.stringify(value));

function render(template: string, view: object): string {
  return handlebars.compile(readFileSync(join(templatesDir, template), "utf8"), { noEscape: true, strict: true })(view);
}

export function clientTarget({ model, source, runtime: modules = DEFAULT_RUNTIME_MODULES }: TargetInput): GeneratedFile[] {
  const view = clientViewModel(model);
  const header = generatedHeader(source);
  const runtime = modules.client;
  const operations = view.operations.map((o) => ({ id: o.id, meta: JSON.stringify(operationMeta(o)) }));
  return [
    { path: "client/client.ts", contents: clientClass(view, header, runtime) },
    { path: "client/index.ts", contents: render("index.ts.hbs", { header, runtime }) },
    { path: "client/operations.ts", contents: render("operations.ts.hbs", { header, operations, runtime }) },
    { path: "client/types.ts", contents: clientDeclarations(view, header, runtime) },
    { path: "client/webhooks.ts", contents: render("webhooks.ts.hbs", { header, webhookEvents: view.webhookEvents, runtime }) },
  ];
}
