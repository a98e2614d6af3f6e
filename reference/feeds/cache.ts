/**
 * Pre-serialized feed pages. A feed (one query, at most 300 events) is read once per events
 * version (version.ts) and kept as the event bodies; each page's bytes, parsed value, `Link` and
 * `ETag` are made on first request and kept with it, so a poll costs a version read and a map
 * lookup. Entries are keyed by feed, visibility class (what the viewer may see, not who the
 * viewer is) and URL path — the pages' `Link` names it — so every anonymous poller of a feed's URL
 * shares one entry.
 *
 * An entry also expires after `ttlMs` (freshness.ts) whatever the version: events age out of the 90-day window,
 * and follows or collaborator changes that record no event change what a feed holds. Concurrent
 * misses for one key share one query. The map is bounded by entries and by the characters of
 * the event bodies it holds (oldest entries dropped first): a feed entry holds up to 300 bodies.
 */
import type { ActivityEvent } from "../../generated/types.ts";
import { PAGE_SIZE, linkHeader } from "../http/pagination.ts";
import { etagOf } from "./etag.ts";
import { CACHE_TTL_MS } from "./freshness.ts";

export interface FeedPage {
  /** The page as served (UTF-8 JSON, encoded once) and as a value (what validation checks). */
  bytes: Buffer;
  value: ActivityEvent[];
  etag: string;
  link: string | undefined;
}

interface Entry {
  version: string;
  expires: number;
  /** The event bodies (JSON text each), newest first. */
  bodies: Promise<string[]>;
  pages: Map<number, FeedPage>;
  /** Characters of the bodies, once loaded (pages roughly double it). */
  size: number;
}

export interface FeedCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  /** Characters of event bodies kept, over all entries (default 32 Mi, about 64 MiB with pages). */
  maxChars?: number;
  clock?: () => number;
}

export class FeedCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly maxChars: number;
  private readonly clock: () => number;
  private chars = 0;

  constructor(options: FeedCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? CACHE_TTL_MS;
    this.maxEntries = options.maxEntries ?? 2000;
    this.maxChars = options.maxChars ?? 32 * 1024 * 1024;
    this.clock = options.clock ?? Date.now;
  }

  /** Page `page` of the feed `key` (its `Link` based on `base`), reading with `load` on a miss. */
  async page(key: string, version: string, page: number, base: string, load: () => Promise<string[]>): Promise<FeedPage> {
    const now = this.clock();
    let entry = this.entries.get(key);
    if (!entry || entry.version !== version || entry.expires <= now) {
      entry = { version, expires: now + this.ttlMs, bodies: load(), pages: new Map(), size: 0 };
      this.remove(key);
      this.entries.set(key, entry);
      const loading = entry;
      loading.bodies.then(
        (bodies) => {
          if (this.entries.get(key) !== loading) return;
          loading.size = bodies.reduce((n, b) => n + b.length, 0);
          this.chars += loading.size;
          this.evict(key);
        },
        // A failed read must not stay cached.
        () => {
          if (this.entries.get(key) === loading) this.remove(key);
        },
      );
      this.evict(key);
    }
    const bodies = await entry.bodies;
    let cached = entry.pages.get(page);
    if (!cached) {
      cached = buildPage(bodies, page, base);
      entry.pages.set(page, cached);
    }
    return cached;
  }

  /** Page `page` of the feed `key` if it is already made under `version` and fresh; never reads. */
  peek(key: string, version: string, page: number): FeedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version || entry.expires <= this.clock()) return undefined;
    return entry.pages.get(page);
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.chars -= entry.size;
    this.entries.delete(key);
  }

  /** Drop the oldest entries (never `keep`, the one being served) until within both bounds. */
  private evict(keep: string): void {
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) return;
      if (key !== keep) this.remove(key);
    }
  }
}

function buildPage(bodies: string[], page: number, base: string): FeedPage {
  const slice = bodies.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  // The bodies were written by serialize/ in the contract's shape (and responses are validated in tests).
  const value = JSON.parse(`[${slice.join(",")}]`) as ActivityEvent[];
  // Re-serialized once here so the bytes (and the ETag) are exactly what JSON.stringify sends.
  const text = JSON.stringify(value);
  const link = linkHeader(base, page, bodies.length);
  return { bytes: Buffer.from(text), value, etag: etagOf(text, link), link };
}
