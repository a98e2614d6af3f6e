/**
 * `generated/server/index.ts`, written with ts-morph: the `Handlers` interface (one property per
 * operation), the per-host operation unions, and `registerRoutes` / `registerAllRoutes`, which
 * hand the route table and the generated validators to the runtime. `registerAllRoutes` takes
 * every handler of its host, so a server that forgets one does not compile.
 */
import { Project, VariableDeclarationKind } from "../../ts-morph.ts";
import type { Model } from "../../model.ts";
import { typeBase } from "./view-model.ts";

const str = (value: string): string => JSON.stringify(value);

function idUnion(ids: string[]): string {
  return ids.length === 0 ? "never" : ids.map(str).join(" | ");
}

/** `runtime`: the module specifier of runtime/server (see runtime-modules.ts). */
export function serverEntry(model: Model, header: string, runtime: string): string {
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile("index.ts", "");
  file.addImportDeclaration({ isTypeOnly: true, namedImports: ["FastifyInstance"], moduleSpecifier: "fastify" });
  file.addImportDeclaration({
    namedImports: ["registerRouteTable", "type Handler", "type Host", "type RawRequest", "type RegisterOptions", "type RequestFailure"],
    moduleSpecifier: runtime,
  });
  file.addImportDeclaration({ namedImports: ["validateRequest", "validateResponse"], moduleSpecifier: "../validators/index.js" });
  file.addImportDeclaration({ namedImports: ["routes"], moduleSpecifier: "./routes.js" });
  file.addImportDeclaration({ isTypeOnly: true, namespaceImport: "O", moduleSpecifier: "./operations.js" });
  file.addExportDeclaration({ moduleSpecifier: "./operations.js" });
  file.addExportDeclaration({ namedExports: ["routes"] });
  file.addExportDeclaration({
    isTypeOnly: true,
    namedExports: ["ErrorBody", "ExtraHeaders", "Handler", "HandlerResult", "Host", "RawRequest", "RegisterOptions", "RequestFailure", "ResponseValidationFailure", "ValidationErrorItem"],
    moduleSpecifier: runtime,
  });

  file.addInterface({
    name: "Handlers",
    isExported: true,
    typeParameters: [{ name: "S", constraint: "string", default: "never" }],
    docs: ["One handler per operation. `S`: response headers supplied outside the handlers (see `RegisterOptions.suppliedHeaders`)."],
    properties: model.operations.map((op) => ({
      name: op.id,
      docs: [`${op.method.toUpperCase()} ${op.path} (${op.host} host)${op.summary ? ` — ${op.summary}` : ""}`],
      type: `Handler<O.${typeBase(op.id)}Request, O.${typeBase(op.id)}Response, S>`,
    })),
  });
  const ids = (host: string) => model.operations.filter((op) => op.host === host).map((op) => op.id);
  file.addTypeAlias({ name: "ApiOperationId", isExported: true, docs: ["Operations served by the API host."], type: idUnion(ids("api")) });
  file.addTypeAlias({ name: "AuthOperationId", isExported: true, docs: ["Operations served by the web host (OAuth pages and token exchange)."], type: idUnion(ids("auth")) });
  file.addTypeAlias({ name: "HostOperationId", isExported: true, typeParameters: [{ name: "H", constraint: "Host" }], type: `H extends "api" ? ApiOperationId : AuthOperationId` });
  file.addTypeAlias({
    name: "HostHandlers",
    isExported: true,
    typeParameters: [{ name: "H", constraint: "Host" }, { name: "S", constraint: "string", default: "never" }],
    docs: ["Every handler of one host."],
    type: "Pick<Handlers<S>, HostOperationId<H>>",
  });
  file.addTypeAlias({
    name: "InvalidRequestHandlers",
    isExported: true,
    typeParameters: [{ name: "H", constraint: "Host" }, { name: "S", constraint: "string", default: "never" }],
    docs: ["Per operation, an answer of its own to refused requests (instead of the JSON 400/404/413/415/422), typed like the operation's handler results."],
    type: "{ [K in HostOperationId<H>]?: (failure: RequestFailure, raw: RawRequest) => ReturnType<Handlers<S>[K]> }",
  });
  file.addInterface({
    name: "ServerOptions",
    isExported: true,
    typeParameters: [{ name: "H", constraint: "Host" }, { name: "S", constraint: "string", default: "never" }],
    extends: ["RegisterOptions<H, S>"],
    properties: [{ name: "invalidRequest", hasQuestionToken: true, type: "NoInfer<InvalidRequestHandlers<H, S>>" }],
  });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name: "table", initializer: "{ routes, validateRequest, validateResponse }" }],
  });
  const typeParameters = [{ name: "H", constraint: "Host" }, { name: "S", constraint: "string", default: "never", isConst: true }];
  file.addFunction({
    name: "registerRoutes",
    isExported: true,
    docs: [
      "Register the routes of `options.host` on a Fastify instance (its content-type parsers, error handler and not-found handler are set too). Operations without a handler answer 501.",
    ],
    typeParameters,
    parameters: [
      { name: "app", type: "FastifyInstance" },
      { name: "handlers", type: "NoInfer<Partial<HostHandlers<H, S>>>" },
      { name: "options", type: "ServerOptions<H, S>" },
    ],
    returnType: "void",
    statements: ["registerRouteTable(app, table, handlers as never, options as never);"],
  });
  file.addFunction({
    name: "registerAllRoutes",
    isExported: true,
    docs: ["`registerRoutes` that requires a handler for every operation of the host."],
    typeParameters,
    parameters: [
      { name: "app", type: "FastifyInstance" },
      { name: "handlers", type: "NoInfer<HostHandlers<H, S>>" },
      { name: "options", type: "ServerOptions<H, S>" },
    ],
    returnType: "void",
    statements: ["registerRouteTable(app, table, handlers as never, options as never);"],
  });
  file.formatText({ indentSize: 2, convertTabsToSpaces: true });
  return header + file.getFullText();
}
