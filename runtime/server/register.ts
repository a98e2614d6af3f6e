/**
 * Registering a generated route table on a Fastify instance. Each route decodes its body (see
 * body.ts), validates path, query, headers and body with the generated validators (Fastify's own
 * schema validation is not used: the validators are the one source of truth), calls the handler
 * with typed, coerced values, and writes its result (respond.ts).
 *
 * Refusals, in the contract's error shape: a path parameter the contract does not allow → 404
 * (`/hooks/abc` names no resource, as the service answers); a bad query, header or body value →
 * 422 `Validation Failed` (the validators refuse a number not written in decimal, `0x10`); unparseable JSON → 400 `Problems parsing JSON`; a body in a media type
 * the operation does not accept → 415; a body over `bodyLimit` → 413 (also on an operation that
 * takes no body, which otherwise ignores one, whatever its `Content-Type`); an unknown path, and a known
 * path with a method it does not have → 404 (the service answers 404, not 405); an operation
 * without a handler → 501; a handler that throws → 500 without any detail. `invalidRequest`
 * handlers may answer an operation's refusals their own way (the OAuth pages have no JSON 422).
 * A request to an operation that cannot be called anonymously, carrying no credential at all, is
 * refused with 401 `Requires authentication` before its body is read or anything is validated.
 * An answer given before the request's body was read lets the client finish writing it, up to
 * `discardLimit` (linger.ts).
 */
import { STATUS_CODES } from "node:http";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { decodeBody, ignoreBodyType, installBodyCollector } from "./body.ts";
import { DEFAULT_DISCARD_LIMIT, installLingeringRead } from "./linger.ts";
import { DEFAULT_DOCUMENTATION_URL, errorBody, requestValidationFailed } from "./errors.ts";
import { respond, type RespondContext, type ValidateResponse } from "./respond.ts";
import type {
  AnyHandler,
  AnyInvalidRequestHandler,
  AnyRequest,
  ErrorBody,
  Host,
  RawRequest,
  RegisterOptions,
  RequestFailure,
  RouteSpec,
} from "./types.ts";

export type ValidateRequest = (
  operationId: never,
  request?: { path?: Record<string, unknown>; query?: Record<string, unknown>; headers?: Record<string, string | string[] | undefined>; body?: unknown; mediaType?: string },
) => { valid: true; value: { path: Record<string, unknown>; query: Record<string, unknown>; headers: Record<string, string>; body: unknown } } | { valid: false; errors: { path: string; message: string }[] };

/** What the generated `registerRoutes` hands over: the routes and the generated validators. */
export interface RouteTable {
  routes: readonly RouteSpec[];
  validateRequest: ValidateRequest;
  validateResponse: ValidateResponse;
}

export interface RuntimeOptions extends RegisterOptions<Host, string> {
  invalidRequest?: Readonly<Record<string, AnyInvalidRequestHandler | undefined>>;
}

const DEFAULT_BODY_LIMIT = 1024 * 1024;

function rawOf(request: FastifyRequest): RawRequest {
  return {
    ip: request.ip,
    method: request.method,
    url: request.url,
    headers: request.headers,
    query: (request.query ?? {}) as Record<string, unknown>,
    authorization: request.headers.authorization,
    request,
  };
}

async function sendError(reply: FastifyReply, status: number, body: ErrorBody): Promise<void> {
  await reply.code(status).header("content-type", "application/json; charset=utf-8").send(JSON.stringify(body));
}

function checkHandlers(table: RouteTable, handlers: Readonly<Record<string, unknown>>, host: Host): void {
  const byId = new Map(table.routes.map((r) => [r.operationId, r]));
  for (const [id, handler] of Object.entries(handlers)) {
    if (handler === undefined) continue;
    const route = byId.get(id);
    if (!route) throw new Error(`registerRoutes: the contract has no operation "${id}"`);
    if (route.host !== host) throw new Error(`registerRoutes: "${id}" is served by the ${route.host} host, not by ${host}`);
    if (typeof handler !== "function") throw new Error(`registerRoutes: the handler of "${id}" is not a function`);
  }
}

// The per-request helpers below are plain loops over small objects: they run on every request
// of every operation, and the array pipelines they replace allocated several arrays each.

