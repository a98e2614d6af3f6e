/**
 * Shapes shared by the hand-written client runtime and the generated, per-operation part: the
 * operation metadata table the generator emits, the options a client is built with, and the
 * response envelope every call resolves to.
 */
import type { Clock } from "./clock.ts";
import type { EtagStore } from "./etag-cache.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type Host = "api" | "auth";

/** How a declared response header is read off the wire (the schema's type). */
export type HeaderKind = "number" | "string";

export interface ResponseMeta {
  /** Media types the spec declares for this status; empty when the response has no body. */
  media: readonly string[];
  /** Declared headers, spec spelling → how to decode the value. */
  headers: Readonly<Record<string, HeaderKind>>;
}

/** What the runtime needs to know about one operation; emitted by the generator, one per operationId. */
export interface OperationMeta {
  method: HttpMethod;
  /** OpenAPI path template, `/repos/{owner}/{repo}/events`. */
  path: string;
  host: Host;
  pathParams: readonly string[];
  queryParams: readonly string[];
  headerParams: readonly string[];
  /** Request media types, the default first. */
  requestMedia: readonly string[];
  /** Keyed by the spec's status key: "200", "304", "2XX", "default". */
  responses: Readonly<Record<string, ResponseMeta>>;
}

export type OperationTable = Readonly<Record<string, OperationMeta>>;

/** The request argument of a generated method; the generated types narrow every part. */
export interface RequestParts {
  path?: Record<string, string | number> | undefined;
  query?: Record<string, string | number | boolean | readonly (string | number)[] | undefined> | undefined;
  headers?: Record<string, string | number | undefined> | undefined;
  body?: unknown;
  /** Which of the operation's request media types to send `body` as; defaults to the first. */
  mediaType?: string | undefined;
}

export type Auth =
  /** `Authorization: token <token>` (the preferred form). */
  | { type: "token"; token: string }
  /** `?access_token=<token>` on every request. */
  | { type: "query"; token: string }
  /**
   * Basic authentication. When the account has two-factor authentication, the service answers
   * 401 with `X-Service-OTP: required; app|sms`; `otp` is then asked for a code and the request
   * is repeated once with `X-Service-OTP: <code>`.
   */
  | { type: "basic"; username: string; password: string; otp?: (request: OtpRequest) => string | Promise<string> };

export interface OtpRequest {
  /** Where the user finds the code: an authenticator app, or an SMS the service just sent. */
  method: "app" | "sms";
  operationId: string;
}

export interface RateLimitOptions {
  /** Wait for the reset and retry once when a 403 says the limit is exhausted. Default true. */
  retry?: boolean;
  /** Longest wait for a reset, in ms; a later reset returns the 403 as it is. Default 60 000. */
  maxWaitMs?: number;
}

export interface ClientOptions {
  /** API host, scheme + host + port (+ prefix), no trailing slash needed. */
  baseUrl: string;
  /** Web host for the OAuth pages and the token exchange. Defaults to baseUrl. */
  authUrl?: string;
  auth?: Auth;
  /** Injected for tests and other runtimes; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** ETag store for conditional GETs; `false` turns conditional requests off. Default: in memory. */
  etagStore?: EtagStore | false;
  rateLimit?: RateLimitOptions;
  /** Time source and sleeper (polling, rate-limit waits); tests inject a fake one. */
  clock?: Clock;
  /** Headers sent on every request (User-Agent, Accept version, …). */
  headers?: Record<string, string>;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Extra request headers for this call only (e.g. `Accept`). */
  headers?: Record<string, string>;
  /** Override the client's auth for this call; `null` sends the call anonymously. */
  auth?: Auth | null;
  /** Skip the ETag cache for this call. */
  noCache?: boolean;
}

/**
 * The envelope every call resolves to. The generated types narrow it to a union over the
 * operation's declared statuses, so `switch (r.status)` narrows `body` and `headers`.
 */
export interface ApiResponse<S = number, H = Record<string, unknown>, B = unknown> {
  status: S;
  /** Declared headers under their spec spelling, decoded (`X-RateLimit-Remaining` is a number). */
  headers: H;
  body: B;
  /** True only for a 304: nothing changed since the cached response. */
  notModified: boolean;
  /** Every header as received. */
  rawHeaders: Headers;
  /** The URL that was requested (after path and query expansion). */
  url: string;
}

/** A response with a body as the spec declares it (every status but 304). */
export interface Reply<S, H, B> extends ApiResponse<S, H, B> {
  notModified: false;
}

/**
 * A 304: nothing changed since the response whose ETag was sent. It has no body of its own;
 * `cached` is the stored 200 body when the client's ETag store sent the ETag.
 */
export interface NotModified<H, B> extends ApiResponse<304, H, undefined> {
  notModified: true;
  cached: B | undefined;
}
