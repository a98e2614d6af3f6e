/**
 * FEEDS-PAGE-* and FEEDS-LINK-*: the feed page limits and the pagination links (seed: Limits —
 * 30 items per page, fixed, `per_page` unsupported; up to 10 pages, 300 events; Endpoints › A —
 * `Link` with rel next and last). What the contract adds is attributed to its decisions: first
 * and prev past page 1 (D-LINK-FIRST-PREV), 422 for a page beyond 10 (D-INVALID-QUERY), per_page
 * ignored rather than refused (D-REQ-UNKNOWN-QUERY-PARAMETERS). Limits only show on a feed that holds more than them, so the cases read the
 * public timeline (`/events`, where pushes to the public repository land) and top it up with
 * triggered pushes when it holds too few.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import type { HttpResponse } from "../../core/http.ts";
import { check, SkipCase, type Checks } from "../../core/failure.ts";
import { pageOf } from "./link.ts";
import { mainToken } from "../profile.ts";
import { atLeast, eventsOf, fetchFeed, MAX_EVENTS, MAX_PAGES, page, PAGE_SIZE, publicEvents, pushEvents, SEED, walk, type ActivityEvent, type Feed } from "./support.ts";

const ids = (events: ActivityEvent[]) => events.map((e) => e.id);

/** Page sizes of a walk: every page but the last holds exactly 30. */
function checkPageSizes(checks: Checks, feed: Feed, sizes: number[]): void {
  sizes.forEach((n, i) => {
    checks.ok(n <= PAGE_SIZE, `${feed.label} page ${i + 1} holds at most ${PAGE_SIZE} events`, { expected: `≤ ${PAGE_SIZE}`, actual: n, pointer: "/body" });
    if (i < sizes.length - 1) checks.equal(n, PAGE_SIZE, `${feed.label} page ${i + 1} is followed by another page, so it holds exactly ${PAGE_SIZE}`, "/body");
  });
}

/**
 * A page beyond the 10th. The seed: "Up to 10 pages, a total of 300 events" — so no events there:
 * a refusal (4xx) or an empty page. The contract's answer is 422 Validation Failed naming `page`.
 */
function checkBeyondLastPage(ctx: CaseContext, res: HttpResponse, where: string): void {
  const empty = res.status === 200 && Array.isArray(res.json<unknown>()) && res.json<unknown[]>().length === 0;
  check.ok((res.status >= 400 && res.status < 500) || empty, `${where}: only 10 pages exist, so it is refused (4xx) or empty`, { expected: "a 4xx, or 200 []", actual: res.status === 200 ? `200 with ${Array.isArray(res.json<unknown>()) ? res.json<unknown[]>().length : "no"} events` : res.status, pointer: res.status === 200 ? "/body" : "/status" });
  const decided: Checks = ctx.rule("D-INVALID-QUERY");
  decided.status(res.status, 422, `${where}: the contract refuses a page beyond 10 with 422`);
  if (res.status !== 422 || ctx.decisions.off("D-INVALID-QUERY")) return;
  // The message's text is D-ERRORS' (every error text is), errors[] the validation-error shape's
  // (D-SCHEMA-VALIDATION-ERROR); each read only when its decision is kept.
  const raw = res.json<unknown>();
  const body = (raw !== null && typeof raw === "object" ? raw : {}) as { message?: string; errors?: unknown };
  ctx.rule("D-ERRORS").equal(body.message, "Validation Failed", "the 422 message", "/body/message");
  if (ctx.decisions.off("D-SCHEMA-VALIDATION-ERROR")) return;
  const errors = Array.isArray(body.errors) ? (body.errors as { field?: string }[]) : [];
  const shape: Checks = ctx.rule("D-SCHEMA-VALIDATION-ERROR");
  shape.ok(errors.some((e) => e !== null && typeof e === "object" && e.field === "page"), "the error names the field page", { expected: 'an error with field "page"', actual: body.errors, pointer: "/body/errors" });
}

async function needMore(ctx: CaseContext, feed: Feed, count: number, why: string): Promise<void> {
  try {
    await atLeast(ctx, feed, count);
  } catch (error) {
    if (error instanceof SkipCase) ctx.skip(`${why}: the feed holds fewer than ${count} events and ${(error as Error).message}`);
    throw error;
  }
}

