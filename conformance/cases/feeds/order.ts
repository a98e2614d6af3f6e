/**
 * FEEDS-ORDER-* and FEEDS-ORG-*: the order of every feed and the conditional `org` field (seed:
 * Resources › Activity event — `org`; spec/DECISIONS.md, Feed order and window: newest first by
 * `created_at`, events of the same second by id, higher first; Activity `org` — present exactly
 * when the repository belongs to an organization). Order is checked over page 1 and page 2 of
 * every feed (the page boundary is where a per-page sort shows), and the tie-break needs events of
 * one second, which a burst of triggered pushes makes. The seed states no order at all, so order
 * failures count against D-FEED-ORDER; ids are compared only when they are numeric (D-ACTIVITY-ID:
 * `numeric`, the contract's) — a target declaring `D-ACTIVITY-ID: opaque` has no id order, and
 * events of one second may then come in any order.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { check, type Checks } from "../../core/failure.ts";
import { allFeeds, orgEvents, page, publicEvents, pushEvents, repoEvents, SEED, type ActivityEvent } from "./support.ts";

const ORDER_SEED = "Events › Activity feed behaviour (spec/DECISIONS.md: Feed order and window)";

/** Whether ids have an order here: numeric ids (the contract's D-ACTIVITY-ID), not opaque ones a profile declares. */
export function numericIds(ctx: CaseContext): boolean {
  return ctx.decisions.on("D-ACTIVITY-ID") && ctx.decisions.value("D-ACTIVITY-ID") === "numeric";
}

/** Numeric ids (DECISIONS, Activity `id`) compare as numbers, not as text; anything else has no order. */
function idOf(e: ActivityEvent): bigint | undefined {
  return /^\d+$/.test(String(e.id)) ? BigInt(e.id) : undefined;
}

/** Positive when `b` must come before `a` in a newest-first feed; ties by id only when `byId`. */
function newerFirst(a: ActivityEvent, b: ActivityEvent, byId: boolean): number {
  const t = Date.parse(b.created_at) - Date.parse(a.created_at);
  if (t !== 0 || !byId) return t;
  const [x, y] = [idOf(a), idOf(b)];
  if (x === undefined || y === undefined) return 0;
  const d = y - x;
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}

function checkNewestFirst(order: Checks, events: ActivityEvent[], where: string, byId: boolean): void {
  for (let i = 1; i < events.length; i++) {
    const [a, b] = [events[i - 1]!, events[i]!];
    if (newerFirst(a, b, byId) > 0) {
      const sameSecond = a.created_at === b.created_at;
      order.fail(`${where}: events are newest first${sameSecond ? " (same created_at: the higher id first)" : " by created_at"} — event ${a.id} (${a.created_at}) comes before ${b.id} (${b.created_at})`, {
        expected: sameSecond ? `id ${b.id} before ${a.id}` : `${b.created_at} before ${a.created_at}`,
        actual: events.map((e) => `${e.id} ${e.created_at}`).slice(Math.max(0, i - 2), i + 2),
        pointer: `/body/${i}`,
      });
    }
  }
}

export const ORDER_CASES: Case[] = [
  {
    id: "FEEDS-ORDER-001",
    title: "Every feed is newest first (created_at, then id), across the page boundary",
    area: "feeds",
    seed: ORDER_SEED,
    rules: ["S-FEED-ENDPOINTS", "D-FEED-ORDER"],
    needs: ["user"],
    async run(ctx) {
      const order: Checks = ctx.rule("D-FEED-ORDER");
      for (const feed of allFeeds(ctx)) {
        const first = await page(ctx, feed);
        let events = first.events;
        if (first.links.next) events = [...events, ...(await page(ctx, feed, { url: first.links.next })).events];
        // A switched-off decision's `fail` ends the case as not checked: the seed's part (every feed a 200 array) goes on.
        if (ctx.decisions.on("D-FEED-ORDER")) checkNewestFirst(order, events, feed.label, numericIds(ctx));
      }
    },
  },
  {
    id: "FEEDS-ORDER-002",
    title: "Events of the same second are ordered by id, higher first",
    area: "feeds",
    seed: ORDER_SEED,
    rules: ["D-FEED-ORDER"],
    needs: ["user", "public-repo", "trigger"],
    async run(ctx) {
      if (!numericIds(ctx)) ctx.skip("the profile declares opaque event ids (D-ACTIVITY-ID): events of one second have no id order to check");
      const order: Checks = ctx.rule("D-FEED-ORDER");
      const feed = repoEvents(ctx.profile.repos!.public!);
      // A burst of pushes: on any implementation at least two land in one second.
      let tied: ActivityEvent[] = [];
      for (let round = 0; round < 3 && tied.length === 0; round++) {
        await pushEvents(ctx, 4);
        const { events } = await page(ctx, feed);
        checkNewestFirst(order, events, feed.label, true);
        tied = events.filter((e, i) => events.some((o, j) => j !== i && o.created_at === e.created_at));
      }
      if (tied.length === 0) ctx.skip("no two events of the repository feed share a created_at second, even after 12 quick pushes");
      const { events } = await page(ctx, publicEvents());
      checkNewestFirst(order, events, "/events", true);
    },
  },
  {
    id: "FEEDS-ORG-001",
    title: "An event of an organization's repository carries org (that organization); a user's repository's events carry none",
    area: "feeds",
    seed: "Resources › Activity event (spec/DECISIONS.md: Activity `org`)",
    // The seed lists org among an event's fields; that it names the repository's organization,
    // and that a user's repository's events carry none, are the contract's (D-ACTIVITY-ORG).
    rules: ["S-ACTIVITY-EVENT-FIELDS", "D-ACTIVITY-ORG"],
    needs: ["user", "org"],
    async run(ctx) {
      const org = ctx.profile.org!;
      const { events } = await page(ctx, orgEvents(org));
      const own = events.filter((e) => e.repo.name.toLowerCase().startsWith(`${org.toLowerCase()}/`));
      if (own.length === 0) ctx.skip(`/orgs/${org}/events shows no event of a repository of ${org}`);
      own.forEach((e) => {
        const i = events.indexOf(e);
        const got = (e as { org?: { login?: string } }).org;
        check.ok(got && typeof got === "object", `/orgs/${org}/events: event ${e.id} on ${e.repo.name}, a repository of the organization, carries org`, { expected: { login: org }, actual: got, pointer: `/body/${i}/org` });
        const decided: Checks = ctx.rule("D-ACTIVITY-ORG");
        decided.equal(got?.login?.toLowerCase(), org.toLowerCase(), `/orgs/${org}/events: event ${e.id}'s org is the repository's organization`, `/body/${i}/org/login`);
      });
      const login = ctx.profile.users[0]!.login;
      const full = ctx.profile.repos?.public;
      if (full?.toLowerCase().startsWith(`${login.toLowerCase()}/`) && ctx.decisions.on("D-ACTIVITY-ORG")) {
        const decided: Checks = ctx.rule("D-ACTIVITY-ORG");
        const feed = repoEvents(full);
        const { events: userRepo } = await page(ctx, feed);
        userRepo.forEach((e, i) => {
          decided.ok(!("org" in e) || (e as { org?: unknown }).org === undefined, `${feed.label}: event ${e.id} of ${full}, a user's repository, carries no org`, { expected: "no org", actual: (e as { org?: unknown }).org, pointer: `/body/${i}/org` });
        });
      }
    },
  },
];
