/**
 * Wire encoding for the client: expanding a path template and query into a URL, encoding a
 * request body for its media type, and decoding a response body by its `Content-Type` (JSON,
 * URL-encoded form, XML, text). Pure functions, so each is unit-tested on its own.
 */
import { XMLParser } from "fast-xml-parser";
import { RequestError } from "./errors.ts";
import type { HeaderKind, OperationMeta, RequestParts } from "./types.ts";

export function bareMediaType(contentType: string | null | undefined): string {
  return String(contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Join a host URL and a path without doubling or dropping the slash. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, "") + "/" + path.replace(/^\/+/, "");
}

export function expandPath(operationId: string, template: string, values: RequestParts["path"]): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values?.[name];
    if (value === undefined || value === null || value === "") throw new RequestError(`${operationId}: path parameter "${name}" is required`);
    // Encode everything, slashes included: "owner/repo" in one parameter must not add a segment.
    return encodeURIComponent(String(value));
  });
}

export function buildUrl(hostUrl: string, operationId: string, meta: OperationMeta, parts: RequestParts): URL {
  const url = new URL(joinUrl(hostUrl, expandPath(operationId, meta.path, parts.path)));
  for (const [name, value] of Object.entries(parts.query ?? {})) {
    if (value === undefined || value === null) continue;
    // Arrays go comma-joined: the contract's only list-valued query values are scopes.
    url.searchParams.set(name, Array.isArray(value) ? value.join(",") : String(value));
  }
  return url;
}

export interface EncodedBody {
  body: string;
  contentType: string;
}

export function encodeBody(operationId: string, meta: OperationMeta, parts: RequestParts): EncodedBody | undefined {
  if (parts.body === undefined) return undefined;
  const mediaType = parts.mediaType ?? meta.requestMedia[0];
  if (!mediaType || !meta.requestMedia.includes(mediaType)) {
    throw new RequestError(`${operationId}: cannot send a body as ${JSON.stringify(mediaType ?? null)} (accepts ${meta.requestMedia.join(", ") || "no body"})`);
  }
  if (mediaType === "application/x-www-form-urlencoded") {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(parts.body as Record<string, unknown>)) if (v !== undefined && v !== null) form.set(k, String(v));
    return { body: form.toString(), contentType: mediaType };
  }
  if (mediaType.endsWith("json")) return { body: JSON.stringify(parts.body), contentType: mediaType };
  return { body: String(parts.body), contentType: mediaType };
}

// parseTagValue off: "0123" tokens and scopes must stay strings, not become numbers.
const xml = new XMLParser({ parseTagValue: false, ignoreDeclaration: true, ignoreAttributes: true });

/**
 * Decode a body by its media type. XML documents become their root element's children
 * (`<OAuth><scope>…</scope></OAuth>` → `{ scope }`), the shape the JSON form of the same answer has.
 */
export function decodeBody(contentType: string | null, text: string): unknown {
  if (text === "") return undefined;
  const media = bareMediaType(contentType);
  if (media === "application/json" || media.endsWith("+json")) return JSON.parse(text);
  if (media === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  if (media === "application/xml" || media === "text/xml" || media.endsWith("+xml")) {
    const doc = xml.parse(text) as Record<string, unknown>;
    const roots = Object.values(doc);
    return roots.length === 1 ? (roots[0] === "" ? {} : roots[0]) : doc;
  }
  return text;
}

/** Declared headers under their spec spelling, integers as numbers; absent headers are left out. */
export function decodeHeaders(headers: Headers, declared: Readonly<Record<string, HeaderKind>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(declared)) {
    const raw = headers.get(name);
    if (raw === null) continue;
    out[name] = kind === "number" && /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : raw;
  }
  return out;
}

/** The spec's response key for a status: exact ("404"), then range ("4XX"), then "default". */
export function responseKey(status: number, responses: Readonly<Record<string, unknown>>): string | undefined {
  const exact = String(status);
  if (exact in responses) return exact;
  const range = `${exact[0]}XX`;
  if (range in responses) return range;
  return "default" in responses ? "default" : undefined;
}
