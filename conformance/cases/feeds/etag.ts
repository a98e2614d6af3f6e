/**
 * FEEDS-ETAG-* and FEEDS-POLL-*: polling with conditional requests (seed: Endpoints › A — ETag,
 * If-None-Match "including its quotes", X-Poll-Interval; Events › Activity feed behaviour — 304
 * when nothing is new, and the rate limit untouched; Limits — 304s do not count). The 304 must
 * carry no body, the same ETag and X-Poll-Interval; X-RateLimit-Remaining must not move on
 * 304s, while a plain 200 afterwards shows the counter is live. The seed asks for an ETag and
 * a 304 when it is sent back; its form — a strong, quoted tag — and the 304 repeating it are the
 * contract's (D-ETAG), as are a weak tag (`W/"…"`) and a list of tags matching as RFC 9110's weak
 * comparison says. A new event must change the tag.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import type { HttpResponse } from "../../core/http.ts";
import { check, type Checks } from "../../core/failure.ts";
import { publicRepo } from "../profile.ts";
import { allFeeds, eventsOf, fetchFeed, intHeader, page, repoEvents, SEED, type Feed } from "./support.ts";

const STRONG = /^"[^"]*"$/;

/** The ETag: present (the seed's S-FEED-HEADERS), and a strong quoted tag (the contract's D-ETAG). */
function etagOf(ctx: CaseContext, res: HttpResponse, where: string): string {
  const etag = res.headers.get("etag");
  const seed: Checks = ctx.rule("S-FEED-HEADERS");
  seed.matches(etag, /\S/, `${where}: the feed carries an ETag`, "/headers/etag");
  const form: Checks = ctx.rule("D-ETAG");
  form.matches(etag, STRONG, `${where}: ETag is a strong, quoted entity tag`, "/headers/etag");
  return etag!;
}

/** The repository feed of the public repository: quiet enough that nothing changes between two requests. */
function quietFeed(ctx: CaseContext): Feed {
  return repoEvents(publicRepo(ctx).full);
}

/**
 * A 200 and its ETag, then `ifNoneMatch(etag)` must get a 304. When an event arrived in between
 * (the 304 check would then rightly get a 200 with a new tag), start over, up to three times.
 */
async function expectNotModified(ctx: CaseContext, feed: Feed, ifNoneMatch: (etag: string) => string) {
  for (let attempt = 0; ; attempt++) {
    const first = await fetchFeed(ctx, feed);
    check.status(first.status, 200, feed.label);
    const etag = etagOf(ctx, first, feed.label);
    const sent = ifNoneMatch(etag);
    const second = await fetchFeed(ctx, feed, { ifNoneMatch: sent });
    if (second.status === 200 && second.headers.get("etag") !== etag && attempt < 2) continue;
    check.status(second.status, 304, `${feed.label} with If-None-Match: ${sent} (the current ETag is ${etag})`);
    check.equal(second.text, "", "a 304 has no body", "/body");
    return { first, second, etag };
  }
}

/** Seconds (the seed's unit): a poller told 60000 would wait 16 hours; an hour is already a stalled feed. */
export const MAX_POLL_INTERVAL_S = 3600;

function checkInterval(value: number, where: string): void {
  check.ok(value >= 1 && value <= MAX_POLL_INTERVAL_S, `${where}: X-Poll-Interval is in seconds, 1 to ${MAX_POLL_INTERVAL_S} (a value in milliseconds would be far above)`, { expected: `1..${MAX_POLL_INTERVAL_S}`, actual: value, pointer: "/headers/x-poll-interval" });
}

