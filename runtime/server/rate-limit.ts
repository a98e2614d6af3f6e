/**
 * The contract's rate limit for a server built on the stubs: `rateLimit(app, options)` adds two
 * Fastify hooks that count each caller's requests in a fixed one-hour window kept in memory, set
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (the window's end, epoch
 * seconds) on every answer, and refuse a caller past its limit with 403 `{message,
 * documentation_url}` (DESIGN "Rate limits"). A 304 does not count.
 *
 * When a request is counted: a read (GET, HEAD) once answered, since only then is it known
 * whether it ended in a 304 — an exhausted caller's conditional read goes through to learn that,
 * and is refused if it did not; any other request as it is admitted, before its handler runs, so
 * a refused write changes nothing. Pass `RATE_LIMIT_HEADERS` as the routes' `suppliedHeaders`,
 * so handlers need not return the headers these hooks set.
 *
 * One process, one counter per key: servers behind a load balancer need a shared store (the
 * reference server counts in PostgreSQL for that), which this helper does not do.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { DEFAULT_DOCUMENTATION_URL, errorBody } from "./errors.ts";

/** The headers the hooks set: give them to `registerRoutes` as `suppliedHeaders`. */
export const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"] as const;
export type RateLimitHeader = (typeof RATE_LIMIT_HEADERS)[number];

export const RATE_LIMIT_WINDOW_MS = 3600_000;

export interface RateLimitOptions {
  /** The caller a request counts against; by default its address (`request.ip`). */
  key?: (request: FastifyRequest) => string;
  /**
   * Requests per window for that caller: a number, or per request (5000 for an authenticated
   * user, 60 otherwise, as the contract says). Default 60.
   */
  limit?: number | ((request: FastifyRequest) => number);
  /** The refusal's message; default `API rate limit exceeded for <key>.` */
  message?: (key: string) => string;
  documentationUrl?: string;
  /** The clock (milliseconds), injectable in tests. */
  now?: () => number;
  /** Length of a window; default one hour. */
  windowMs?: number;
}

export interface RateState {
  limit: number;
  /** Requests counted in the current window. */
  used: number;
  /** Epoch seconds at which the window ends. */
  reset: number;
}

/** What `rateLimit` returns: the counters, to read (tests, an admin page) or to reset. */
export interface RateLimitCounters {
  peek(key: string, limit: number): RateState;
  reset(): void;
}

interface Window {
  start: number;
  used: number;
}

interface Pending {
  key: string;
  limit: number;
  /** Counted on admission (not a read): onSend must not count it again. */
  counted: boolean;
  /** Refused by the limit in onRequest: neither counted nor refused again. */
  refused: boolean;
}

const isRead = (method: string) => method === "GET" || method === "HEAD";
const remaining = (s: RateState) => Math.max(0, s.limit - s.used);

export function rateLimit(app: FastifyInstance, options: RateLimitOptions = {}): RateLimitCounters {
  const now = options.now ?? Date.now;
  const windowMs = options.windowMs ?? RATE_LIMIT_WINDOW_MS;
  const keyOf = options.key ?? ((request: FastifyRequest) => request.ip);
  const limitOf = typeof options.limit === "function" ? options.limit : () => (options.limit as number | undefined) ?? 60;
  const message = options.message ?? ((key: string) => `API rate limit exceeded for ${key}.`);
  const documentationUrl = options.documentationUrl ?? DEFAULT_DOCUMENTATION_URL;
  const windows = new Map<string, Window>();
  // Per request, without declaring properties on Fastify's request type for the application.
  const pending = new WeakMap<FastifyRequest, Pending>();
  let lastSweep = now();

  function current(key: string): Window {
    const t = now();
    // Forget finished windows now and then, so one counter per client address cannot grow forever.
    if (t - lastSweep >= windowMs) {
      for (const [k, w] of windows) if (t - w.start >= windowMs) windows.delete(k);
      lastSweep = t;
    }
    let w = windows.get(key);
    if (!w || t - w.start >= windowMs) windows.set(key, (w = { start: t, used: 0 }));
    return w;
  }
  const stateOf = (w: Window, limit: number): RateState => ({ limit, used: w.used, reset: Math.ceil((w.start + windowMs) / 1000) });
  const peek = (key: string, limit: number) => stateOf(current(key), limit);
  const consume = (key: string, limit: number) => {
    const w = current(key);
    w.used += 1;
    return stateOf(w, limit);
  };

  function setHeaders(reply: FastifyReply, state: RateState): void {
    reply.header("X-RateLimit-Limit", state.limit);
    reply.header("X-RateLimit-Remaining", remaining(state));
    reply.header("X-RateLimit-Reset", state.reset);
  }

  app.addHook("onRequest", (request, reply, done) => {
    const key = keyOf(request);
    const limit = limitOf(request);
    const entry: Pending = { key, limit, counted: false, refused: false };
    pending.set(request, entry);
    const state = peek(key, limit);
    // A conditional read may still end in a 304, which does not count: onSend decides.
    const mayEndIn304 = isRead(request.method) && request.headers["if-none-match"] !== undefined;
    if (remaining(state) === 0 && !mayEndIn304) {
      entry.refused = true;
      setHeaders(reply, state);
      reply.code(403).send(errorBody(message(key), documentationUrl));
      return;
    }
    if (!isRead(request.method)) {
      entry.counted = true;
      consume(key, limit);
    }
    done();
  });

  app.addHook("onSend", (request, reply, payload, done) => {
    const entry = pending.get(request);
    // A request Fastify answered before onRequest ran (a malformed URL): counted as its caller's.
    const key = entry?.key ?? keyOf(request);
    const limit = entry?.limit ?? limitOf(request);
    let state = peek(key, limit);
    if (entry?.refused || entry?.counted || reply.statusCode === 304) {
      setHeaders(reply, state);
      return done(null, payload);
    }
    if (remaining(state) === 0) {
      // Exhausted, and the conditional read did not end in a 304: refused after all.
      setHeaders(reply, state);
      reply.code(403).header("content-type", "application/json; charset=utf-8").removeHeader("etag");
      return done(null, JSON.stringify(errorBody(message(key), documentationUrl)));
    }
    state = consume(key, limit);
    setHeaders(reply, state);
    done(null, payload);
  });

  return { peek, reset: () => windows.clear() };
}