/** Pick the declared query parameters and declared headers (under their contract spelling). */
function typedInput(route: RouteSpec, value: { query: Record<string, unknown>; headers: Record<string, string> }) {
  const query: Record<string, unknown> = {};
  for (const name of route.query) if (value.query[name] !== undefined) query[name] = value.query[name];
  const headers: Record<string, string> = {};
  for (const [lower, name] of route.headers) if (value.headers[lower] !== undefined) headers[name] = value.headers[lower]!;
  return { query, headers };
}

/**
 * The request headers the validators need: the ones the operation declares, and the content
 * type (which picks the body's media type). The others are neither validated nor handed to the
 * handler as typed input (`raw.headers` still has them all).
 */
function declaredHeaders(route: RouteSpec, headers: FastifyRequest["headers"]): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [lower] of route.headers) if (headers[lower] !== undefined) out[lower] = headers[lower];
  if (headers["content-type"] !== undefined) out["content-type"] = headers["content-type"];
  return out;
}

function hasNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\0");
  if (!Array.isArray(value)) return false;
  for (const item of value) if (hasNul(item)) return true;
  return false;
}

/**
 * Where a parameter holds a NUL character: a path parameter, or the named query parameter. Only
 * the query parameters the operation declares: the others are ignored whatever they hold
 * (spec/DECISIONS.md, D-REQ-UNKNOWN-QUERY-PARAMETERS), so `?x=%00` is no more an error than `?x=1`.
 */
function nulParameter(route: RouteSpec, request: FastifyRequest): { in: "path" } | { in: "query"; name: string } | undefined {
  const params = (request.params ?? {}) as Record<string, unknown>;
  for (const name in params) if (hasNul(params[name])) return { in: "path" };
  const query = (request.query ?? {}) as Record<string, unknown>;
  for (const name of route.query) if (hasNul(query[name])) return { in: "query", name };
  return undefined;
}

/**
 * Whether the request carries a credential in one of the places its operation takes them. Only
 * presence: whether it is good is the application's call (a hook, the handler). A request with
 * none is refused before its body is read, let alone validated: an anonymous 60 KB body once
 * held a server for seconds in validation before its handler answered 401 (issue 41).
 */
function presentsCredentials(route: RouteSpec, request: FastifyRequest): boolean {
  for (const [place, name] of route.credentials ?? []) {
    if (place === "header" && request.headers[name] !== undefined && request.headers[name] !== "") return true;
    if (place === "query" && ((request.query ?? {}) as Record<string, unknown>)[name] !== undefined) return true;
    if (place === "cookie" && (request.headers.cookie ?? "").split(";").some((c) => c.trim().startsWith(`${name}=`))) return true;
  }
  return false;
}

