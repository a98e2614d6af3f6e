/**
 * The feed page cache (reference/feeds/cache.ts) on its own: one read per feed and version,
 * shared by concurrent misses; a new version or an expired entry reads again; a failed read is
 * not kept; the size bounds drop the oldest entries. The HTTP tests cover what clients see.
 */
import { describe, expect, it } from "vitest";
import { FeedCache } from "../../reference/feeds/cache.ts";

const body = (id: number) => JSON.stringify({ id: String(id) });
const bodies = (n: number) => Array.from({ length: n }, (_, i) => body(i));

describe("FeedCache", () => {
  it("reads once per version, shares concurrent misses, and expires", async () => {
    let now = 0;
    let reads = 0;
    const cache = new FeedCache({ ttlMs: 1000, clock: () => now });
    const load = async () => (reads++, bodies(45));
    const [a, b] = await Promise.all([cache.page("k", "v1", 1, "http://x/f", load), cache.page("k", "v1", 2, "http://x/f", load)]);
    expect(reads).toBe(1);
    expect(a.value).toHaveLength(30);
    expect(b.value).toHaveLength(15);
    expect(a.bytes.toString()).toBe(JSON.stringify(a.value));
    expect(a.etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect(a.etag).not.toBe(b.etag);
    expect(await cache.page("k", "v1", 1, "http://x/f", load)).toBe(a);
    await cache.page("k", "v2", 1, "http://x/f", load);
    expect(reads).toBe(2);
    now = 1000;
    await cache.page("k", "v2", 1, "http://x/f", load);
    expect(reads).toBe(3);
  });

  it("does not keep a failed read", async () => {
    const cache = new FeedCache();
    await expect(cache.page("k", "v", 1, "http://x/f", async () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    expect((await cache.page("k", "v", 1, "http://x/f", async () => bodies(1))).value).toHaveLength(1);
  });

  it("drops the oldest entries beyond its size bounds", async () => {
    const cache = new FeedCache({ maxChars: 250 });
    let reads = 0;
    const load = async () => (reads++, bodies(10)); // 100 characters: two entries fit, three do not
    for (const key of ["a", "b", "c"]) await cache.page(key, "v", 1, "http://x/f", load);
    expect(reads).toBe(3);
    await cache.page("c", "v", 1, "http://x/f", load);
    expect(reads).toBe(3); // the newest stayed
    await cache.page("a", "v", 1, "http://x/f", load);
    expect(reads).toBe(4); // the oldest went
  });
});
