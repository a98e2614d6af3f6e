/**
 * The type names client generators derive from the contract, and where two of them clash.
 *
 * Generators run with their defaults name a type from more than the component's key: kubb and
 * swagger-typescript-api name a schema file's type after the file (`oauth-token-error.json` →
 * `OauthTokenError`), a file's `title` is a name too, and orval, hey-api and kubb build names by
 * pattern — `<Response component>Response`, `<Operation>Response`, `<Schema><Property>` for an
 * object written inline in a property. Two clashes break generated code:
 * - two names differing only in letter case (`OAuthTokenError` beside `OauthTokenError`): two
 *   files a case-insensitive file system cannot hold apart, and tsc's TS1149 wherever both are
 *   imported;
 * - one name derived by a pattern from one thing and taken by another (orval's
 *   `HookDeliveryDetailResponse`, both the response component `HookDeliveryDetail` and the
 *   inline `response` property of the schema `HookDeliveryDetail`): tsc's TS2300.
 * Names derived from one thing (a component and the file it is a `$ref` to) are one name.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";

export interface ContractNames {
  /** The OpenAPI document (parsed). */
  doc: { paths?: Record<string, Record<string, unknown>>; webhooks?: Record<string, Record<string, unknown>>; components?: Record<string, Record<string, unknown>> };
  /** Schema file (path relative to the schemas folder, `/` separators) → its parsed content. */
  files: Map<string, Record<string, unknown>>;
}

/** A name, what it names (one thing: `schema:X`, `file:x.json`…) and how it was derived. */
interface Derived {
  name: string;
  thing: string;
  how: string;
  byPattern: boolean;
}

/** `oauth-token-error` → `OauthTokenError`, `page_build` → `PageBuild`, `listPublicEvents` → `ListPublicEvents`. */
export function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");
}

const isRef = (v: unknown): v is { $ref: string } => typeof v === "object" && v !== null && typeof (v as { $ref?: unknown }).$ref === "string";
/** An object schema written in place (not a `$ref`): generators give it a type of its own. */
const isInlineObject = (v: unknown): boolean => typeof v === "object" && v !== null && !isRef(v) && ("properties" in v || (v as { type?: unknown }).type === "object");

/** Every spec/schemas file, by its path relative to the folder. */
export function readSchemaFolder(dir: string): Map<string, Record<string, unknown>> {
  const files = new Map<string, Record<string, unknown>>();
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".json")) files.set(relative(dir, path).split(sep).join("/"), JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>);
    }
  };
  walk(dir);
  return files;
}

function derive({ doc, files }: ContractNames): Derived[] {
  const out: Derived[] = [];
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  // A file a component is only a `$ref` to is that component.
  const fileOwner = new Map<string, string>();
  for (const [name, schema] of Object.entries(schemas)) {
    if (isRef(schema) && !schema.$ref.includes("#")) fileOwner.set(schema.$ref.replace(/^(\.\/)?schemas\//, ""), name);
  }
  const thingOfFile = (file: string) => (fileOwner.has(file) ? `schema:${fileOwner.get(file)}` : `file:${file}`);
  for (const name of Object.keys(schemas)) out.push({ name, thing: `schema:${name}`, how: `components.schemas.${name}`, byPattern: false });
  for (const [file, content] of files) {
    out.push({ name: pascal(basename(file, ".json")), thing: thingOfFile(file), how: `the file schemas/${file}`, byPattern: false });
    if (typeof content.title === "string") out.push({ name: content.title, thing: thingOfFile(file), how: `the title of schemas/${file}`, byPattern: false });
  }
  for (const name of Object.keys(doc.components?.responses ?? {})) out.push({ name: `${name}Response`, thing: `response:${name}`, how: `components.responses.${name} + "Response"`, byPattern: true });
  for (const group of [doc.paths ?? {}, doc.webhooks ?? {}]) {
    for (const item of Object.values(group)) {
      for (const op of Object.values(item)) {
        const id = (op as { operationId?: unknown } | null)?.operationId;
        if (typeof id === "string") out.push({ name: `${pascal(id)}Response`, thing: `operation:${id}`, how: `operationId ${id} + "Response"`, byPattern: true });
      }
    }
  }
  // `<Schema><Property>` for an object written inline in a property, in a component or a file.
  const inlineProperties = (owner: string, thing: string, schema: unknown) => {
    const properties = (schema as { properties?: Record<string, unknown> } | null)?.properties ?? {};
    for (const [prop, sub] of Object.entries(properties)) {
      if (isInlineObject(sub)) out.push({ name: `${owner}${pascal(prop)}`, thing: `${thing}.${prop}`, how: `${owner}.properties.${prop} (an object written inline)`, byPattern: true });
    }
  };
  for (const [name, schema] of Object.entries(schemas)) {
    if (isRef(schema) && !schema.$ref.includes("#")) {
      const file = files.get(schema.$ref.replace(/^(\.\/)?schemas\//, ""));
      if (file) inlineProperties(name, `schema:${name}`, file);
    } else inlineProperties(name, `schema:${name}`, schema);
  }
  return out;
}

/**
 * Whether one name given to several things breaks a generator: two names built by pattern, or a
 * `…Response` built from a response or an operation beside anything else. A property's inline
 * object named like a component (`Hook.config` → `HookConfig`) is not one: the generators that
 * build that name check it against the components and rename theirs (orval: `HookConfigProperty`).
 */
function clashing(same: Derived[]): boolean {
  const byPattern = new Set(same.filter((d) => d.byPattern).map((d) => d.thing));
  return byPattern.size > 1 || [...byPattern].some((thing) => thing.startsWith("response:") || thing.startsWith("operation:"));
}

/** Each clash, as one line naming the names and where they come from; empty when there is none. */
export function nameClashes(contract: ContractNames): string[] {
  const derived = derive(contract);
  const clashes: string[] = [];
  const byLower = new Map<string, Derived[]>();
  for (const d of derived) byLower.set(d.name.toLowerCase(), [...(byLower.get(d.name.toLowerCase()) ?? []), d]);
  for (const group of byLower.values()) {
    const spellings = [...new Set(group.map((d) => d.name))];
    if (spellings.length > 1) clashes.push(`differ only in case: ${spellings.map((s) => `${s} (${group.filter((d) => d.name === s).map((d) => d.how).join(", ")})`).join(" / ")}`);
    for (const name of spellings) {
      const same = group.filter((d) => d.name === name);
      const things = new Set(same.map((d) => d.thing));
      if (things.size > 1 && clashing(same)) clashes.push(`${name} names ${things.size} things: ${same.map((d) => d.how).join(", ")}`);
    }
  }
  return clashes;
}
