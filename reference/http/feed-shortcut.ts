/**
 * The polling shortcut: a conditional GET of a feed whose ETag the feed handler already served
 * to this viewer for this URL under the current events version (feeds/not-modified.ts) is
 * answered 304 here, in an onRequest hook registered after the API hooks (so the caller is
 * resolved, bad credentials are refused, and the rate-limit headers are still set in onSend: a
 * 304 never counts). Everything else goes the full way. The answer is the one the handler would
 * give: the same ETag and the current `X-Poll-Interval`, no body.
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
  function answer(reply: FastifyReply, etag: string): void {
    reply.code(304).header("ETag", etag).header("X-Poll-Interval", serving.poll.hit()).send();
  }
  // Callback style: with the events version known in process (PGlite), a repeated poll is
  // answered without a promise; otherwise the version is awaited.
  app.addHook("onRequest", (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    if (reply.sent || request.outsideContract) return done();
    const ifNoneMatch = request.headers["if-none-match"];
    if (typeof ifNoneMatch !== "string" || (request.method !== "GET" && request.method !== "HEAD")) return done();
    if (!request.policy || !FEED_OPERATIONS.has(request.policy.operationId)) return done();
    const key = NotModifiedIndex.key(request.viewer.authorization?.id, request.url);
    if (key === undefined) return done();
    const version = eventsVersionNow(db);
    if (version !== undefined) {
      const etag = serving.notModified.etag(key, version);
      if (etag === undefined || !ifNoneMatchHits(ifNoneMatch, etag)) return done();
      return answer(reply, etag);
    }
    eventsVersion(db).then((current) => {
      const etag = serving.notModified.etag(key, current);
      if (etag !== undefined && ifNoneMatchHits(ifNoneMatch, etag)) answer(reply, etag);
      done();
    }, done);
  });
}