export const PAGINATION_CASES: Case[] = [
  {
    id: "FEEDS-PAGE-001",
    title: "A feed page holds 30 events",
    area: "feeds",
    seed: SEED.limits,
    rules: ["S-LIMIT-PAGE-SIZE", "S-FEED-HEADERS"],
    needs: ["user"],
    async run(ctx) {
      const feed = publicEvents();
      await needMore(ctx, feed, PAGE_SIZE + 1, "30 per page shows on a feed of more than 30");
      const first = await page(ctx, feed);
      check.equal(first.events.length, PAGE_SIZE, `${feed.label}: page 1 of a feed holding more than ${PAGE_SIZE} events`, "/body");
      const links: Checks = ctx.rule("S-FEED-HEADERS");
      links.ok(first.links.next, `${feed.label}: page 1 links the next page`, { expected: 'rel="next"', actual: first.res.headers.get("link"), pointer: "/headers/link" });
      const second = await page(ctx, feed, { page: 2 });
      check.ok(second.events.length >= 1 && second.events.length <= PAGE_SIZE, `${feed.label}: page 2 holds 1 to ${PAGE_SIZE} events`, { actual: second.events.length, pointer: "/body" });
      const overlap = ids(second.events).filter((id) => ids(first.events).includes(id));
      check.equal(overlap, [], `${feed.label}: page 2 repeats none of page 1's events`, "/body");
    },
  },
  {
    id: "FEEDS-PAGE-002",
    title: "per_page is not supported: pages still hold 30 events",
    area: "feeds",
    seed: SEED.limits,
    rules: ["S-LIMIT-PAGE-SIZE", "D-REQ-UNKNOWN-QUERY-PARAMETERS"],
    needs: ["user"],
    async run(ctx) {
      const feed = publicEvents();
      await needMore(ctx, feed, PAGE_SIZE + 1, "per_page can only be seen ignored on a feed of more than 30");
      for (const perPage of ["5", "100"]) {
        const where = `${feed.label}?per_page=${perPage}`;
        const res = await fetchFeed(ctx, feed, { query: { per_page: perPage } });
        // The seed: "30 items, fixed; per_page is unsupported" — a page never holds another
        // number; refusing the parameter (a 4xx) is unsupported too. Ignoring it is the contract's.
        const ignored: Checks = ctx.rule("D-REQ-UNKNOWN-QUERY-PARAMETERS");
        ignored.status(res.status, 200, `${where}: the contract ignores unknown query parameters`);
        if (res.status !== 200) {
          check.ok(res.status >= 400 && res.status < 500, `${where}: per_page is unsupported, so it is ignored (200) or refused (4xx)`, { expected: "200 or a 4xx", actual: res.status, pointer: "/status" });
          continue;
        }
        check.equal(eventsOf(res, feed).length, PAGE_SIZE, `${where}: still ${PAGE_SIZE} events`, "/body");
      }
    },
  },
  {
    id: "FEEDS-PAGE-003",
    title: "page=11 shows no events (the contract: refused with 422 Validation Failed)",
    area: "feeds",
    seed: SEED.limits,
    rules: ["S-LIMIT-PAGES", "D-INVALID-QUERY", "D-PAGE-PARAMETERS", "D-SCHEMA-VALIDATION-ERROR", "D-ERRORS"],
    needs: ["user"],
    async run(ctx) {
      const feed = publicEvents();
      const res = await ctx.http.request({ operationId: feed.operationId, query: { page: "11" }, token: mainToken(ctx) });
      checkBeyondLastPage(ctx, res, `${feed.label}?page=11`);
    },
  },
  {
    id: "FEEDS-PAGE-004",
    title: "At most 10 pages and 300 events, even when the feed holds more",
    area: "feeds",
    seed: SEED.limits,
    rules: ["S-LIMIT-PAGES", "S-LIMIT-PAGE-SIZE", "D-FEED-ORDER", "D-INVALID-QUERY", "D-SCHEMA-VALIDATION-ERROR", "D-ERRORS"],
    needs: ["user"],
    async run(ctx) {
      const feed = publicEvents();
      let walked = await walk(ctx, feed);
      // Only a feed holding more than 300 shows the cap; a correct feed shows at most 300, so
      // one more event than it shows guarantees that.
      if (walked.total <= MAX_EVENTS) {
        try {
          await pushEvents(ctx, MAX_EVENTS + 1 - walked.total);
        } catch (error) {
          if (error instanceof SkipCase) ctx.skip(`the feed shows ${walked.total} events and more cannot be made: ${(error as Error).message}`);
          throw error;
        }
        walked = await walk(ctx, feed);
      }
      const sizes = walked.pages.map((p) => p.events.length);
      check.ok(walked.pages.length <= MAX_PAGES, `${feed.label}: rel="next" stops by page ${MAX_PAGES}`, { expected: `≤ ${MAX_PAGES} pages`, actual: `${walked.pages.length} pages: ${walked.pages.at(-1)?.url}`, pointer: "/headers/link" });
      check.ok(walked.total <= MAX_EVENTS, `${feed.label}: at most ${MAX_EVENTS} events over all pages`, { expected: `≤ ${MAX_EVENTS}`, actual: walked.total });
      checkPageSizes(ctx.rule("S-LIMIT-PAGE-SIZE"), feed, sizes);
      check.equal(walked.total, MAX_EVENTS, `${feed.label}: a feed holding more than ${MAX_EVENTS} events shows ${MAX_EVENTS}`);
      const last = walked.pages[0]!.links.last;
      check.ok(last && pageOf(last) <= MAX_PAGES, `${feed.label}: rel="last" on page 1 points at page ${MAX_PAGES} at most`, { actual: last, pointer: "/headers/link" });
      const eleventh = await ctx.http.request({ operationId: feed.operationId, query: { page: String(MAX_PAGES + 1) }, token: mainToken(ctx) });
      checkBeyondLastPage(ctx, eleventh, `${feed.label}?page=${MAX_PAGES + 1} when the feed holds more than ${MAX_EVENTS} events`);
    },
  },
  {
    id: "FEEDS-LINK-001",
    title: 'Page 1 links rel="next" and rel="last", and both links work',
    area: "feeds",
    seed: SEED.feeds,
    // Following them with a token needs them on the target's origins (D-URL-ORIGINS, the http layer's check).
    rules: ["S-FEED-HEADERS", "D-URL-ORIGINS"],
    needs: ["user"],
    async run(ctx) {
      const feed = publicEvents();
      await needMore(ctx, feed, PAGE_SIZE + 1, "links show on a feed of more than one page");
      const first = await page(ctx, feed);
      const { next, last } = first.links;
      check.ok(next, `${feed.label}: page 1 has rel="next"`, { actual: first.res.headers.get("link"), pointer: "/headers/link" });
      check.ok(last, `${feed.label}: page 1 has rel="last"`, { actual: first.res.headers.get("link"), pointer: "/headers/link" });
      const viaNext = await page(ctx, feed, { url: next });
      const second = await page(ctx, feed, { page: 2 });
      check.equal(ids(viaNext.events), ids(second.events), `rel="next" of page 1 (${next}) is page 2`, "/headers/link");
      const viaLast = await page(ctx, feed, { url: last });
      check.ok(viaLast.events.length > 0, `rel="last" (${last}) is a page with events`, { actual: 0, pointer: "/body" });
      check.equal(viaLast.links.next, undefined, `the page rel="last" points at has no rel="next"`, "/headers/link");
    },
  },
  {
    id: "FEEDS-LINK-002",
    title: 'Later pages link rel="first" and rel="prev", and both links work',
    area: "feeds",
    seed: `${SEED.feeds} (spec/DECISIONS.md: Link rels first and prev)`,
    // The seed names next and last only: first and prev are the contract's.
    rules: ["D-LINK-FIRST-PREV"],
    needs: ["user"],
    async run(ctx) {
      const feed = publicEvents();
      await needMore(ctx, feed, PAGE_SIZE + 1, "links show on a feed of more than one page");
      const first = await page(ctx, feed);
      const second = await page(ctx, feed, first.links.next ? { url: first.links.next } : { page: 2 });
      const { first: firstLink, prev } = second.links;
      check.ok(firstLink, `${feed.label} page 2 has rel="first"`, { actual: second.res.headers.get("link"), pointer: "/headers/link" });
      check.ok(prev, `${feed.label} page 2 has rel="prev"`, { actual: second.res.headers.get("link"), pointer: "/headers/link" });
      for (const [rel, url] of [["first", firstLink], ["prev", prev]] as const) {
        const back = await page(ctx, feed, { url });
        check.equal(ids(back.events), ids(first.events), `rel="${rel}" of page 2 (${url}) is page 1`, "/headers/link");
      }
    },
  },
];
