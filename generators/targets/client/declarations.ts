/**
 * `generated/client/types.ts`, written with ts-morph: per operation a `…Request` type (path,
 * query, headers, body — each taken from openapi-typescript's `operations[…]`, required exactly
 * when the spec requires it) and a `…Response` union over the declared statuses, plus the
 * operation map and the pageable/pollable id unions the runtime's generic helpers are typed by.
 */
import type { InterfaceDeclarationStructure, OptionalKind, PropertySignatureStructure, TypeAliasDeclarationStructure } from "ts-morph";
import { IndentationText, Project, StructureKind } from "../../ts-morph.ts";
import type { ClientViewModel, OperationView, ResponseView } from "./view-model.ts";

const q = (s: string): string => JSON.stringify(s);
const op = (o: OperationView): string => `operations[${q(o.id)}]`;
const statusIndex = (status: string): string => (/^\d{3}$/.test(status) ? status : q(status));

function bodyType(o: OperationView, r: ResponseView | undefined): string {
  if (!r || r.media.length === 0) return "undefined";
  return r.media.map((m) => `${op(o)}["responses"][${statusIndex(r.status)}]["content"][${q(m)}]`).join(" | ");
}

function responseMember(o: OperationView, r: ResponseView): string {
  const headers = `${op(o)}["responses"][${statusIndex(r.status)}]["headers"]`;
  if (r.status === "304") return `NotModified<${headers}, ${bodyType(o, o.responses.find((x) => x.status === "200"))}>`;
  return `Reply<${r.statusType}, ${headers}, ${bodyType(o, r)}>`;
}

function requestProperties(o: OperationView): OptionalKind<PropertySignatureStructure>[] {
  const props: OptionalKind<PropertySignatureStructure>[] = [];
  if (o.pathParams.length > 0) props.push({ name: "path", type: `${op(o)}["parameters"]["path"]` });
  if (o.queryParams.length > 0) props.push({ name: "query", hasQuestionToken: !o.requiredQuery, type: `NonNullable<${op(o)}["parameters"]["query"]>` });
  if (o.headerParams.length > 0) props.push({ name: "headers", hasQuestionToken: !o.requiredHeaders, type: `NonNullable<${op(o)}["parameters"]["header"]>` });
  if (o.requestMedia.length > 0) {
    const content = `NonNullable<${op(o)}["requestBody"]>["content"]`;
    props.push({ name: "body", hasQuestionToken: !o.bodyRequired, type: o.requestMedia.map((m) => `${content}[${q(m)}]`).join(" | ") });
    if (o.requestMedia.length > 1) {
      props.push({ name: "mediaType", hasQuestionToken: true, type: o.requestMedia.map(q).join(" | "), docs: [`How to send \`body\`; default ${o.requestMedia[0]}.`] });
    }
  }
  return props;
}

const union = (names: string[]): string => (names.length > 0 ? names.map(q).join(" | ") : "never");

/** `runtime`: the module specifier of runtime/client (see runtime-modules.ts). */
export function clientDeclarations(view: ClientViewModel, header: string, runtime: string): string {
  const project = new Project({ useInMemoryFileSystem: true, manipulationSettings: { indentationText: IndentationText.TwoSpaces } });
  const file = project.createSourceFile("types.ts", "// Request and response types of every operation of the contract, for client.ts.\n");
  file.addImportDeclaration({ isTypeOnly: true, namedImports: ["NotModified", "Reply"], moduleSpecifier: runtime });
  file.addImportDeclaration({ isTypeOnly: true, namedImports: ["operations"], moduleSpecifier: "../types.js" });

  // Batched as statement structures, in the same order as before: ts-morph re-prints the file on
  // every insertion, so one call instead of two per operation.
  file.addStatements(
    view.operations.flatMap((o): (InterfaceDeclarationStructure | TypeAliasDeclarationStructure)[] => {
      const props = requestProperties(o);
      const docs = [`What \`${o.id}\` sends: ${o.method} ${o.path}.`];
      const request: InterfaceDeclarationStructure | TypeAliasDeclarationStructure =
        props.length === 0
          ? { kind: StructureKind.TypeAlias, name: `${o.typeName}Request`, isExported: true, docs, type: "Record<string, never>" }
          : { kind: StructureKind.Interface, name: `${o.typeName}Request`, isExported: true, docs, properties: props };
      return [
        request,
        {
          kind: StructureKind.TypeAlias,
          name: `${o.typeName}Response`,
          isExported: true,
          docs: [`What \`${o.id}\` resolves to: one member per declared status (${o.responses.map((r) => r.status).join(", ")}).`],
          // One member per line: these unions are long and read better as a list.
          type: o.responses.length > 0 ? o.responses.map((r) => `\n  | ${responseMember(o, r)}`).join("") : "never",
        },
      ];
    }),
  );

  file.addInterface({
    kind: StructureKind.Interface,
    name: "ClientOperations",
    isExported: true,
    docs: ["operationId → request and response types."],
    properties: view.operations.map((o) => ({ name: o.id, type: `{ request: ${o.typeName}Request; response: ${o.typeName}Response }` })),
  });
  file.addTypeAlias({
    name: "PageableOperationId",
    isExported: true,
    docs: ["Operations whose 200 is a list paged by `Link: rel=\"next\"` (for `paginate` and `items`)."],
    type: union(view.operations.filter((o) => o.pageable).map((o) => o.id)),
  });
  file.addTypeAlias({
    name: "PollableOperationId",
    isExported: true,
    docs: ["Feeds that answer 304 to a matching `If-None-Match` (for `poll`)."],
    type: union(view.operations.filter((o) => o.pollable).map((o) => o.id)),
  });
  file.formatText({ indentSize: 2 });
  return header + file.getFullText();
}
