/**
 * What the feed handlers last decided for a (viewer, URL): the page they served — its ETag, and
 * which page of which feed it was — under an events version. With it, a poller repeating a GET is
 * answered by a hook right after the caller is resolved (http/feed-shortcut.ts), without request
 * validation, handler or response writing — which is most of a poll's cost: a 304 when its
 * `If-None-Match` hits that ETag, or the same 200 page again (from the page cache, cache.ts)
 * when it sends none.
 *
 * It remembers only decisions the full path made, for the same viewer (the token's authorization
 * with the scopes it has now, or anonymous) and the exact URL, so visibility cannot leak between
 * viewers, nor outlive a narrowing of the token's scopes (`PATCH /authorizations/:id`: the seed
 * lets a user edit scopes after the flow, and the next request must be judged on the new ones,
 * the scope check of the operation included); the version keys
 * out every decision a new event could change, and the TTL bounds the rest exactly as the
 * lookups' memo (memo.ts) does. URLs carrying `access_token` are never remembered, so no token
 * text is kept. Pages are not held here, only named: the page cache keeps them (and bounds them).
 */
import { CACHE_TTL_MS } from "./freshness.ts";

export interface Served {
  etag: string;
  /** The page cache's key of the feed, and the page number. */
  feed: string;
  page: number;
  /** The operation's `X-Accepted-OAuth-Scopes`, for the poll lane (http/poll-lane.ts), which answers before routing. */
  accepted: string;
}

interface Entry extends Served {
  version: string;
  expires: number;
}

export class NotModifiedIndex {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = CACHE_TTL_MS,
    private readonly maxEntries = 50_000,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The key for a viewer and URL, or undefined when the URL must not be remembered. */
  static key(viewer: { authorization: { id: number } | null; scopes: readonly string[] }, url: string): string | undefined {
    if (url.includes("access_token")) return undefined;
    // The scopes as granted now: a re-scoped token is a new viewer (its old entries just expire).
    return viewer.authorization ? `${viewer.authorization.id}:${viewer.scopes.join(",")} ${url}` : `- ${url}`;
  }

  remember(key: string, version: string, served: Served): void {
    this.entries.delete(key);
    this.entries.set(key, { version, etag: served.etag, feed: served.feed, page: served.page, accepted: served.accepted, expires: this.clock() + this.ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** The ETag last served for `key` under `version`, if still fresh. */
  etag(key: string, version: string): string | undefined {
    return this.served(key, version)?.etag;
  }

  /** The page last served for `key` under `version`, if still fresh. */
  served(key: string, version: string): Served | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version || entry.expires <= this.clock()) return undefined;
    return entry;
  }
}
