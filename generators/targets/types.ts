/**
 * Target `types` → `generated/types.ts`: openapi-typescript's `paths`, `webhooks`, `components`
 * and `operations` for the whole contract, plus a named type for every schema file and a
 * `WebhookPayloads` map from `X-Service-Event` name to payload type, which the validators, the
 * client's webhook receiver and the reference server all key on.
 *
 * openapi-typescript (and the TypeScript it builds with, 40 MB together) is an optional peer
 * dependency, loaded here only, so that installing the toolkit for its client, server or suite
 * does not install a compiler.
 */
import { createRequire } from "node:module";
import type { OpenAPI3 } from "openapi-typescript";
import { requirePeers } from "../package-files.ts";
import { generatedHeader } from "../header.ts";
import { unsupported } from "../problems.ts";
import type { Model } from "../model.ts";
import type { GeneratedFile } from "../output.ts";
import type { OpenApiDocument } from "../load-spec.ts";

export interface TypesInput {
  model: Model;
  portable: OpenApiDocument;
  source: string;
}

/** The title of the schema file a compiled `$ref` points at (`…/webhooks/push.json` → PushWebhookPayload). */
export function schemaNameForRef(model: Model, ref: unknown): string | undefined {
  return typeof ref === "string" ? model.schemas.find((s) => s.id === ref)?.name : undefined;
}

/** `event → payload type name`, from each webhook's JSON body schema. */
export function webhookPayloadNames(model: Model): [string, string][] {
  return model.webhooks.flatMap((w) => {
    const json = w.content.find((c) => c.mediaType === "application/json");
    const name = schemaNameForRef(model, json?.schema?.$ref);
    return name ? [[w.event, name] as [string, string]] : [];
  });
}

/** `{"not": {}}`: the schema nothing matches. */
function isNothing(schema: unknown): boolean {
  if (schema === null || typeof schema !== "object") return false;
  const keys = Object.keys(schema);
  const not = (schema as { not?: unknown }).not;
  return keys.length === 1 && not !== null && typeof not === "object" && Object.keys(not).length === 0;
}

/** Names this target adds next to the schema titles; a schema may not take one of them. */
export const RESERVED_TYPE_NAMES = ["WebhookPayloads", "DeliveryEventName", "OperationId"];

export async function typesTarget({ model, portable, source }: TypesInput): Promise<GeneratedFile[]> {
  const clash = model.schemas.find((s) => RESERVED_TYPE_NAMES.includes(s.name));
  if (clash) throw unsupported(clash.path, ["title"], `"${clash.name}" is reserved for a generated type`);
  requirePeers("generate (its types target)", "openapi-typescript", "typescript");
  // Its CommonJS build, through require(): imported as ESM, its `import ts from "typescript"` makes
  // Node scan TypeScript's 9 MB of CommonJS for export names before running it (see ts-morph.ts).
  const { default: openapiTS, astToString, NEVER } = createRequire(import.meta.url)("openapi-typescript") as typeof import("openapi-typescript");
  // defaultNonNullable off: a property with a `default` is optional to send (the server fills it
  // in), so it must stay optional in request types. `{"not": {}}` (how the contract writes the
  // `false` schema, which several tools cannot read) is `never`, as `false` was.
  // emptyObjectsUnknown: an object schema that lists no properties (`ActivityEventBase.payload`,
  // a deployment's free-form `payload`) takes any properties, as JSON Schema says; the default
  // `Record<string, never>` made every activity event's `payload` intersect to nothing, so no
  // handler could return a real event without a cast.
  const ast = await openapiTS(portable as unknown as OpenAPI3, {
    alphabetize: true,
    silent: true,
    defaultNonNullable: false,
    emptyObjectsUnknown: true,
    transform: (schema) => (isNothing(schema) ? NEVER : undefined),
  });
  // Appended as text, in the layout ts-morph gave them when it inserted them as structures:
  // parsing openapi-typescript's 400 kB output into a syntax tree, and re-printing it after each
  // insertion, cost a second of CPU for four declarations whose text is fixed.
  const aliases = model.schemas.map((s) => `/** The \`${s.file}.json\` schema. */\nexport type ${s.name} = components["schemas"]["${s.name}"];\n`);
  const payloads = webhookPayloadNames(model).map(([event, name]) => `    ${JSON.stringify(event)}: ${name};\n`);
  const printed = astToString(ast);
  // ts-morph set a blank line before the first alias when the statement above it has a body
  // (openapi-typescript ends with `interface operations {…}` when no helper type follows it).
  const lastStatement = (printed.match(/^\S.*$/gm) ?? []).filter((line) => !/^[})\]]/.test(line)).at(-1) ?? "";
  const text =
    printed +
    (aliases.length > 0 && /^(?:export )?interface /.test(lastStatement) ? "\n" : "") +
    aliases.join("") +
    "\n/** Webhook payload type by `X-Service-Event` name. */\n" +
    `export interface WebhookPayloads {\n${payloads.join("")}}\n` +
    "\n/** Every `X-Service-Event` a delivery can carry (the subscribable events and `ping`). */\n" +
    "export type DeliveryEventName = keyof WebhookPayloads;\n" +
    "export type OperationId = keyof operations;\n";

  return [{ path: "types.ts", contents: generatedHeader(source) + text }];
}
