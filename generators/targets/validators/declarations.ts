/**
 * `generated/validators/index.d.ts`: the types of the validators' public API, written with
 * ts-morph. The per-schema and per-event maps make `validateSchema("User", x)` and
 * `validateWebhook("push", x)` narrow `value` to the right generated type.
 */
import { Project, StructureKind, VariableDeclarationKind } from "../../ts-morph.ts";
import type { Model } from "../../model.ts";

export function validatorDeclarations(model: Model, header: string): string {
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile("index.d.ts", "");
  file.addImportDeclaration({ isTypeOnly: true, namespaceImport: "T", moduleSpecifier: "../types.js" });
  file.addInterface({
    name: "ValidationError",
    isExported: true,
    docs: ["One problem: `path` is a JSON pointer to the offending value (`/commits/0/id`)."],
    properties: [
      { name: "path", type: "string" },
      { name: "message", type: "string" },
    ],
  });
  file.addTypeAlias({
    name: "ValidationResult",
    isExported: true,
    typeParameters: ["V"],
    type: "{ valid: true; value: V } | { valid: false; errors: ValidationError[] }",
  });
  file.addInterface({
    name: "SchemaTypes",
    isExported: true,
    docs: ["Schema title → generated type."],
    properties: model.schemas.map((s) => ({ name: s.name, type: `T.${s.name}` })),
  });
  file.addTypeAlias({ name: "SchemaName", isExported: true, type: "keyof SchemaTypes" });
  file.addInterface({
    name: "ValidateOptions",
    isExported: true,
    docs: ["How a failed validation is reported."],
    properties: [
      {
        name: "maxErrors",
        hasQuestionToken: true,
        type: "number",
        docs: ["The most errors a failed result lists (a positive integer; `DEFAULT_MAX_ERRORS`, 20, otherwise). A value of more than 2,000 values in all is explained by its first error only."],
      },
    ],
  });
  file.addTypeAlias({
    name: "RequestInput",
    isExported: true,
    type: "{ path?: Record<string, unknown>; query?: Record<string, unknown>; headers?: Record<string, string | string[] | undefined> | Headers; body?: unknown; mediaType?: string }",
  });
  file.addTypeAlias({
    name: "ResponseOptions",
    isExported: true,
    type: "ValidateOptions & { headers?: Record<string, string | string[] | undefined> | Headers; mediaType?: string }",
  });
  file.addVariableStatement({
    isExported: true,
    hasDeclareKeyword: true,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      { name: "schemaNames", type: "readonly SchemaName[]" },
      { name: "webhookEvents", type: "readonly T.DeliveryEventName[]" },
      { name: "operationIds", type: "readonly T.OperationId[]" },
      { name: "DEFAULT_MAX_ERRORS", type: "number" },
    ],
  });
  const fn = (name: string, overloads: { typeParameters?: string[]; parameters: [string, string][]; returnType: string }[], docs: string) =>
    overloads.map((o, i) =>
      file.addFunction({
        kind: StructureKind.Function,
        name,
        isExported: true,
        hasDeclareKeyword: true,
        docs: i === 0 ? [docs] : [],
        typeParameters: o.typeParameters,
        parameters: o.parameters.map(([n, type]) => ({ name: n.replace("?", ""), type, hasQuestionToken: n.endsWith("?") })),
        returnType: o.returnType,
      }),
    );
  fn(
    "validateSchema",
    [
      { typeParameters: ["N extends SchemaName"], parameters: [["name", "N"], ["value", "unknown"], ["options?", "ValidateOptions"]], returnType: "ValidationResult<SchemaTypes[N]>" },
      { parameters: [["name", "string"], ["value", "unknown"], ["options?", "ValidateOptions"]], returnType: "ValidationResult<unknown>" },
    ],
    "Validate a value against a named schema of the contract.",
  );
  fn(
    "validateWebhook",
    [
      {
        typeParameters: ["E extends T.DeliveryEventName"],
        parameters: [["event", "E"], ["payload", "unknown"], ["options?", "ValidateOptions"]],
        returnType: "ValidationResult<T.WebhookPayloads[E]>",
      },
      { parameters: [["event", "string"], ["payload", "unknown"], ["options?", "ValidateOptions"]], returnType: "ValidationResult<unknown>" },
    ],
    "Validate a webhook delivery body for its `X-Service-Event` name.",
  );
  fn("validateActivityEvent", [{ parameters: [["event", "unknown"], ["options?", "ValidateOptions"]], returnType: "ValidationResult<T.ActivityEvent>" }], "Validate one activity event of a feed.");
  fn(
    "validateIssueEvent",
    [
      { parameters: [["event", "unknown"], ["options", 'ValidateOptions & { issue: "present" }']], returnType: "ValidationResult<T.IssueEventWithIssue>" },
      { parameters: [["event", "unknown"], ["options", 'ValidateOptions & { issue: "absent" }']], returnType: "ValidationResult<T.IssueEvent>" },
      { parameters: [["event", "unknown"], ["options?", 'ValidateOptions & { issue?: "present" | "absent" }']], returnType: "ValidationResult<T.IssueEvent | T.IssueEventWithIssue>" },
    ],
    "Validate one issue event; `issue` is present in repository-wide lists and single events, absent in per-issue lists.",
  );
  fn(
    "validateResponse",
    [
      {
        parameters: [["operationId", "T.OperationId"], ["status", "number | string"], ["body", "unknown"], ["options?", "ResponseOptions"]],
        returnType: "ValidationResult<unknown>",
      },
    ],
    "Validate a response of an operation: status, body by content type, and headers when given.",
  );
  fn(
    "validateRequest",
    [
      {
        parameters: [["operationId", "T.OperationId"], ["request?", "RequestInput"], ["options?", "ValidateOptions"]],
        returnType: "ValidationResult<{ path: Record<string, unknown>; query: Record<string, unknown>; headers: Record<string, string>; body: unknown }>",
      },
    ],
    "Validate a request to an operation: path, query and header values (coerced) and the body.",
  );
  return header + file.getFullText();
}
