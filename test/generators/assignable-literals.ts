/**
 * Builds test/generators/assignable.typecheck.ts: every valid example of the contract written as
 * a plain object literal and assigned, without a cast, to the generated type it is an example of —
 * each schema's `spec/examples/<file>/valid-*.json` to that schema's named type, and each example
 * of an operation's response to `operations[id]["responses"][status]["content"][media]`, the body
 * a handler returns. The typecheck then proves what a server author meets: a literal of the
 * contract's shape fits the generated types (issue 36: activity events once intersected their
 * payload with `Record<string, never>`, so none did). assignable.test.ts keeps the file current.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { readSchemaFiles } from "../../generators/schema-files.ts";

const root = join(import.meta.dirname, "../..");
export const ASSIGNABLE_FILE = join(root, "test/generators/assignable.typecheck.ts");

type Json = unknown;

/** A local `#/…` reference followed to its target (bounded: the contract has no cycles here). */
function deref(doc: Json, node: Json): Record<string, Json> {
  let current = node as Record<string, Json>;
  for (let hops = 0; hops < 16 && typeof current?.$ref === "string" && current.$ref.startsWith("#/"); hops++) {
    current = (current.$ref as string)
      .slice(2)
      .split("/")
      .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce<Json>((at, key) => (at as Record<string, Json>)?.[key], doc) as Record<string, Json>;
  }
  return current ?? {};
}

const identifier = (text: string) => text.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase());

export interface Literal {
  name: string;
  type: string;
  value: Json;
}

function contract(): Record<string, Json> {
  return parse(readFileSync(join(root, "spec/openapi.yaml"), "utf8")) as Record<string, Json>;
}

/** Schema file (`activity/push`) → its component's name, the generated type's (`PushEvent`). */
export function componentNames(): Map<string, string> {
  const schemas = ((contract().components as Record<string, Json>).schemas ?? {}) as Record<string, { $ref?: string }>;
  return new Map(
    Object.entries(schemas).flatMap(([name, s]) => (typeof s.$ref === "string" && s.$ref.startsWith("schemas/") ? [[s.$ref.slice("schemas/".length).replace(/\.json$/, ""), name] as [string, string]] : [])),
  );
}

/** One literal per valid example of each schema file, typed by the schema's component. */
export function schemaLiterals(): Literal[] {
  const names = componentNames();
  return readSchemaFiles(join(root, "spec/schemas")).flatMap((s) => {
    const title = names.get(s.name);
    const dir = join(root, "spec/examples", s.name);
    if (title === undefined || !existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.startsWith("valid") && f.endsWith(".json"))
      .sort()
      .map((f) => ({ name: `${title}_${identifier(f.replace(/\.json$/, ""))}`, type: `T.${title}`, value: JSON.parse(readFileSync(join(dir, f), "utf8")) as Json }));
  });
}

/** One literal per example of each operation's response body, typed by that body. */
export function responseLiterals(): Literal[] {
  const doc = contract();
  const out: Literal[] = [];
  for (const item of Object.values(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "put", "post", "patch", "delete"].includes(method)) continue;
      const { operationId, responses } = op as { operationId: string; responses: Record<string, Json> };
      for (const [status, ref] of Object.entries(responses)) {
        const content = (deref(doc, ref).content ?? {}) as Record<string, { example?: Json; examples?: Record<string, Json> }>;
        for (const [media, m] of Object.entries(content)) {
          const type = `operations[${JSON.stringify(operationId)}]["responses"][${status}]["content"][${JSON.stringify(media)}]`;
          const examples: [string, Json][] = Object.entries(m.examples ?? {}).map(([k, e]) => [k, deref(doc, e).value]);
          if (m.example !== undefined) examples.push(["example", m.example]);
          for (const [key, value] of examples) {
            if (value === undefined) continue;
            out.push({ name: `${operationId}_${status}_${identifier(media)}_${identifier(key)}`, type, value });
          }
        }
      }
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Examples that carry fields beyond what the generated type declares: what the real service sends
 * beyond the contract (D-RECEIVED-RESPONSES: a `repository_id`, a user's `followers_url`), or the
 * full webhook objects a server of this contract sends where the feed schema declares the short
 * form (D-SCHEMA-ACTIVITY-FEED-OBJECTS). Their shape is still checked, as a value built elsewhere
 * and passed on (`as const`, then assigned): only TypeScript's excess-property lint on a fresh
 * literal is left out. Every other example is assigned as a fresh literal.
 */
export const EXTRAS: ReadonlySet<string> = new Set([
  "ActivityEvent_validPullRequest",
  "CommitCommentEventPayload_validFeedCommentWithoutCommitId",
  "CommitCommentEventPayload_validLineComment",
  "CommitCommentEventPayload_validWholeCommit",
  "ForkEventPayload_validFeedForkeeWithoutFullName",
  "ForkEventPayload_validForkee",
  "IssueCommentEventPayload_validCreated",
  "IssueCommentEventPayload_validOnPullRequest",
  "PullRequestEventPayload_validAssigned",
  "PullRequestEventPayload_validClosedMerged",
  "PullRequestEventPayload_validLabeled",
  "PullRequestEventPayload_validOpened",
  "PullRequestEventPayload_validSynchronize",
  "PullRequestReviewCommentEventPayload_validCreated",
  "PushEventPayload_validRealServiceTrimmed",
  "CommitCommentEvent_validFeedCommentWithoutCommitId",
  "CommitCommentEvent_validLineComment",
  "ForkEvent_validFeedForkeeWithoutFullName",
  "ForkEvent_validForkee",
  "IssueCommentEvent_validCreated",
  "PullRequestEvent_validClosedMerged",
  "PullRequestEvent_validOpened",
  "PullRequestReviewCommentEvent_validCreated",
  "User_validExtraFields",
]);

export function assignableText(): string {
  const line = (l: Literal) =>
    EXTRAS.has(l.name)
      ? `const ${l.name}_value = ${JSON.stringify(l.value)} as const;\nexport const ${l.name}: Settled<${l.type}> = ${l.name}_value;\n`
      : `export const ${l.name}: ${l.type} = ${JSON.stringify(l.value)};\n`;
  return (
    "// Written by test/generators/assignable-literals.ts from spec/examples and the responses' examples in\n" +
    "// spec/openapi.yaml — refresh with `UPDATE_ASSIGNABLE=1 npx vitest run --project core test/generators/assignable.test.ts`.\n" +
    "// The typecheck fails when a plain literal of the contract's shape does not fit its generated type.\n" +
    'import type * as T from "../../generated/types.ts";\n' +
    'import type { operations } from "../../generated/types.ts";\n\n' +
    "/** `T` as a value `as const` has it (read-only all through), for the examples in EXTRAS. */\n" +
    "type Settled<T> = T extends (infer U)[] ? readonly Settled<U>[] : T extends object ? { readonly [K in keyof T]: Settled<T[K]> } : T;\n\n" +
    "// Each schema's valid examples.\n" +
    schemaLiterals().map(line).join("") +
    "\n// Each example of an operation's response body.\n" +
    responseLiterals().map(line).join("")
  );
}