export function registerRouteTable(app: FastifyInstance, table: RouteTable, handlers: Readonly<Record<string, AnyHandler | undefined>>, options: RuntimeOptions): void {
  checkHandlers(table, handlers, options.host);
  const documentationUrl = options.documentationUrl ?? DEFAULT_DOCUMENTATION_URL;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const routes = table.routes.filter((r) => r.host === options.host);
  const byRoute = new Map(routes.map((r) => [`${r.method} ${r.url}`, r]));
  const context: RespondContext = {
    validate: options.validateResponses ? table.validateResponse : undefined,
    supplied: new Set((options.suppliedHeaders ?? []).map((h) => h.toLowerCase())),
    documentationUrl,
    report: options.onResponseValidationError ?? ((failure) => app.log.error({ failure }, "response breaks the contract")),
  };
  const reportHandlerError = options.onHandlerError ?? ((error: unknown, operationId: string) => app.log.error({ err: error, operationId }, "handler failed"));

  /** A refusal: the operation's `invalidRequest` handler answers it if there is one. */
  async function refuse(route: RouteSpec, request: FastifyRequest, reply: FastifyReply, failure: RequestFailure): Promise<void> {
    const custom = options.invalidRequest?.[route.operationId];
    if (!custom) return sendError(reply, failure.status, failure.body);
    try {
      return await respond(reply, route, await custom(failure, rawOf(request)), context);
    } catch (error) {
      reportHandlerError(error, route.operationId);
      return sendError(reply, 500, errorBody("Internal Server Error", documentationUrl));
    }
  }

  /** A refusal of the request itself (no per-request closure: this runs on every request). */
  function fail(route: RouteSpec, request: FastifyRequest, reply: FastifyReply, status: RequestFailure["status"], body: ErrorBody): Promise<void> {
    return refuse(route, request, reply, { operationId: route.operationId, status, body });
  }

  async function handle(route: RouteSpec, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    let body: unknown;
    let mediaType: string | undefined;
    if (route.body) {
      const decoded = decodeBody(request.body, request.headers["content-type"], route.body.mediaTypes);
      if (!decoded.ok) return fail(route, request, reply, decoded.status, errorBody(decoded.message, documentationUrl));
      ({ value: body, mediaType } = decoded);
    }
    // No name or id contains NUL, and databases refuse it in text: in a path it names nothing, in a query it is invalid.
    const nul = nulParameter(route, request);
    if (nul?.in === "path") return fail(route, request, reply, 404, errorBody("Not Found", documentationUrl));
    if (nul) return fail(route, request, reply, 422, requestValidationFailed(route, [{ path: `/query/${nul.name}`, message: "must not contain NUL" }], documentationUrl));
    const verdict = table.validateRequest(route.operationId as never, {
      path: request.params as Record<string, unknown>,
      query: (request.query ?? {}) as Record<string, unknown>,
      headers: declaredHeaders(route, request.headers),
      body,
      mediaType,
    });
    if (!verdict.valid) {
      if (verdict.errors.some((e) => e.path.startsWith("/path/"))) return fail(route, request, reply, 404, errorBody("Not Found", documentationUrl));
      return fail(route, request, reply, 422, requestValidationFailed(route, verdict.errors, documentationUrl));
    }
    const handler = handlers[route.operationId];
    if (!handler) return sendError(reply, 501, errorBody(`Not Implemented: ${route.operationId}`, documentationUrl));
    const input: AnyRequest = {
      operationId: route.operationId,
      params: verdict.value.path,
      ...typedInput(route, verdict.value),
      body: verdict.value.body,
      mediaType: verdict.value.body === undefined ? undefined : mediaType ?? route.body?.mediaTypes[0],
      raw: rawOf(request),
    };
    let result: unknown;
    try {
      result = await handler(input);
    } catch (error) {
      reportHandlerError(error, route.operationId);
      return sendError(reply, 500, errorBody("Internal Server Error", documentationUrl));
    }
    return respond(reply, route, result, context);
  }

  installBodyCollector(app, bodyLimit);
  // Answers given before the body was read (413, or a hook's 401) still let the client finish writing it.
  installLingeringRead(app, options.discardLimit ?? DEFAULT_DISCARD_LIMIT);
  app.setNotFoundHandler((_request, reply) => sendError(reply, 404, errorBody("Not Found", documentationUrl)));
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    const route = byRoute.get(`${request.method === "HEAD" ? "GET" : request.method} ${request.routeOptions.url}`);
    if (status >= 400 && status < 500) {
      const message = status === 413 ? "Payload Too Large" : STATUS_CODES[status] ?? "Bad Request";
      if (route && (status === 400 || status === 413 || status === 415)) return refuse(route, request, reply, { operationId: route.operationId, status, body: errorBody(message, documentationUrl) });
      return sendError(reply, status, errorBody(message, documentationUrl));
    }
    reportHandlerError(error, route?.operationId ?? "");
    return sendError(reply, 500, errorBody("Internal Server Error", documentationUrl));
  });
  /** 401 before the body is read, for an operation that cannot be called anonymously and a request with no credential. */
  function requireCredentials(route: RouteSpec) {
    return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
      if (presentsCredentials(route, request)) return undefined;
      await sendError(reply, 401, errorBody("Requires authentication", documentationUrl));
      return reply;
    };
  }

  for (const route of routes) {
    const onRequest = [];
    if (options.refuseAnonymous !== false && route.credentials && route.credentials.length > 0) onRequest.push(requireCredentials(route));
    // GET bodies are never read (Fastify treats GET as bodyless), so only the other methods need it.
    if (!route.body && route.method !== "GET") onRequest.push(ignoreBodyType);
    app.route({ method: route.method, url: route.url, bodyLimit, ...(onRequest.length > 0 ? { onRequest } : {}), handler: (request, reply) => handle(route, request, reply) });
  }
}
