/**
 * Request bodies. Fastify only collects the bytes (one catch-all content-type parser), and the
 * route decodes them here, where it knows the operation: which media types the contract accepts,
 * so an unsupported type is a 415 and a malformed JSON body a 400 in the contract's error shape.
 *
 * - JSON: `JSON.parse` on strict UTF-8; a `__proto__` key is refused like a syntax error, as
 *   Fastify's own parser does, so no parsed body can carry a prototype.
 * - Form (`application/x-www-form-urlencoded`): `URLSearchParams`. A key sent twice becomes an
 *   array, which the contract's string fields reject with 422 `invalid` (RFC 6749 §3.1: OAuth
 *   parameters "MUST NOT be included more than once"); silently keeping the first or last value
 *   would hide parameter pollution.
 * - A request without `Content-Type`, or with a `+json` vendor type, is read as the operation's
 *   JSON body when it has one.
 * - An operation that takes no body ignores one (`ignoreBodyType`), but not past the body limit.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

export type Decoded = { ok: true; mediaType: string | undefined; value: unknown } | { ok: false; status: 400 | 415; message: string };

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function bareMediaType(contentType: string | undefined): string {
  return String(contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Accept every body as raw bytes; the route decides what they mean. */
export function installBodyCollector(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit }, (_request, body, done) => done(null, body));
}

/**
 * The `onRequest` hook of an operation that takes no body (a DELETE, a ping, a token reset): the
 * body is ignored, whatever its media type (spec/DECISIONS.md, D-REQ-BODY-NOT-TAKEN). Fastify
 * refuses a malformed `Content-Type` (`text`, `a/b/c`, an empty one) with 415 before any route
 * runs, so the hook drops the header: the bytes are then collected like a body without one — up
 * to the body limit, 413 past it, so an ignored body is not an unbounded one — and never decoded.
 */
export function ignoreBodyType(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  delete request.raw.headers["content-type"];
  done();
}

function parseJson(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => {
    if (key === "__proto__") throw new SyntaxError("__proto__ is not allowed");
    return value;
  });
}

function parseForm(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    const previous = out[key];
    out[key] = previous === undefined ? value : ([] as string[]).concat(previous, value);
  }
  return { ...out };
}

function isJson(mediaType: string): boolean {
  return mediaType === "application/json" || mediaType.endsWith("+json");
}

/**
 * Decode the collected bytes for an operation that accepts `accepted` media types. No bytes (or
 * no body at all) decode to `undefined`; whether that is allowed is the validator's call.
 */
export function decodeBody(raw: unknown, contentType: string | undefined, accepted: readonly string[]): Decoded {
  const bytes = Buffer.isBuffer(raw) ? raw : undefined;
  const requested = bareMediaType(contentType);
  if (!bytes || bytes.length === 0) return { ok: true, mediaType: requested || undefined, value: undefined };
  // No Content-Type, or a vendor JSON type (`application/vnd.service.v3+json`), reads as the operation's JSON.
  const mediaType = (!requested || isJson(requested)) && accepted.includes("application/json") ? "application/json" : requested;
  if (!accepted.includes(mediaType)) {
    const expected = accepted.join(", ");
    return { ok: false, status: 415, message: `Unsupported Media Type: send the body as ${expected}` };
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, status: 400, message: isJson(mediaType) ? "Problems parsing JSON" : "Body is not valid UTF-8" };
  }
  if (isJson(mediaType)) {
    try {
      return { ok: true, mediaType, value: parseJson(text) };
    } catch {
      return { ok: false, status: 400, message: "Problems parsing JSON" };
    }
  }
  if (mediaType === "application/x-www-form-urlencoded") return { ok: true, mediaType, value: parseForm(text) };
  return { ok: true, mediaType, value: text };
}
