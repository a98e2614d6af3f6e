/**
 * `generated/server/operations.ts`, written with ts-morph: for every operation a request type
 * (declared path, query and header parameters, and the body with its media type, all taken from
 * `operations[...]` of generated/types.ts) and a response union with one member per status and
 * media type the contract lists. A handler can only return what the contract allows, so a wrong
 * status, a missing required header or a wrong body type is a compile error.
 */
import type { OptionalKind, PropertySignatureStructure, WriterFunction } from "ts-morph";
import { Project, Writers } from "../../ts-morph.ts";
import type { Model, ModelOperation, ModelResponse } from "../../model.ts";
import { typeBase } from "./view-model.ts";

type Property = OptionalKind<PropertySignatureStructure>;
type TypeText = string | WriterFunction;

function union(members: TypeText[]): TypeText {
  const [first, second, ...rest] = members;
  if (first === undefined) return "never";
  return second === undefined ? first : Writers.unionType(first, second, ...rest);
}

function parenthesized(type: TypeText): TypeText {
  return (writer) => {
    writer.write("(");
    if (typeof type === "string") writer.write(type);
    else type(writer);
    writer.write(")");
  };
}

const str = (value: string): string => JSON.stringify(value);

function statusKey(status: string): string {
  return /^\d+$/.test(status) ? status : str(status);
}

function statusType(status: string): string {
  return /^\d+$/.test(status) ? status : "number";
}

function requestType(op: ModelOperation): TypeText {
  const parameters = `operations[${str(op.id)}]["parameters"]`;
  const has = (where: string) => op.parameters.some((p) => p.in === where);
  const fixed: Property[] = [
    { name: "operationId", type: str(op.id) },
    { name: "params", type: has("path") ? `${parameters}["path"]` : "Record<string, never>" },
    { name: "query", type: has("query") ? `NonNullable<${parameters}["query"]>` : "Record<string, never>" },
    { name: "headers", type: has("header") ? `NonNullable<${parameters}["header"]>` : "Record<string, never>" },
  ];
  const bodies: TypeText[] = (op.requestBody?.content ?? []).map((m) =>
    Writers.objectType({
      properties: [
        { name: "mediaType", type: str(m.mediaType) },
        { name: "body", type: `NonNullable<operations[${str(op.id)}]["requestBody"]>["content"][${str(m.mediaType)}]` },
      ],
    }),
  );
  if (!op.requestBody || !op.requestBody.required) {
    bodies.push(Writers.objectType({ properties: [{ name: "mediaType", type: "undefined" }, { name: "body", type: "undefined" }] }));
  }
  // A union inside an intersection needs parentheses: `A & (B | C)`, not `A & B | C`.
  return Writers.intersectionType("RequestBase", Writers.objectType({ properties: fixed }), bodies.length > 1 ? parenthesized(union(bodies)) : union(bodies));
}

function responseMembers(op: ModelOperation, response: ModelResponse): TypeText[] {
  const base = `operations[${str(op.id)}]["responses"][${statusKey(response.status)}]`;
  const headers: Property[] = response.headers.map((h) => ({
    name: str(h.name),
    hasQuestionToken: !h.required,
    type: `${base}["headers"][${str(h.name)}]`,
  }));
  const common: Property[] = [
    { name: "status", type: statusType(response.status) },
    { name: "headers", hasQuestionToken: !response.headers.some((h) => h.required), type: Writers.objectType({ properties: headers }) },
    { name: "extraHeaders", hasQuestionToken: true, type: "ExtraHeaders" },
  ];
  if (response.content.length === 0) {
    return [Writers.objectType({ properties: [...common, { name: "body", hasQuestionToken: true, type: "undefined" }, { name: "mediaType", hasQuestionToken: true, type: "undefined" }] })];
  }
  const single = response.content.length === 1;
  return response.content.map((m) =>
    Writers.objectType({
      properties: [
        ...common,
        { name: "body", type: `${base}["content"][${str(m.mediaType)}]` },
        // With one media type the runtime knows it; with several (the token endpoint) the handler chooses.
        { name: "mediaType", hasQuestionToken: single, type: str(m.mediaType) },
        // JSON only: the body's bytes, already serialized (a cache's), sent instead of stringifying `body`.
        ...(/json$/.test(m.mediaType) ? [{ name: "serializedBody", hasQuestionToken: true, type: "string | Buffer" }] : []),
      ],
    }),
  );
}

/** `runtime`: the module specifier of runtime/server (see runtime-modules.ts). */
export function operationTypes(model: Model, header: string, runtime: string): string {
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile("operations.ts", "");
  file.addImportDeclaration({ isTypeOnly: true, namedImports: ["operations"], moduleSpecifier: "../types.js" });
  file.addImportDeclaration({ isTypeOnly: true, namedImports: ["ExtraHeaders", "RequestBase"], moduleSpecifier: runtime });
  // One batched insertion: ts-morph re-prints the file on every add, so adding aliases one at a
  // time made this target the slowest step of generate.
  file.addTypeAliases(
    model.operations.flatMap((op) => {
      const name = typeBase(op.id);
      const title = `${op.method.toUpperCase()} ${op.path}${op.summary ? ` — ${op.summary}` : ""}`;
      return [
        { name: `${name}Request`, isExported: true, docs: [`What the \`${op.id}\` handler receives: ${title}.`], type: requestType(op) },
        {
          name: `${name}Response`,
          isExported: true,
          docs: [`What the \`${op.id}\` handler may answer: one member per status and media type of the contract.`],
          type: union(op.responses.flatMap((r) => responseMembers(op, r))),
        },
      ];
    }),
  );
  file.formatText({ indentSize: 2, convertTabsToSpaces: true });
  return header + file.getFullText();
}
