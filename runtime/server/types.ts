/**
 * The shapes shared by the server runtime and the generated stubs: the route table the
 * generator emits (one RouteSpec per operation), what a handler receives (its typed request plus
 * the raw request information) and returns (a status/headers/body result), and the options of
 * `registerRoutes`. The per-operation types themselves are generated; these are the generic parts.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { FastifyRequest } from "fastify";

export type Host = "api" | "auth";
export type HttpMethod = "DELETE" | "GET" | "PATCH" | "POST" | "PUT";

/** What the runtime needs to know about one response status of an operation. */
export interface ResponseSpec {
  /** Media types the contract lists for this status, in the contract's (sorted) order; empty = no body. */
  mediaTypes: readonly string[];
  /** Root element name for `application/xml` bodies (from the schema's `xml.name`). */
  xmlRoot?: string;
}

/** One operation as the runtime routes it. Generated into `generated/server/routes.ts`. */
export interface RouteSpec {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI template, `/repos/{owner}/{repo}/events`. */
  path: string;
  /** Fastify form, `/repos/:owner/:repo/events`. */
  url: string;
  host: Host;
  /** `resource` of 422 errors about this operation's input (`Hook`, `Event`, …). */
  resource: string;
  /** The security schemes that may authorize the call, sorted; "" when it may be anonymous. */
  security: readonly string[];
  /**
   * Where a request may carry its credentials (`["header", "authorization"]`, `["query",
   * "access_token"]`); empty, or absent in a route table generated before it existed, when the
   * operation may be called anonymously. A request carrying none is refused with 401 before its
   * body is read or validated.
   */
  credentials?: readonly (readonly ["header" | "query" | "cookie", string])[];
  /** The scopes the operation accepts (`x-accepted-scopes`, the `X-Accepted-OAuth-Scopes` value), sorted. */
  acceptedScopes: readonly string[];
  /** Declared query parameter names. */
  query: readonly string[];
  /** Declared header parameters: [lower-case name, name as the contract spells it]. */
  headers: readonly (readonly [string, string])[];
  body: { required: boolean; mediaTypes: readonly string[] } | null;
  responses: Readonly<Record<string, ResponseSpec>>;
}

/** Everything about the HTTP request that is not a declared parameter. */
export interface RawRequest {
  /** Client address (Fastify's `request.ip`, which honours `trustProxy`). */
  ip: string;
  method: string;
  /** Path and query string as received. */
  url: string;
  /** All request headers, names lower-cased. */
  headers: IncomingHttpHeaders;
  /** The whole parsed query string, including undeclared keys such as `access_token`. */
  query: Readonly<Record<string, unknown>>;
  /** The `Authorization` header, when sent. */
  authorization: string | undefined;
  /** The Fastify request itself, for what the above does not cover (cookies, sockets, logging). */
  request: FastifyRequest;
}

/** The part of every generated request type that does not depend on the operation. */
export interface RequestBase {
  raw: RawRequest;
}

export type HeaderValue = string | number | boolean | readonly string[];

/** Response headers the contract does not list (`Set-Cookie`, `Cache-Control`, …); written after the contract's. */
export type ExtraHeaders = Readonly<Record<string, HeaderValue | undefined>>;

/** The error body of the contract (`Error`, and `ValidationError` for 422). */
export interface ErrorBody {
  message: string;
  documentation_url?: string;
  errors?: ValidationErrorItem[];
}

export interface ValidationErrorItem {
  resource: string;
  field: string;
  code: "missing" | "missing_field" | "invalid" | "already_exists" | "custom";
  message?: string;
}

/** A request the runtime refused before the handler ran. */
export interface RequestFailure {
  operationId: string;
  status: 400 | 404 | 413 | 415 | 422;
  body: ErrorBody;
}

/** A handler result the contract does not allow (only checked with `validateResponses`). */
export interface ResponseValidationFailure {
  operationId: string;
  status: unknown;
  errors: { path: string; message: string }[];
}

/**
 * Headers named in `S` are supplied outside the handler (a Fastify hook calling `reply.header()`,
 * typically the rate-limit headers every API response carries), so handlers may leave them out.
 */
type Loosen<H, S extends string> = Omit<H, S> & Partial<Pick<H, Extract<keyof H, S>>>;
type HeadersOf<R> = R extends { headers?: infer H } ? NonNullable<H> : never;
type LoosenOne<R, S extends string> = Omit<R, "headers"> &
  ({} extends Loosen<HeadersOf<R>, S> ? { headers?: Loosen<HeadersOf<R>, S> } : { headers: Loosen<HeadersOf<R>, S> });

/** A generated response union, with the supplied headers `S` made optional in every member. */
export type HandlerResult<R, S extends string = never> = [S] extends [never] ? R : R extends unknown ? LoosenOne<R, S> : never;

export type Handler<Req, Res, S extends string = never> = (request: Req) => HandlerResult<Res, S> | Promise<HandlerResult<Res, S>>;

/** Options of `registerRoutes` / `registerAllRoutes`. */
export interface RegisterOptions<H extends Host, S extends string = never> {
  /** Which listener this instance is: the API host or the web (OAuth) host. */
  host: H;
  /**
   * Check every handler result against the contract; a result that breaks it becomes a 500 in the
   * error shape and is reported to `onResponseValidationError`. On in tests and development.
   */
  validateResponses?: boolean;
  /** Response headers set outside the handlers (see `HandlerResult`); not required of handlers. */
  suppliedHeaders?: readonly S[];
  /**
   * Refuse with 401 `Requires authentication`, before its body is read or anything is validated,
   * a request that carries no credential to an operation that cannot be called anonymously (on by
   * default). Off, such a request is validated and reaches its handler, which must refuse it: a
   * stranger's body is then validated first.
   */
  refuseAnonymous?: boolean;
  /** Largest accepted request body in bytes (default 1 MiB); larger bodies get 413. */
  bodyLimit?: number;
  /**
   * After an answer given before the body was read (413, a hook's 401), how many more bytes of
   * that body are read and discarded so a client that writes before it reads gets the answer
   * (default 8 MiB); past it the connection is closed (linger.ts).
   */
  discardLimit?: number;
  /** `documentation_url` of the errors the runtime writes. */
  documentationUrl?: string;
  /** Called with each response-validation failure (default: `app.log.error`). */
  onResponseValidationError?: (failure: ResponseValidationFailure) => void;
  /** Called with each error a handler throws (default: `app.log.error`); the client gets a bare 500. */
  onHandlerError?: (error: unknown, operationId: string) => void;
}

/** A result as the runtime sees it, before typing narrows it per operation. */
export interface AnyResult {
  status: number;
  headers?: Readonly<Record<string, HeaderValue | undefined>>;
  extraHeaders?: ExtraHeaders;
  body?: unknown;
  mediaType?: string;
  /**
   * JSON only: `body` already serialized (the UTF-8 of JSON.stringify(body)), sent as is. A Buffer
   * also saves encoding the text on every send, which for a large page is most of the cost.
   */
  serializedBody?: string | Buffer;
}

export interface AnyRequest extends RequestBase {
  operationId: string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
  mediaType: string | undefined;
}

export type AnyHandler = (request: AnyRequest) => AnyResult | Promise<AnyResult>;
export type AnyInvalidRequestHandler = (failure: RequestFailure, raw: RawRequest) => AnyResult | Promise<AnyResult>;
