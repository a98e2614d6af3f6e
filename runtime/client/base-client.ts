/**
 * The request pipeline every generated method runs through: build the URL and body from the
 * operation's metadata, add credentials and a stored ETag, send, and then apply the protocol
 * rules the contract states — repeat once with a one-time password on a two-factor 401, wait for
 * the reset and repeat once on a rate-limited 403, serve the stored body on a 304 — before
 * decoding the answer into the response envelope. Statuses the operation does not declare are
 * thrown as ResponseError; declared ones (404, 422, …) are returned, typed, to the caller.
 */
import { applyAuth, credentialKey, otpChallenge } from "./auth.ts";
import { systemClock, type Clock } from "./clock.ts";
import { ResponseError, RequestError } from "./errors.ts";
import { MemoryEtagStore, type EtagStore } from "./etag-cache.ts";
import { buildUrl, decodeBody, decodeHeaders, encodeBody, responseKey } from "./http.ts";
import { isRateLimited, readRateLimit, waitForReset, type RateLimitState } from "./rate-limit.ts";
import type { ApiResponse, Auth, CallOptions, ClientOptions, OperationMeta, OperationTable, RequestParts } from "./types.ts";

const DEFAULT_MAX_WAIT_MS = 60_000;

export class BaseClient {
  readonly baseUrl: string;
  readonly authUrl: string;
  readonly clock: Clock;
  readonly #table: OperationTable;
  readonly #options: ClientOptions;
  readonly #fetch: typeof fetch;
  readonly #etags: EtagStore | undefined;
  #rateLimit: RateLimitState | undefined;

  constructor(table: OperationTable, options: ClientOptions) {
    if (!options?.baseUrl) throw new TypeError("ServiceClient: baseUrl is required");
    this.#table = table;
    this.#options = options;
    this.baseUrl = options.baseUrl;
    this.authUrl = options.authUrl ?? options.baseUrl;
    this.clock = options.clock ?? systemClock;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#etags = options.etagStore === false ? undefined : (options.etagStore ?? new MemoryEtagStore());
  }

  /** The last rate-limit state the API reported (X-RateLimit-Limit/Remaining/Reset). */
  get rateLimit(): Readonly<RateLimitState> | undefined {
    return this.#rateLimit;
  }

