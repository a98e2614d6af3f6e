/**
 * The poll lane: a repeated conditional poll answered with its 304 as the request arrives, before
 * Fastify routes it. A poller that obeys `X-Poll-Interval` mostly gets 304s, and for a 304 Fastify's
 * own work (routing, request and reply objects, hook runners, reply headers) costs about as much
 * as the socket write itself (bench/README.md, "Feeds").
 *
 * It answers only when the full path's answer is already known and cannot differ:
 * - the exact URL, query included, was served by the feed handler to the same viewer (the same
 *   token's authorization, or anonymous) under the current events version (NotModifiedIndex):
 *   routing, validation and visibility were decided there, and a new event keys every entry out;
 * - the caller is anonymous or sends `Authorization: token …` (or `bearer`) whose lookup has
 *   settled under the current tokens version (ViewerCache.cached): a revoked token never is;
 * - the request's `If-None-Match` hits that page's ETag;
 * - the rate counters and the events version are known in this process (PGlite). A 304 does not
 *   count, so the counters are only read, for the `X-RateLimit-*` headers.
 * Anything else — PostgreSQL, a token not yet looked up, Basic or `access_token` credentials, a
 * forwarded request when proxies are trusted (its client address is Fastify's to work out), a
 * miss, a 200 — goes on to Fastify, where feed-shortcut.ts and the full path answer it. The
 * headers are the ones the API hooks and the shortcut set, built by the same helpers.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Database } from "../db/database.ts";
import { ifNoneMatchHits } from "../feeds/etag.ts";
import { NotModifiedIndex } from "../feeds/not-modified.ts";
import { eventsVersionNow } from "../feeds/version.ts";
import type { FeedServing } from "../handlers/feeds.ts";
import { callerLimit, callerRateKey, remaining, type RateLimiter } from "./rate-limit.ts";
import { scopesHeader } from "./scope-headers.ts";
import { ANONYMOUS, tokenInHeader, type Viewer } from "./viewer.ts";
import type { ViewerCache } from "./viewer-cache.ts";
import { isForwarded } from "./trusted-proxies.ts";

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

  function viewerOf(req: IncomingMessage): Viewer | undefined {
    const header = req.headers.authorization;
    if (header === undefined) return ANONYMOUS;
    const token = tokenInHeader(header);
    return token === undefined ? undefined : viewers.cached(token, req);
  }

  return {
    get answered() {
      return answered;
    },
    answer(req, res) {
      const ifNoneMatch = req.headers["if-none-match"];
      if (rates === undefined || ifNoneMatch === undefined || (req.method !== "GET" && req.method !== "HEAD")) return false;
      if (forwarded && isForwarded(req)) return false;
      const viewer = viewerOf(req);
      if (viewer === undefined) return false;
      const key = NotModifiedIndex.key(viewer, req.url ?? "");
      const version = key === undefined ? undefined : eventsVersionNow(db);
      const served = version === undefined ? undefined : serving.notModified.served(key!, version);
      if (served === undefined || !ifNoneMatchHits(ifNoneMatch, served.etag)) return false;
      const userId = viewer.user?.id;
      const rate = rates.peek(callerRateKey(userId, req.socket.remoteAddress), callerLimit(userId, limiter.limits));
      const headers: OutgoingHttpHeaders = { etag: served.etag, "x-poll-interval": serving.poll.hit() };
      if (viewer.authorization) {
        headers["x-oauth-scopes"] = scopesHeader(viewer);
        headers["x-accepted-oauth-scopes"] = served.accepted;
      }
      headers["x-ratelimit-limit"] = rate.limit;
      headers["x-ratelimit-remaining"] = remaining(rate);
      headers["x-ratelimit-reset"] = rate.reset;
      res.writeHead(304, headers);
      res.end();
      answered += 1;
      return true;
    },
  };
}
