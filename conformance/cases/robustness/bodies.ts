/**
 * Bad request bodies derived from the operation's body schema: a minimal body built from the
 * schema (required properties, examples, `.invalid` URLs) is broken one way at a time — the wrong
 * root type, a required property dropped, a property of the wrong type, a huge or deeply nested
 * value — and kept only when the contract's own validator refuses it, so nothing sent could be
 * a legitimate request that creates something on the target. Raw bodies are bad by construction
 * and written so that even a lenient parser cannot make a valid request of them: JSON cut short
 * or malformed (never valid JSON followed by garbage, which some decoders accept), another
 * content type with a body that is not JSON, an empty body where `{}` is itself refused, and a
 * `__proto__` key over an otherwise refused body.
 */
import fc from "fast-check";
import { validateRequest } from "../../../generated/validators/index.js";
import type { OperationModel, Schema } from "./operations.ts";
import { wrongTypeValue } from "./arbitraries.ts";

export interface BodyInput {
  label: string;
  contentType: string;
  text: string;
}

const JSON_TYPE = "application/json";
/** Reserved by RFC 2606: a URL here never reaches anybody. */
export const NOWHERE_URL = "https://robustness.invalid/hook";

/** The first alternative of a schema with `anyOf`/`oneOf` and no own properties. */
function branch(schema: Schema): Schema {
  if (schema.properties || schema.type) return schema;
  const first = (schema.anyOf ?? schema.oneOf)?.[0] as Schema | undefined;
  return first ? branch(first) : schema;
}

/** A value for `schema` built from its const, enum, example or type. */
function minimalValue(schema: Schema, depth = 0): unknown {
  const s = branch(schema);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = [s.type].flat()[0];
  if (type === "string" && s.format === "uri") return NOWHERE_URL;
  if (s.example !== undefined && typeof s.example !== "object") return s.example;
  switch (type) {
    case "string":
      return "robustness";
    case "integer":
    case "number":
      return typeof s.minimum === "number" ? s.minimum : 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return depth > 4 ? {} : minimalObject(s, depth + 1);
    default:
      return s.properties ? minimalObject(s, depth + 1) : null;
  }
}

function minimalObject(schema: Schema, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of (schema.required as string[] | undefined) ?? []) out[name] = minimalValue(schema.properties?.[name] ?? {}, depth);
  return out;
}

/** The body every mutation starts from: the required properties with plausible values. */
export function baseBody(op: OperationModel): Record<string, unknown> {
  return op.body ? minimalObject(branch(op.body.schema)) : {};
}

/** The contract refuses this body for `op` (with the path parameters the case sends). */
export function refused(op: OperationModel, path: Record<string, string>, body: unknown): boolean {
  return !validateRequest(op.operationId as never, { path, query: {}, headers: {}, body, mediaType: op.body?.mediaTypes.includes(JSON_TYPE) ? JSON_TYPE : op.body?.mediaTypes[0] }).valid;
}

const DEEP_MARKER = "__robustness_deep__";

