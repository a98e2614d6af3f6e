/**
 * The cross-check of our webhook payload schemas against the counterpart's published ones
 * (`@octokit/webhooks-schemas`): for every in-scope event and each of its actions, where we are
 * stricter (schema-strictness.ts). Actions they send that our `action` enum lacks are one `enum`
 * finding on `/action` of the event, with action `*`.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { readSchemaFiles } from "../../generators/schema-files.ts";
import { compare, documentResolver, expand, fileResolver, noFacts, rootFacts, type Finding } from "./schema-strictness.ts";

const root = join(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);

export interface EventFinding extends Finding {
  event: string;
  /** The action compared, `-` for an event without one, `*` for the action enum itself. */
  action: string;
}

export function theirSchemaDocument(): Record<string, unknown> {
  return JSON.parse(readFileSync(require.resolve("@octokit/webhooks-schemas/schema.json"), "utf8")) as Record<string, unknown>;
}

export function crossCheck(compared: string[] = []): EventFinding[] {
  const schemas = readSchemaFiles(join(root, "spec/schemas"));
  const ours = fileResolver(new Map(schemas.map((s) => [s.id, s.schema])));
  const doc = theirSchemaDocument();
  const theirs = documentResolver(doc);
  const definitions = doc.definitions as Record<string, Record<string, unknown>>;
  const findings: EventFinding[] = [];
  for (const file of schemas.filter((s) => s.name.startsWith("webhooks/"))) {
    const event = file.name.slice("webhooks/".length);
    const ourRoot = { s: file.schema, base: file.id };
    const theirActions = Object.keys(definitions)
      .filter((k) => k.startsWith(`${event}$`))
      .map((k) => k.slice(event.length + 1));
    if (!theirActions.length) throw new Error(`@octokit/webhooks-schemas has no definition for ${event}`);
    for (const action of theirActions.sort()) {
      compared.push(`${event}.${action}`);
      const theirRoot = expand(theirs.resolve(`#/definitions/${event}$${action}`, ""), theirs, noFacts);
      const ourAlts = expand(ourRoot, ours, rootFacts(theirRoot, theirs));
      const found = compare(ourAlts, theirRoot, { ours, theirs });
      const actionRefused = found.find((f) => f.pointer === "/action" && f.kind === "enum");
      if (actionRefused) {
        // An action we do not model: one finding for the enum, not the rest of its payload.
        findings.push({ ...actionRefused, event, action: "*", detail: `they also send ${JSON.stringify(action)}` });
        continue;
      }
      findings.push(...found.map((f) => ({ ...f, event, action: action === "event" ? "-" : action })));
    }
  }
  return findings;
}

export function format(f: EventFinding): string {
  return `${f.event}.${f.action} ${f.pointer || "/"} ${f.kind}: ${f.detail}${f.when ? ` (${f.when})` : ""}`;
}
