/**
 * One delivery against the counterpart's published schema of its event and action
 * (`@octokit/webhooks-schemas`, `<event>$<action>`), with Ajv: whether it passes, and if not,
 * what a receiver typed from those schemas would miss — each required field the delivery lacks
 * (`/repository/node_id`) — and every other way it differs (a type, an enum, a field their
 * schema does not allow), kept apart.
 *
 * Ajv alone says that a payload fails, not which alternative of an `anyOf` it meant: with
 * `allErrors` a user object that lacks `node_id` also "fails" the `null` branch beside it. So
 * this walks the schema with the payload, asking Ajv at each place whether the value is valid
 * there, and descends only where it is not; of the alternatives of an `anyOf`/`oneOf` it takes
 * the one the value is closest to (its type admitted, fewest differences).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

const require = createRequire(import.meta.url);
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export interface Difference {
  /** `required`: a field their schema requires that the delivery lacks; else how the value differs. */
  kind: "required" | "type" | "enum" | "const" | "additional" | "format" | "other";
  /** JSON pointer into the delivery, array indexes as `*` (for `required`, the missing field's). */
  path: string;
  /** What their schema expects, for the kinds other than `required`. */
  detail?: string;
  /** Their definition the rule broken belongs to (`user`, `repository`, `issues$opened`). */
  definition: string;
}

export interface DeliveryCheck {
  /** The definition checked against, `push$event`. */
  definition: string;
  valid: boolean;
  differences: Difference[];
}

type Schema = Record<string, unknown>;

const SCHEMA_ID = "https://octokit-webhooks-schemas.invalid/schema.json";

export function octokitSchemasVersion(): string {
  return (require("@octokit/webhooks-schemas/package.json") as { version: string }).version;
}

