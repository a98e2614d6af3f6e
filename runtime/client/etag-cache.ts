/**
 * The store behind conditional requests. A GET whose operation declares a 304 answer sends the
 * stored ETag as `If-None-Match`; a 304 then hands back the stored body. Entries are keyed by
 * URL *and* a digest of the credentials, so one user's private feed is never served to another.
 */
export interface EtagEntry {
  etag: string;
  body: unknown;
  headers: Record<string, unknown>;
}

/** Pluggable storage (Redis, disk, …); methods may be async. */
export interface EtagStore {
  get(key: string): EtagEntry | undefined | Promise<EtagEntry | undefined>;
  set(key: string, entry: EtagEntry): void | Promise<void>;
  delete(key: string): void | Promise<void>;
}

/** In-memory store with least-recently-used eviction, so a long-running poller stays bounded. */
export class MemoryEtagStore implements EtagStore {
  readonly #entries = new Map<string, EtagEntry>();

  constructor(readonly maxEntries = 500) {}

  get(key: string): EtagEntry | undefined {
    const entry = this.#entries.get(key);
    if (entry) {
      // Re-insert to mark as most recently used (Map keeps insertion order).
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: EtagEntry): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
