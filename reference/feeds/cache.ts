/**
 * Pre-serialized feed pages. A feed (one query, at most 300 events) is read once per events
 * version (version.ts) and kept as the event bodies; each page's bytes, parsed value, `Link` and
 * `ETag` are made on first request and kept with it, so a poll costs a version read and a map
 * lookup. Entries are keyed by feed and visibility class (what the viewer may see, not who the
 * viewer is), so every anonymous poller of a feed shares one entry.
 *
 * An entry also expires after `ttlMs` whatever the version: events age out of the 90-day window,
 * and follows or collaborator changes that record no event change what a feed holds. Concurrent
 * misses for one key share one query. The map is bounded (oldest entries dropped first).
 */
import { PAGE_SIZE, linkHeader } from "../http/pagination.ts";
import { etagOf } from "./etag.ts";

export interface FeedPage {
  /** The page as served (JSON text) and as a value (what the runtime serializes). */
  bytes: string;
  value: unknown[];
  etag: string;
  link: string | undefined;
}

interface Entry {
  version: string;
  expires: number;
  /** The event bodies (JSON text each), newest first. */
  bodies: Promise<string[]>;
  pages: Map<number, FeedPage>;
}

export interface FeedCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  clock?: () => number;
}

export class FeedCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly clock: () => number;

  constructor(options: FeedCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.maxEntries = options.maxEntries ?? 2000;
    this.clock = options.clock ?? Date.now;
  }

  /** Page `page` of the feed `key` (its `Link` based on `base`), reading with `load` on a miss. */
  async page(key: string, version: string, page: number, base: string, load: () => Promise<string[]>): Promise<FeedPage> {
    const now = this.clock();
    let entry = this.entries.get(key);
    if (!entry || entry.version !== version || entry.expires <= now) {
      entry = { version, expires: now + this.ttlMs, bodies: load(), pages: new Map() };
      this.entries.delete(key);
      this.entries.set(key, entry);
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      const loading = entry;
      // A failed read must not stay cached.
      loading.bodies.catch(() => {
        if (this.entries.get(key) === loading) this.entries.delete(key);
      });
    }
    const bodies = await entry.bodies;
    let cached = entry.pages.get(page);
    if (!cached) {
      cached = buildPage(bodies, page, base);
      entry.pages.set(page, cached);
    }
    return cached;
  }

  clear(): void {
    this.entries.clear();
  }
}

function buildPage(bodies: string[], page: number, base: string): FeedPage {
  const slice = bodies.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const value = JSON.parse(`[${slice.join(",")}]`) as unknown[];
  // Re-serialized once here so the bytes (and the ETag) are exactly what JSON.stringify sends.
  const bytes = JSON.stringify(value);
  const link = linkHeader(base, page, bodies.length);
  return { bytes, value, etag: etagOf(bytes, link), link };
}