function escape(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeAdmits(type: unknown, value: unknown): boolean {
  if (type === undefined) return true;
  const types = Array.isArray(type) ? (type as string[]) : [type as string];
  const actual = jsonType(value);
  return types.includes(actual) || (actual === "integer" && types.includes("number"));
}

export class OctokitSchemas {
  readonly document: { definitions: Record<string, Schema> };
  readonly #ajv: Ajv;
  readonly #validators = new Map<string, ValidateFunction>();

  constructor() {
    this.document = JSON.parse(readFileSync(require.resolve("@octokit/webhooks-schemas/schema.json"), "utf8")) as { definitions: Record<string, Schema> };
    // Their schema is draft-07 and carries keywords of its own (tsAdditionalProperties): not strict.
    // A definition a $ref reaches is compiled as a function of its own, not inlined into every
    // validator that reaches it: the check compiles a validator for each place it looks into, and
    // the inlining was half the cross-check's CPU (9.0 s → 4.7 s for the 41 deliveries).
    this.#ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true, inlineRefs: false });
    addFormats(this.#ajv);
    this.#ajv.addSchema({ ...this.document, $id: SCHEMA_ID });
  }

  /** The definition for a delivery: `<event>$<action>`, `<event>$event` for an event without actions, or the event's only one. */
  definitionFor(event: string, action: string | null): string | undefined {
    const names = Object.keys(this.document.definitions).filter((k) => k.startsWith(`${event}$`));
    if (action !== null && names.includes(`${event}$${action}`)) return `${event}$${action}`;
    if (names.includes(`${event}$event`)) return `${event}$event`;
    return action === null && names.length === 1 ? names[0] : undefined;
  }

  check(definition: string, payload: unknown): DeliveryCheck {
    const location = `#/definitions/${escape(definition)}`;
    const valid = this.#validator(location)(payload);
    const differences: Difference[] = [];
    if (!valid) {
      this.#walk(location, payload, "", differences);
      if (differences.length === 0) differences.push({ kind: "other", path: "", definition, detail: this.#message(location) });
    }
    return { definition, valid, differences: unique(differences) };
  }

  #validator(location: string): ValidateFunction {
    let v = this.#validators.get(location);
    if (!v) {
      v = this.#ajv.compile({ $ref: `${SCHEMA_ID}${location}` });
      this.#validators.set(location, v);
    }
    return v;
  }

  #message(location: string): string {
    const e = this.#validator(location).errors?.[0];
    return e ? `${e.keyword}: ${e.message ?? ""}` : "invalid";
  }

  #at(location: string): Schema {
    let s: unknown = this.document;
    for (const raw of location.slice(2).split("/")) {
      const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      s = (s as Record<string, unknown>)[key];
    }
    return s as Schema;
  }

  #walk(location: string, value: unknown, path: string, out: Difference[]): void {
    if (this.#validator(location)(value)) return;
    const s = this.#at(location);
    if (typeof s.$ref === "string") return this.#walk(s.$ref, value, path, out);
    const before = out.length;
    if (Array.isArray(s.allOf)) s.allOf.forEach((_, i) => this.#walk(`${location}/allOf/${i}`, value, path, out));
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const branches = s[keyword];
      if (Array.isArray(branches)) this.#closest(branches.map((_, i) => `${location}/${keyword}/${i}`), value, path, out);
    }
    if (!typeAdmits(s.type, value)) {
      out.push({ kind: "type", path, definition: definitionOf(location), detail: `${JSON.stringify(s.type)}, not ${jsonType(value)}` });
      return;
    }
    if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) out.push({ kind: "enum", path, definition: definitionOf(location), detail: `one of ${JSON.stringify(s.enum)}, not ${JSON.stringify(value)}` });
    if ("const" in s && JSON.stringify(s.const) !== JSON.stringify(value)) out.push({ kind: "const", path, definition: definitionOf(location), detail: `${JSON.stringify(s.const)}, not ${JSON.stringify(value)}` });
    if (jsonType(value) === "object") this.#object(location, s, value as Record<string, unknown>, path, out);
    const items: unknown = s.items;
    if (Array.isArray(value) && items !== null && typeof items === "object" && !Array.isArray(items)) {
      for (const item of value as unknown[]) this.#walk(`${location}/items`, item, `${path}/*`, out);
    }
    if (out.length === before) {
      // Nothing structural: a keyword on this value itself (format, bounds, length).
      const e = this.#validator(location).errors?.[0];
      out.push({ kind: e?.keyword === "format" ? "format" : "other", path, definition: definitionOf(location), detail: e ? `${e.keyword}: ${e.message ?? ""}${e.keyword === "format" ? `, not ${JSON.stringify(value)}` : ""}` : "invalid" });
    }
  }

  #object(location: string, s: Schema, value: Record<string, unknown>, path: string, out: Difference[]): void {
    for (const name of (s.required as string[] | undefined) ?? []) if (!(name in value)) out.push({ kind: "required", path: `${path}/${escape(name)}`, definition: definitionOf(location) });
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    for (const [name, v] of Object.entries(value)) {
      if (Object.hasOwn(properties, name)) this.#walk(`${location}/properties/${escape(name)}`, v, `${path}/${escape(name)}`, out);
      else if (s.additionalProperties === false) out.push({ kind: "additional", path: `${path}/${escape(name)}`, definition: definitionOf(location), detail: "not in their schema, which allows no other field" });
      else if (s.additionalProperties && typeof s.additionalProperties === "object") this.#walk(`${location}/additionalProperties`, v, `${path}/${escape(name)}`, out);
    }
  }

  /** Of several alternatives none of which holds, the differences of the one the value is closest to. */
  #closest(locations: string[], value: unknown, path: string, out: Difference[]): void {
    let best: Difference[] | undefined;
    let bestAdmits = false;
    for (const location of locations) {
      const found: Difference[] = [];
      this.#walk(location, value, path, found);
      if (found.length === 0) return; // one holds (a oneOf held by two fails on Ajv's side only)
      const admits = !found.some((d) => d.kind === "type" && d.path === path);
      if (!best || (admits && !bestAdmits) || (admits === bestAdmits && found.length < best.length)) {
        best = found;
        bestAdmits = admits;
      }
    }
    if (best) out.push(...best);
  }
}

/** The definition a schema location lies in: `#/definitions/user/properties/login` → `user`. */
function definitionOf(location: string): string {
  const m = /^#\/definitions\/([^/]+)/.exec(location);
  return m ? m[1]!.replace(/~1/g, "/").replace(/~0/g, "~") : "";
}

function unique(differences: Difference[]): Difference[] {
  const seen = new Map<string, Difference>();
  for (const d of differences) seen.set(`${d.kind} ${d.path} ${d.detail ?? ""}`, d);
  return [...seen.values()];
}
