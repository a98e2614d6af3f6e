/**
 * Lookups a feed request needs before it reaches the page cache — the repository, user or
 * organization a path names, and whether a reader has access to a repository — remembered for
 * the current events version and at most `ttlMs` (freshness.ts). On PGlite each lookup is a query on the one
 * database thread, and without this a 304 costs as much as the query (about 20× slower than the
 * cached page itself).
 *
 * Staleness is bounded by the TTL: most changes that matter record an event and so change the
 * version (a repository made public, a member added), while the rest (a collaborator removed, a
 * repository renamed or made private) are picked up within `ttlMs`. Only positive and negative
 * answers about names and access are kept, never page contents (those are cache.ts's).
 */
import { CACHE_TTL_MS } from "./freshness.ts";

export class Memo {
  private readonly entries = new Map<string, { version: string; expires: number; value: Promise<unknown> }>();

  constructor(
    private readonly ttlMs = CACHE_TTL_MS,
    private readonly maxEntries = 10_000,
    private readonly clock: () => number = Date.now,
  ) {}

  get<T>(key: string, version: string, load: () => Promise<T>): Promise<T> {
    const now = this.clock();
    const hit = this.entries.get(key);
    if (hit && hit.version === version && hit.expires > now) return hit.value as Promise<T>;
    const value = load();
    this.entries.set(key, { version, expires: now + this.ttlMs, value });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    value.catch(() => this.entries.delete(key));
    return value;
  }
}
