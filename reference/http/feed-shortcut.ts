/**
 * The polling shortcut: a GET of a feed page the feed handler already served to this viewer for
 * this URL under the current events version (feeds/not-modified.ts) is answered here, in an
 * onRequest hook registered after the API hooks (so the caller is resolved, bad credentials and
 * an exhausted rate limit are refused, and the rate-limit headers are still set in onSend, where
 * a 200 counts and a 304 does not). With an `If-None-Match` that hits the page's ETag the answer
 * is a 304; without one, the same page again, from the page cache. Everything else (another
 * `If-None-Match`, a HEAD without one, a page no longer cached) goes the full way. The answer is
 * the one the handler would give: the same ETag, `Link` and bytes, the current
 * `X-Poll-Interval`. On the embedded database most repeated 304s never get here: the poll lane
 * (poll-lane.ts) answers them before routing; this hook answers what the lane leaves (the 200
 * repeats, a token not yet looked up, PostgreSQL).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Database } from "../db/database.ts";
import { ifNoneMatchHits } from "../feeds/etag.ts";
import { NotModifiedIndex } from "../feeds/not-modified.ts";
import { eventsVersion, eventsVersionNow } from "../feeds/version.ts";
import type { FeedServing } from "../handlers/feeds.ts";

export const FEED_OPERATIONS: ReadonlySet<string> = new Set([
  "listPublicEvents", "listRepoEvents", "listNetworkEvents", "listOrgEvents", "listReceivedEvents",
  "listPublicReceivedEvents", "listUserEvents", "listPublicUserEvents", "listUserOrgEvents",
]);

export function installFeedShortcut(app: FastifyInstance, db: Database, serving: FeedServing): void {
  /** Answer as the handler did for this viewer and URL under `version`, if it can be; true when answered. */
  function repeat(reply: FastifyReply, key: string, version: string, ifNoneMatch: string | undefined): boolean {
    const served = serving.notModified.served(key, version);
    if (served === undefined) return false;
    if (ifNoneMatch !== undefined) {
      if (!ifNoneMatchHits(ifNoneMatch, served.etag)) return false;
      reply.code(304).header("etag", served.etag).header("x-poll-interval", serving.poll.hit()).send();
      return true;
    }
    // The page itself, if the page cache still holds it as served (same bytes, same ETag).
    const page = serving.cache.peek(served.feed, version, served.page);
    if (page === undefined || page.etag !== served.etag) return false;
    reply.code(200).header("etag", page.etag).header("x-poll-interval", serving.poll.hit());
    if (page.link !== undefined) reply.header("link", page.link);
    reply.header("content-type", "application/json; charset=utf-8").send(page.bytes);
    return true;
  }

  // (Header names lower-cased, as in api-hooks.ts.)
  // Callback style: with the events version known in process (PGlite), a repeated poll is
  // answered without a promise; otherwise the version is awaited.
  app.addHook("onRequest", (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    if (reply.sent || request.outsideContract || !request.policy || !FEED_OPERATIONS.has(request.policy.operationId)) return done();
    const ifNoneMatch = request.headers["if-none-match"];
    // A 304 for GET and HEAD; a page only for GET (HEAD goes the full way).
    if (ifNoneMatch === undefined ? request.method !== "GET" : typeof ifNoneMatch !== "string" || (request.method !== "GET" && request.method !== "HEAD")) return done();
    const key = NotModifiedIndex.key(request.viewer, request.url);
    if (key === undefined) return done();
    const version = eventsVersionNow(db);
    if (version !== undefined) {
      if (!repeat(reply, key, version, ifNoneMatch)) done();
      return;
    }
    // Once answered, never go on (done()): with an asynchronous onSend (PostgreSQL's rate limit)
    // the answer is still being sent, and the handler would send a second one.
    eventsVersion(db).then((current) => repeat(reply, key, current, ifNoneMatch) || done(), done);
  });
}
