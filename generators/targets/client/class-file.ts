/**
 * `generated/client/client.ts`, written with ts-morph: the ServiceClient class, one thin method
 * per operationId that forwards to the runtime pipeline and narrows its result to the
 * operation's response union.
 */
import { IndentationText, Project, Scope } from "../../ts-morph.ts";
import type { ClientViewModel, OperationView } from "./view-model.ts";

function methodDocs(o: OperationView): string {
  const host = o.host === "auth" ? " (web host, `authUrl`)" : "";
  const extra = [o.pageable ? "Pages with `paginate`/`items`." : "", o.pollable ? "Polls with `poll`." : ""].filter(Boolean).join(" ");
  return [`${o.summary || o.id}`, "", `\`${o.method} ${o.path}\`${host}.${extra ? " " + extra : ""}`].join("\n");
}

/** `runtime`: the module specifier of runtime/client (see runtime-modules.ts). */
export function clientClass(view: ClientViewModel, header: string, runtime: string): string {
  const project = new Project({ useInMemoryFileSystem: true, manipulationSettings: { indentationText: IndentationText.TwoSpaces } });
  const file = project.createSourceFile("client.ts", "");
  file.addImportDeclaration({ namedImports: ["ServiceClientCore"], moduleSpecifier: runtime });
  file.addImportDeclaration({ isTypeOnly: true, namedImports: ["CallOptions", "ClientOptions", "RequestParts"], moduleSpecifier: runtime });
  file.addImportDeclaration({ namedImports: ["operationTable"], moduleSpecifier: "./operations.js" });
  file.addImportDeclaration({ isTypeOnly: true, namespaceImport: "T", moduleSpecifier: "./types.js" });

  const cls = file.addClass({
    name: "ServiceClient",
    isExported: true,
    extends: "ServiceClientCore<T.ClientOperations, T.PageableOperationId, T.PollableOperationId>",
    docs: [
      [
        "Typed client of the contract: one method per operationId. Declared statuses are returned as",
        "typed responses (switch on `status`); undeclared ones throw ResponseError.",
        "",
        "```ts",
        "const client = new ServiceClient({ baseUrl, authUrl, auth: { type: \"token\", token } });",
        "```",
      ].join("\n"),
    ],
  });
  cls.addConstructor({
    parameters: [{ name: "options", type: "ClientOptions" }],
    statements: ["super(operationTable, options);"],
  });
  // Batched: ts-morph re-prints the file on every insertion.
  cls.addMethods(
    view.operations.map((o) => ({
      name: o.id,
      scope: Scope.Public,
      docs: [methodDocs(o)],
      parameters: [
        { name: "request", type: `T.${o.typeName}Request`, hasQuestionToken: o.requestOptional },
        { name: "options", type: "CallOptions", hasQuestionToken: true },
      ],
      returnType: `Promise<T.${o.typeName}Response>`,
      statements: [`return this.call(${JSON.stringify(o.id)}, request as RequestParts | undefined, options) as Promise<T.${o.typeName}Response>;`],
    })),
  );
  file.formatText({ indentSize: 2 });
  return header + file.getFullText();
}
