/**
 * The poll lane: a repeated poll answered as the request arrives, before Fastify routes it — the
 * 304 of a conditional poll, and the page itself again (a poll without `If-None-Match`, or with a
 * tag that is not the page's). A poller that obeys `X-Poll-Interval` mostly gets 304s, and for a
 * 304 Fastify's own work (routing, request and reply objects, hook runners, reply headers) costs
 * about as much as the socket write itself; for a 200 the write of the page is the floor's half
 * of the cost and Fastify's, the hooks' and the runtime's work the rest (bench/README.md, "Feeds").
 *
 * It answers only when the full path's answer is already known and cannot differ:
 * - the exact URL, query included, was served by the feed handler to the same viewer (the same
 *   token's authorization, or anonymous) under the current events version (NotModifiedIndex):
 *   routing, validation, scopes and visibility were decided there, and a new event keys every
 *   entry out;
 * - the caller is anonymous or sends `Authorization: token …` (or `bearer`) whose lookup has
 *   settled under the current tokens version (ViewerCache.cached): a revoked token never is;
 * - for a 304, the request's `If-None-Match` hits that page's ETag; for a 200 (GET only), the
 *   page cache still holds that very page (same ETag) under the current version;
 * - the rate counters and the events version are known in this process (PGlite). A 304 does not
 *   count, so the counters are only read, for the `X-RateLimit-*` headers; a 200 counts, and a
 *   caller with none left goes on to the full path (its 403).
 * Anything else — PostgreSQL, a token not yet looked up, Basic or `access_token` credentials, a
 * forwarded request when proxies are trusted (its client address is Fastify's to work out), a
 * URL never served to this viewer, a HEAD that is not a 304 — goes on to Fastify, where
 * feed-shortcut.ts and the full path answer it. The headers are the ones the handler, the
 * runtime and the API hooks set, in their order, built by the same helpers
 * (test/reference/feeds-poll-lane.test.ts compares them header for header and byte for byte).
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Database } from "../db/database.ts";
import { ifNoneMatchHits } from "../feeds/etag.ts";
import { NotModifiedIndex, type Served } from "../feeds/not-modified.ts";
import { eventsVersionNow } from "../feeds/version.ts";
import type { FeedServing } from "../handlers/feeds.ts";
import { callerLimit, callerRateKey, remaining, type RateLimiter, type RateState } from "./rate-limit.ts";
import { scopesHeader } from "./scope-headers.ts";
import { ANONYMOUS, tokenInHeader, type Viewer } from "./viewer.ts";
import type { ViewerCache } from "./viewer-cache.ts";
import { isForwarded } from "./trusted-proxies.ts";

type SyncRates = NonNullable<RateLimiter["sync"]>;

/** As runtime/server sends a JSON body (serialize.ts). */
const JSON_TYPE = "application/json; charset=utf-8";

export interface PollLane {
  /** Answer the request here if it can be; true when answered (the caller must then leave it alone). */
  answer(req: IncomingMessage, res: ServerResponse): boolean;
  /** How many requests it answered: polls that never reached Fastify. */
  readonly answered: number;
}

export interface PollLaneOptions {
  db: Database;
  serving: FeedServing;
  viewers: ViewerCache;
  limiter: RateLimiter;
  /** Proxies are trusted (ServerOptions.trustProxy): leave requests with X-Forwarded-For to Fastify. */
  forwarded?: boolean;
}

