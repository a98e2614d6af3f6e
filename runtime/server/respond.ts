/**
 * Writing a handler's result: headers (the contract's, then `extraHeaders`), the body serialized
 * for its media type, and, with `validateResponses`, a check of all of it against the contract
 * first. A result that breaks the contract is never sent: the client gets a 500 in the error shape
 * naming the problem, and the failure is reported, so a test fails loudly instead of passing on a
 * response a real client would choke on.
 */
import type { FastifyReply } from "fastify";
import { errorBody } from "./errors.ts";
import { chooseMediaType, serialize } from "./serialize.ts";
import type { AnyResult, HeaderValue, ResponseValidationFailure, RouteSpec } from "./types.ts";

export type ValidateResponse = (
  operationId: never,
  status: number | string,
  body: unknown,
  options?: { headers?: Record<string, string | string[] | undefined>; mediaType?: string },
) => { valid: true; value: unknown } | { valid: false; errors: { path: string; message: string }[] };

export interface RespondContext {
  validate: ValidateResponse | undefined;
  /** Lower-cased names of the headers supplied outside the handlers. */
  supplied: ReadonlySet<string>;
  documentationUrl: string;
  report: (failure: ResponseValidationFailure) => void;
}

function headerText(value: HeaderValue): string | string[] {
  return Array.isArray(value) ? value.map(String) : String(value);
}

/** The defined headers of `headers`, as text, appended to `out` (a loop: this runs on every response). */
function headerEntries(headers: AnyResult["headers"], out: [string, string | string[]][] = []): [string, string | string[]][] {
  if (!headers) return out;
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) out.push([name, headerText(value as HeaderValue)]);
  }
  return out;
}

/** Merge what hooks already set on the reply with the result's headers, names lower-cased. */
function allHeaders(reply: FastifyReply, own: [string, string | string[]][], contentType: string | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value : String(value);
  }
  for (const [name, value] of own) out[name.toLowerCase()] = value;
  if (contentType) out["content-type"] = contentType;
  return out;
}

function isResult(value: unknown): value is AnyResult {
  return value !== null && typeof value === "object" && Number.isInteger((value as AnyResult).status);
}

/** Send `result`; returns a failure description instead when validation refuses it. */
export async function respond(reply: FastifyReply, route: RouteSpec, result: unknown, context: RespondContext): Promise<void> {
  if (!isResult(result)) {
    return refuse(reply, route, context, result, [{ path: "", message: "the handler did not return a {status, headers, body} result" }]);
  }
  const spec = route.responses[String(result.status)];
  const hasBody = result.body !== undefined && result.status !== 204 && result.status !== 304;
  const mediaType = hasBody ? chooseMediaType(spec, result.mediaType) : undefined;
  let serialized;
  try {
    serialized = hasBody && mediaType ? serialize(result.body, mediaType, spec, result.serializedBody) : undefined;
  } catch (error) {
    return refuse(reply, route, context, result.status, [{ path: "/body", message: (error as Error).message }]);
  }
  const ownHeaders = headerEntries(result.extraHeaders, headerEntries(result.headers));
  if (context.validate) {
    const headers = allHeaders(reply, ownHeaders, serialized?.contentType);
    // The value is what gets checked, so the bytes sent in its place must be that value.
    if (serialized && result.serializedBody !== undefined && result.serializedBody.toString() !== JSON.stringify(result.body)) {
      return refuse(reply, route, context, result.status, [{ path: "/body", message: "serializedBody is not the JSON text of body" }]);
    }
    // JSON is checked as the value (what JSON.stringify wrote); other formats as the exact text sent.
    const checked = serialized && !/json$/.test(mediaType ?? "") ? serialized.payload.toString() : hasBody ? result.body : undefined;
    const verdict = context.validate(route.operationId as never, result.status, checked, { headers, mediaType });
    if (!verdict.valid) {
      const errors = verdict.errors.filter((e) => !(e.message === "is required" && context.supplied.has(e.path.replace(/^\/headers\//, ""))));
      if (errors.length > 0) return refuse(reply, route, context, result.status, errors);
    }
  }
  reply.code(result.status);
  for (const [name, value] of ownHeaders) reply.header(name, value);
  if (serialized) {
    reply.header("content-type", serialized.contentType);
    await reply.send(serialized.payload);
  } else {
    await reply.send();
  }
}

async function refuse(reply: FastifyReply, route: RouteSpec, context: RespondContext, status: unknown, errors: ResponseValidationFailure["errors"]): Promise<void> {
  context.report({ operationId: route.operationId, status, errors });
  const detail = errors.map((e) => `${e.path || "/"} ${e.message}`).join("; ");
  // Without validateResponses this is production: report the detail, tell the client nothing.
  const message = context.validate ? `Response Validation Failed: ${route.operationId} ${String(status)}: ${detail}` : "Internal Server Error";
  await reply.code(500).header("content-type", "application/json; charset=utf-8").send(JSON.stringify(errorBody(message, context.documentationUrl)));
}
