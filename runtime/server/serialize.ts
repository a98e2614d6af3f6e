/**
 * Response bodies by media type. Handlers return values (objects, or strings for HTML); the wire
 * format is chosen here from the result's `mediaType`, so the token endpoint's one result type can
 * be sent as a form, JSON or XML, as the client's `Accept` header asks.
 *
 * XML goes through fast-xml-parser's XMLBuilder (which escapes text), with the root element the
 * contract names (`xml.name`); child elements follow the body's key order.
 */
import { XMLBuilder } from "fast-xml-parser";
import type { ResponseSpec } from "./types.ts";

export interface Serialized {
  contentType: string;
  payload: string | Buffer;
}

const xml = new XMLBuilder({ ignoreAttributes: false, format: false });

function formValue(key: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v) => formValue(key, v));
  if (typeof value === "object") throw new TypeError(`form field ${JSON.stringify(key)} is an object; a URL-encoded form holds only scalar values`);
  return [String(value)];
}

function toForm(body: unknown): string {
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new TypeError("a form body must be an object");
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) for (const v of formValue(key, value)) params.append(key, v);
  return params.toString();
}

function toXml(body: unknown, root: string): string {
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new TypeError("an XML body must be an object");
  return xml.build({ "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" }, [root]: body }) as string;
}

function isText(mediaType: string): boolean {
  return mediaType.startsWith("text/");
}

/** The media type to send: the result's choice, else the contract's only (or JSON) one. */
export function chooseMediaType(spec: ResponseSpec | undefined, requested: string | undefined): string | undefined {
  if (requested) return requested;
  const types = spec?.mediaTypes ?? [];
  return types.includes("application/json") ? "application/json" : types[0];
}

/** Serialize a result body; throws a TypeError when the body cannot be written in that format. */
export function serialize(body: unknown, mediaType: string, spec: ResponseSpec | undefined, serializedBody?: string | Buffer): Serialized {
  if (mediaType === "application/json" || mediaType.endsWith("+json")) {
    // A handler serving cached bytes (the feed pages) saves the stringify: for a 40 KB page it
    // costs more than everything else the request does.
    return { contentType: `${mediaType}; charset=utf-8`, payload: serializedBody ?? JSON.stringify(body) };
  }
  if (mediaType === "application/x-www-form-urlencoded") return { contentType: mediaType, payload: toForm(body) };
  if (mediaType === "application/xml" || mediaType === "text/xml") {
    return { contentType: `${mediaType}; charset=utf-8`, payload: toXml(body, spec?.xmlRoot ?? "response") };
  }
  if (typeof body === "string") return { contentType: isText(mediaType) ? `${mediaType}; charset=utf-8` : mediaType, payload: body };
  if (Buffer.isBuffer(body)) return { contentType: mediaType, payload: body };
  throw new TypeError(`a ${mediaType} body must be a string`);
}