export function pollLane({ db, serving, viewers, limiter, forwarded = false }: PollLaneOptions): PollLane {
  const rates = limiter.sync;
  let answered = 0;

  /** The rate-limit headers, appended in the order the API hooks set them. */
  function rateHeaders(headers: OutgoingHttpHeaders, rate: RateState): void {
    headers["x-ratelimit-limit"] = rate.limit;
    headers["x-ratelimit-remaining"] = remaining(rate);
    headers["x-ratelimit-reset"] = rate.reset;
  }

  /** The 304: not counted, so the counter is only read. */
  function notModified(req: IncomingMessage, res: ServerResponse, viewer: Viewer, served: Served, sync: SyncRates): void {
    const userId = viewer.user?.id;
    const rate = sync.peek(callerRateKey(userId, req.socket.remoteAddress), callerLimit(userId, limiter.limits));
    const headers: OutgoingHttpHeaders = { etag: served.etag, "x-poll-interval": serving.poll.hit() };
    if (viewer.authorization) {
      headers["x-oauth-scopes"] = scopesHeader(viewer);
      headers["x-accepted-oauth-scopes"] = served.accepted;
    }
    rateHeaders(headers, rate);
    res.writeHead(304, headers);
    res.end();
  }

  /**
   * The page again, as the full path sends it (headers in the order the handler, the runtime and
   * the API hooks set them; Fastify's `content-length` last). A 200 counts: it is counted here,
   * and a caller with nothing left is left to the full path, which refuses it (403).
   */
  function page(req: IncomingMessage, res: ServerResponse, viewer: Viewer, served: Served, version: string, sync: SyncRates): boolean {
    const cached = serving.cache.peek(served.feed, version, served.page);
    if (cached === undefined || cached.etag !== served.etag) return false;
    const userId = viewer.user?.id;
    const key = callerRateKey(userId, req.socket.remoteAddress);
    const limit = callerLimit(userId, limiter.limits);
    if (remaining(sync.peek(key, limit)) === 0) return false;
    const rate = sync.consume(key, limit);
    const headers: OutgoingHttpHeaders = { etag: cached.etag, "x-poll-interval": serving.poll.hit() };
    if (cached.link !== undefined) headers.link = cached.link;
    headers["content-type"] = JSON_TYPE;
    if (viewer.authorization) {
      headers["x-oauth-scopes"] = scopesHeader(viewer);
      headers["x-accepted-oauth-scopes"] = served.accepted;
    }
    rateHeaders(headers, rate);
    headers["content-length"] = cached.bytes.length;
    res.writeHead(200, headers);
    res.end(cached.bytes);
    return true;
  }

  /** Answer as the full path would for `viewer`, if the lane can; true when answered. */
  function answerAs(req: IncomingMessage, res: ServerResponse, viewer: Viewer, method: string, ifNoneMatch: string | undefined, sync: SyncRates): boolean {
    const key = NotModifiedIndex.key(viewer, req.url ?? "");
    const version = key === undefined ? undefined : eventsVersionNow(db);
    const served = version === undefined ? undefined : serving.notModified.served(key!, version);
    if (served === undefined) return false;
    if (ifNoneMatch !== undefined && ifNoneMatchHits(ifNoneMatch, served.etag)) notModified(req, res, viewer, served, sync);
    else if (method !== "GET" || !page(req, res, viewer, served, version!, sync)) return false;
    answered += 1;
    return true;
  }

  return {
    get answered() {
      return answered;
    },
    answer(req, res) {
      const method = req.method;
      const ifNoneMatch = req.headers["if-none-match"];
      // A 304 for GET and HEAD; the page only for GET (a HEAD that gets a 200 goes the full way).
      if (rates === undefined || (method !== "GET" && (method !== "HEAD" || ifNoneMatch === undefined))) return false;
      if (forwarded && isForwarded(req)) return false;
      const header = req.headers.authorization;
      if (header === undefined) return answerAs(req, res, ANONYMOUS, method, ifNoneMatch, rates);
      const token = tokenInHeader(header);
      if (token === undefined) return false;
      const digest = viewers.digest(token);
      const viewer = viewers.cachedByDigest(digest);
      if (viewer !== undefined && answerAs(req, res, viewer, method, ifNoneMatch, rates)) return true;
      // The hooks look the same token up for this request: one SHA-256 a request is enough.
      viewers.passOn(req, token, digest);
      return false;
    },
  };
}