function show(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…(${text.length} chars)` : text;
}

/** A structured mutation: a JSON value (before the deep-nesting substitution) and what was done. */
interface Mutation {
  label: string;
  value: unknown;
  /** Replace the marker string with arrays nested this deep. */
  deep?: number;
}

function textOf(m: Mutation): string {
  const text = JSON.stringify(m.value);
  if (!m.deep) return text;
  return text.replace(JSON.stringify(DEEP_MARKER), `${"[".repeat(m.deep)}${"]".repeat(m.deep)}`);
}

function parsedOf(m: Mutation): unknown {
  return m.deep ? JSON.parse(textOf(m)) : m.value;
}

/** Bodies the contract refuses, derived from the body schema; empty when the operation has no JSON body. */
export function structuredBodies(op: OperationModel, path: Record<string, string>): fc.Arbitrary<BodyInput> | undefined {
  if (!op.body || !op.body.mediaTypes.some((m) => m === JSON_TYPE)) return undefined;
  const schema = branch(op.body.schema);
  const base = baseBody(op);
  const properties = Object.keys((schema.properties as Record<string, Schema> | undefined) ?? {});
  const required = ((schema.required as string[] | undefined) ?? []).filter((r) => r in base);
  const propSchema = (name: string): Schema => (schema.properties as Record<string, Schema>)[name] ?? {};
  const mutations: fc.Arbitrary<Mutation>[] = [
    fc.constantFrom<unknown>([], [base], 0, -1.5, "robustness", null, true, false).map((value) => ({ label: `body is ${show(value)}`, value })),
  ];
  if (required.length > 0) {
    mutations.push(
      fc.constantFrom(...required).map((name) => {
        const { [name]: _dropped, ...rest } = base;
        return { label: `required "${name}" left out`, value: rest };
      }),
    );
  }
  if (properties.length > 0) {
    const name = fc.constantFrom(...properties);
    mutations.push(
      name.chain((n) => wrongTypeValue(propSchema(n)).map((v) => ({ label: `"${n}" is ${show(v)}`, value: { ...base, [n]: v } }))),
      fc.tuple(name, fc.integer({ min: 64 * 1024, max: 256 * 1024 })).map(([n, size]) => {
        const huge = "robustness ".repeat(Math.ceil(size / 11)).slice(0, size);
        return { label: `"${n}" is a ${size}-character string`, value: { ...base, [n]: huge } };
      }),
      fc.tuple(name, fc.integer({ min: 256, max: 4096 })).map(([n, depth]) => ({ label: `"${n}" is arrays nested ${depth} deep`, value: { ...base, [n]: DEEP_MARKER }, deep: depth })),
    );
  }
  return fc
    .oneof(...mutations)
    .filter((m) => refused(op, path, parsedOf(m)))
    .map((m) => ({ label: m.label, contentType: JSON_TYPE, text: textOf(m) }));
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const MALFORMED_JSON = ["{", "{'name': 'web'}", "{name: web}", "[1,]", '{"a":}', "{,}", "nul", "\u0000", '{"a":1,,}', '"unterminated', "{]", "\ufeff{", "NaN"];

const OTHER_TYPES: BodyInput[] = [
  { label: "text/plain body", contentType: "text/plain", text: "name=web robustness" },
  { label: "XML body", contentType: "application/xml", text: "<hook><name>web</name></hook>" },
  {
    label: "multipart body",
    contentType: "multipart/form-data; boundary=robustness",
    text: '--robustness\r\nContent-Disposition: form-data; name="name"\r\n\r\nweb\r\n--robustness--\r\n',
  },
  { label: "octet-stream body", contentType: "application/octet-stream", text: "\u0001\u0002robustness" },
  { label: "form body", contentType: "application/x-www-form-urlencoded", text: "name=web&config=robustness&config=again" },
];

/** Bodies bad whatever parser reads them; `refusedSample` is a structurally refused body to wrap. */
export function rawBodies(op: OperationModel, path: Record<string, string>, refusedSample: string | undefined): fc.Arbitrary<BodyInput> | undefined {
  if (!op.body) return undefined;
  const accepts = (type: string) => op.body!.mediaTypes.includes(type.split(";")[0]!);
  const choices: fc.Arbitrary<BodyInput>[] = [fc.constantFrom(...MALFORMED_JSON).map((text) => ({ label: `malformed JSON ${show(text)}`, contentType: JSON_TYPE, text }))];
  const baseText = JSON.stringify(baseBody(op));
  if (baseText.length > 2) {
    choices.push(
      fc
        .integer({ min: 1, max: baseText.length - 1 })
        .map((n) => baseText.slice(0, n))
        .filter((t) => !parses(t))
        .map((text) => ({ label: `JSON cut short ${show(text)}`, contentType: JSON_TYPE, text })),
    );
  }
  const others = OTHER_TYPES.filter((b) => !accepts(b.contentType));
  if (others.length > 0) choices.push(fc.constantFrom(...others));
  if (refused(op, path, {})) choices.push(fc.constant({ label: "empty body", contentType: JSON_TYPE, text: "" }));
  if (refusedSample?.startsWith("{") && refusedSample.length > 2) {
    choices.push(fc.constant({ label: "__proto__ key over a refused body", contentType: JSON_TYPE, text: `{"__proto__":{"robustness":true},${refusedSample.slice(1)}` }));
  }
  if (accepts("application/x-www-form-urlencoded")) {
    choices.push(fc.constantFrom("client_id=a&client_id=b", "%zz=%zz", "=&=&", "client_id[]=x", "a".repeat(70_000)).map((text) => ({ label: `form body ${show(text)}`, contentType: "application/x-www-form-urlencoded", text })));
  }
  return fc.oneof(...choices);
}
