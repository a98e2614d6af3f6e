/**
 * The feeds' in-process caches outlive the longest `X-Poll-Interval` the server sends: a poller
 * that obeys the interval must still find its page (cache.ts), its lookups (memo.ts) and its last
 * answer (not-modified.ts) — the polling they exist for — and each expires once its TTL
 * (freshness.ts) is past, so events ageing out of the 90-day window still leave the feeds.
 */
import { describe, expect, it } from "vitest";
import { FeedCache } from "../../reference/feeds/cache.ts";
import { CACHE_TTL_MS } from "../../reference/feeds/freshness.ts";
import { Memo } from "../../reference/feeds/memo.ts";
import { NotModifiedIndex } from "../../reference/feeds/not-modified.ts";
import { POLL_TOP } from "../../reference/feeds/poll-interval.ts";

const nextPoll = POLL_TOP * 1000 + 1;

describe("feed caches under polling that obeys X-Poll-Interval", () => {
  it("outlive the longest interval and expire after their TTL", () => {
    expect(CACHE_TTL_MS).toBeGreaterThan(POLL_TOP * 1000);
  });

  it("the page cache serves the next poll's page without reading again", async () => {
    let now = 0;
    let reads = 0;
    const cache = new FeedCache({ clock: () => now });
    const load = async () => (reads++, [JSON.stringify({ id: "1" })]);
    const first = await cache.page("k", "v", 1, "http://x/f", load);
    now = nextPoll;
    expect(await cache.page("k", "v", 1, "http://x/f", load)).toBe(first);
    expect(reads).toBe(1);
    now = CACHE_TTL_MS;
    await cache.page("k", "v", 1, "http://x/f", load);
    expect(reads).toBe(2);
  });

  it("the lookups' memo answers the next poll from memory", async () => {
    let now = 0;
    let loads = 0;
    const memo = new Memo(undefined, undefined, () => now);
    const load = async () => ++loads;
    await memo.get("repo octocat/hello-world", "v", load);
    now = nextPoll;
    expect(await memo.get("repo octocat/hello-world", "v", load)).toBe(1);
    now = CACHE_TTL_MS;
    expect(await memo.get("repo octocat/hello-world", "v", load)).toBe(2);
  });

  it("the polling shortcut still knows the ETag it served at the next poll", () => {
    let now = 0;
    const index = new NotModifiedIndex(undefined, undefined, () => now);
    index.remember("7 /events", "v", { etag: '"abc"', feed: "public", page: 1, accepted: "" });
    now = nextPoll;
    expect(index.etag("7 /events", "v")).toBe('"abc"');
    now = CACHE_TTL_MS;
    expect(index.etag("7 /events", "v")).toBeUndefined();
  });
});