export const ETAG_CASES: Case[] = [
  {
    id: "FEEDS-ETAG-001",
    title: "Every feed answers 200 with a quoted ETag",
    area: "feeds",
    seed: SEED.feeds,
    rules: ["S-FEED-HEADERS", "D-ETAG", "S-FEED-ENDPOINTS", "S-API-GET-JSON"],
    needs: ["user"],
    async run(ctx) {
      for (const feed of allFeeds(ctx)) {
        const res = await fetchFeed(ctx, feed);
        check.status(res.status, 200, feed.label);
        etagOf(ctx, res, feed.label);
      }
    },
  },
  {
    id: "FEEDS-ETAG-002",
    title: "If-None-Match with the ETag gets 304 with no body, and X-RateLimit-Remaining does not move",
    area: "feeds",
    seed: SEED.polling,
    rules: ["S-FEED-CONDITIONAL", "S-NOT-MODIFIED", "S-LIMIT-304-FREE", "S-FEED-IF-NONE-MATCH", "S-LIMIT-RATE-HEADERS", "S-FEED-HEADERS", "D-ETAG"],
    needs: ["user", "public-repo"],
    async run(ctx) {
      const feed = quietFeed(ctx);
      const { first, second, etag } = await expectNotModified(ctx, feed, (e) => e);
      const decided: Checks = ctx.rule("D-ETAG");
      decided.equal(second.headers.get("etag"), etag, "the 304 repeats the ETag", "/headers/etag");
      const before = intHeader(first, "X-RateLimit-Remaining", `${feed.label} 200`);
      const after304 = intHeader(second, "X-RateLimit-Remaining", `${feed.label} 304`);
      const free: Checks = ctx.rule("S-LIMIT-304-FREE");
      free.equal(after304, before, "a 304 does not count against the rate limit (X-RateLimit-Remaining unchanged)", "/headers/x-ratelimit-remaining");
      const again = await fetchFeed(ctx, feed, { ifNoneMatch: etag });
      check.status(again.status, 304, `${feed.label} polled again with the same ETag`);
      free.equal(intHeader(again, "X-RateLimit-Remaining", `${feed.label} 304`), before, "a second 304 does not count either", "/headers/x-ratelimit-remaining");
      // The 304s are only proven free if a 200 does count: a counter that never moves passes the above.
      const plain = await fetchFeed(ctx, feed);
      check.status(plain.status, 200, `${feed.label} without If-None-Match`);
      const counted = intHeader(plain, "X-RateLimit-Remaining", `${feed.label} 200`);
      const sameWindow = plain.headers.get("x-ratelimit-reset") === first.headers.get("x-ratelimit-reset");
      const counts: Checks = ctx.rule("S-LIMIT-RATE-HEADERS");
      if (sameWindow) counts.ok(counted < before, `${feed.label}: a 200 counts against the rate limit (X-RateLimit-Remaining goes down), so the unchanged counter on the 304s means they are free`, { expected: `< ${before}`, actual: counted, pointer: "/headers/x-ratelimit-remaining" });
    },
  },
  {
    id: "FEEDS-ETAG-003",
    title: 'A weak If-None-Match (W/"…") matches the ETag',
    area: "feeds",
    seed: SEED.polling,
    // The ETag's presence (read on the way) is the seed's.
    rules: ["D-ETAG", "S-FEED-HEADERS"],
    needs: ["user", "public-repo"],
    async run(ctx) {
      await expectNotModified(ctx, quietFeed(ctx), (etag) => (etag.startsWith("W/") ? etag : `W/${etag}`));
    },
  },
  {
    id: "FEEDS-ETAG-004",
    title: "An If-None-Match list matches when one member does; another tag gets 200",
    area: "feeds",
    seed: SEED.polling,
    // The ETag's presence (read on the way) is the seed's.
    rules: ["D-ETAG", "S-FEED-HEADERS"],
    needs: ["user", "public-repo"],
    async run(ctx) {
      const feed = quietFeed(ctx);
      const { etag } = await expectNotModified(ctx, feed, (e) => `"conformance-other-tag", ${e}`);
      const other = await fetchFeed(ctx, feed, { ifNoneMatch: '"conformance-other-tag"' });
      check.status(other.status, 200, `${feed.label} with an If-None-Match that is not the ETag (${etag})`);
      eventsOf(other, feed);
    },
  },
  {
    id: "FEEDS-ETAG-005",
    title: "A new event changes the ETag: the old one gets 200 with the event",
    area: "feeds",
    seed: SEED.polling,
    rules: ["S-FEED-CONDITIONAL", "D-ETAG", "D-FEED-FRESHNESS", "S-FEED-HEADERS", "D-ACTIVITY-TYPE"],
    needs: ["user", "public-repo", "trigger"],
    async run(ctx) {
      const feed = quietFeed(ctx);
      const before = await page(ctx, feed);
      const etag = etagOf(ctx, before.res, feed.label);
      await ctx.trigger("push", {});
      const after = await fetchFeed(ctx, feed, { ifNoneMatch: etag });
      check.status(after.status, 200, `${feed.label} with the ETag from before a new push`);
      check.notEqual(after.headers.get("etag"), etag, "the ETag changed with the new event", "/headers/etag");
      const known = new Set(before.events.map((e) => e.id));
      const fresh = eventsOf(after, feed).filter((e) => !known.has(e.id));
      // That the new event is on page 1 at once is the contract's (newest first, D-FEED-ORDER;
      // no stale cache, D-FEED-FRESHNESS); its type name PushEvent is D-ACTIVITY-TYPE.
      const freshness: Checks = ctx.rule("D-FEED-FRESHNESS");
      freshness.ok(fresh.length > 0, "the new event is on page 1", { expected: "a new event", actual: "none", pointer: "/body" });
      const typed: Checks = ctx.rule("D-ACTIVITY-TYPE");
      typed.ok(fresh.some((e) => e.type === "PushEvent"), "the new push is on page 1 as a PushEvent", { expected: "a new PushEvent", actual: fresh.map((e) => `${e.id} ${e.type}`), pointer: "/body" });
    },
  },
  {
    id: "FEEDS-POLL-001",
    title: "X-Poll-Interval, in seconds (1 to 3600), comes with every 200 and every 304",
    area: "feeds",
    seed: SEED.polling,
    rules: ["S-FEED-POLL-INTERVAL", "D-POLL-INTERVAL", "S-FEED-HEADERS", "D-ETAG"],
    needs: ["user"],
    async run(ctx) {
      for (const feed of allFeeds(ctx)) {
        const res = await fetchFeed(ctx, feed);
        check.status(res.status, 200, feed.label);
        const interval = intHeader(res, "X-Poll-Interval", `${feed.label} 200`);
        checkInterval(interval, `${feed.label} 200`);
        const etag = etagOf(ctx, res, feed.label);
        const polled = await fetchFeed(ctx, feed, { ifNoneMatch: etag });
        if (polled.status === 200) continue; // something new arrived: nothing to say about 304s of this feed
        check.status(polled.status, 304, `${feed.label} with If-None-Match: ${etag}`);
        // X-Poll-Interval on the 304 too is the contract's (D-POLL-INTERVAL: "Sent on every 200 and 304").
        if (ctx.decisions.off("D-POLL-INTERVAL")) continue;
        const onNotModified: Checks = ctx.rule("D-POLL-INTERVAL");
        const raw = polled.headers.get("x-poll-interval");
        onNotModified.matches(raw, /^\d+$/, `${feed.label} 304: X-Poll-Interval is an integer`, "/headers/x-poll-interval");
        onNotModified.ok(Number(raw) >= 1 && Number(raw) <= MAX_POLL_INTERVAL_S, `${feed.label} 304: X-Poll-Interval is in seconds, 1 to ${MAX_POLL_INTERVAL_S}`, { expected: `1..${MAX_POLL_INTERVAL_S}`, actual: raw, pointer: "/headers/x-poll-interval" });
      }
    },
  },
];