  /** Metadata of one operation; throws for an unknown id. */
  operation(operationId: string): OperationMeta {
    const meta = Object.prototype.hasOwnProperty.call(this.#table, operationId) ? this.#table[operationId] : undefined;
    if (!meta) throw new RequestError(`unknown operation ${JSON.stringify(operationId)}`);
    return meta;
  }

  /** Every operationId the client knows, sorted. */
  operationIds(): string[] {
    return Object.keys(this.#table).sort();
  }

  hostUrl(meta: OperationMeta): string {
    return meta.host === "auth" ? this.authUrl : this.baseUrl;
  }

  /** Call an operation by id. Generated methods are thin, typed wrappers around this. */
  async call(operationId: string, parts: RequestParts = {}, options: CallOptions = {}): Promise<ApiResponse> {
    const meta = this.operation(operationId);
    return this.send(operationId, meta, buildUrl(this.hostUrl(meta), operationId, meta, parts), parts, options);
  }

  /**
   * Call an operation at a URL the service handed out (a `Link` target). The URL must stay on
   * the operation's host: credentials are never sent to an origin the caller did not configure.
   */
  async callUrl(operationId: string, url: string | URL, parts: RequestParts = {}, options: CallOptions = {}): Promise<ApiResponse> {
    const meta = this.operation(operationId);
    const target = new URL(url, this.hostUrl(meta));
    if (target.origin !== new URL(this.hostUrl(meta)).origin) {
      throw new RequestError(`${operationId}: refusing to follow ${target.origin} (configured host is ${new URL(this.hostUrl(meta)).origin})`);
    }
    return this.send(operationId, meta, target, { headers: parts.headers }, options);
  }

  private async send(operationId: string, meta: OperationMeta, url: URL, parts: RequestParts, options: CallOptions): Promise<ApiResponse> {
    const headers = new Headers(this.#options.headers);
    if (Object.values(meta.responses).some((r) => r.media.some((m) => m.endsWith("json")))) headers.set("accept", "application/json");
    for (const [name, value] of Object.entries(parts.headers ?? {})) if (value !== undefined) headers.set(name, String(value));
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    const encoded = encodeBody(operationId, meta, parts);
    if (encoded) headers.set("content-type", encoded.contentType);

    // Credentials go to the API host only; the web host's pages and token exchange take none.
    const auth: Auth | null | undefined = meta.host === "api" ? (options.auth === undefined ? this.#options.auth : options.auth) : null;
    const conditional = meta.method === "GET" && "304" in meta.responses && this.#etags !== undefined && !options.noCache;
    // Both taken before credentials are added: a query token must not reach cache keys or errors.
    const cacheKey = `${credentialKey(auth)} ${url.href}`;
    const shownUrl = url.href;
    applyAuth(auth, url, headers);
    const entry = conditional && !headers.has("if-none-match") ? await this.#etags!.get(cacheKey) : undefined;
    if (entry) headers.set("if-none-match", entry.etag);

    const redirect: RequestRedirect = Object.keys(meta.responses).some((s) => s.startsWith("3") && s !== "304") ? "manual" : "follow";
    const init = (): RequestInit => ({ method: meta.method, headers, body: encoded?.body, redirect, signal: options.signal });

    let response = await this.#fetch(url, init());
    this.#noteRateLimit(response.headers);
    let otpTried = false;
    let rateLimitTried = false;
    for (;;) {
      const otp = otpChallenge(response.status, response.headers);
      if (otp && !otpTried && auth?.type === "basic" && auth.otp) {
        otpTried = true;
        await response.arrayBuffer();
        headers.set("x-service-otp", String(await auth.otp({ method: otp, operationId })));
      } else if (isRateLimited(response.status, response.headers) && !rateLimitTried && this.#options.rateLimit?.retry !== false) {
        const wait = waitForReset(response.headers, this.clock.now());
        if (wait === undefined || wait > (this.#options.rateLimit?.maxWaitMs ?? DEFAULT_MAX_WAIT_MS)) break;
        rateLimitTried = true;
        await response.arrayBuffer();
        await this.clock.sleep(wait, options.signal);
        options.signal?.throwIfAborted();
      } else break;
      response = await this.#fetch(url, init());
      this.#noteRateLimit(response.headers);
    }

    const result = await this.#decode(operationId, meta, shownUrl, response);
    // A 304 has no body of its own; the stored one comes back in `cached` (see NotModified).
    if (result.status === 304) return { ...result, cached: entry?.body } as ApiResponse;
    const etag = response.headers.get("etag");
    if (conditional && result.status === 200 && etag) await this.#etags!.set(cacheKey, { etag, body: result.body, headers: result.headers });
    return result;
  }

  async #decode(operationId: string, meta: OperationMeta, url: string, response: Response): Promise<ApiResponse> {
    const text = await response.text();
    const key = responseKey(response.status, meta.responses);
    const base = { status: response.status, rawHeaders: response.headers, url, notModified: response.status === 304 };
    let body: unknown;
    try {
      body = decodeBody(response.headers.get("content-type"), text);
    } catch {
      throw new ResponseError(operationId, { ...base, body: text }, key !== undefined);
    }
    if (key === undefined) throw new ResponseError(operationId, { ...base, body }, false);
    return { ...base, body, headers: decodeHeaders(response.headers, meta.responses[key]!.headers) };
  }

  #noteRateLimit(headers: Headers): void {
    this.#rateLimit = readRateLimit(headers) ?? this.#rateLimit;
  }
}
