/**
 * FEEDS-ORDER-* and FEEDS-ORG-*: the order of every feed and the conditional `org` field (seed:
 * Resources › Activity event — `org`; spec/DECISIONS.md, Feed order and window: newest first by
 * `created_at`, events of the same second by id, higher first; Activity `org` — present exactly
 * when the repository belongs to an organization). Order is checked over page 1 and page 2 of
 * every feed (the page boundary is where a per-page sort shows), and the tie-break needs events of
 * one second, which a burst of triggered pushes makes.
 */
import type { Case } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { allFeeds, orgEvents, page, publicEvents, pushEvents, repoEvents, SEED, type ActivityEvent } from "./support.ts";

const ORDER_SEED = "Events › Activity feed behaviour (spec/DECISIONS.md: Feed order and window)";

/** Ids are strings of digits (DECISIONS, Activity `id`): compared as numbers, not as text. */
function idOf(e: ActivityEvent): bigint {
  return /^\d+$/.test(e.id) ? BigInt(e.id) : -1n;
}

/** -1 when `a` must come before `b` in a newest-first feed. */
function newerFirst(a: ActivityEvent, b: ActivityEvent): number {
  const t = Date.parse(b.created_at) - Date.parse(a.created_at);
  if (t !== 0) return t;
  const d = idOf(b) - idOf(a);
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}

function checkNewestFirst(events: ActivityEvent[], where: string): void {
  for (let i = 1; i < events.length; i++) {
    const [a, b] = [events[i - 1]!, events[i]!];
    if (newerFirst(a, b) > 0) {
      const sameSecond = a.created_at === b.created_at;
      check.fail(`${where}: events are newest first${sameSecond ? " (same created_at: the higher id first)" : " by created_at"} — event ${a.id} (${a.created_at}) comes before ${b.id} (${b.created_at})`, {
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
    rules: ["D-FEED-ORDER", "S-FEED-ENDPOINTS"],
    needs: ["user"],
    async run(ctx) {
      for (const feed of allFeeds(ctx)) {
        const first = await page(ctx, feed);
        let events = first.events;
        if (first.links.next) events = [...events, ...(await page(ctx, feed, { url: first.links.next })).events];
        checkNewestFirst(events, feed.label);
      }
    },
  },
  {
    id: "FEEDS-ORDER-002",
    title: "Events of the same second are ordered by id, higher first",
    area: "feeds",
    seed: ORDER_SEED,
    rules: ["D-FEED-ORDER", "S-FEED-ENDPOINTS"],
    needs: ["user", "public-repo", "trigger"],
    async run(ctx) {
      const feed = repoEvents(ctx.profile.repos!.public!);
      // A burst of pushes: on any implementation at least two land in one second.
      let tied: ActivityEvent[] = [];
      for (let round = 0; round < 3 && tied.length === 0; round++) {
        await pushEvents(ctx, 4);
        const { events } = await page(ctx, feed);
        checkNewestFirst(events, feed.label);
        tied = events.filter((e, i) => events.some((o, j) => j !== i && o.created_at === e.created_at));
      }
      if (tied.length === 0) ctx.skip("no two events of the repository feed share a created_at second, even after 12 quick pushes");
      const { events } = await page(ctx, publicEvents());
      checkNewestFirst(events, "/events");
    },
  },
  {
    id: "FEEDS-ORG-001",
    title: "An event of an organization's repository carries org (that organization); a user's repository's events carry none",
    area: "feeds",
    seed: "Resources › Activity event (spec/DECISIONS.md: Activity `org`)",
    rules: ["D-ACTIVITY-ORG", "S-ACTIVITY-EVENT-FIELDS"],
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
        check.equal(got.login?.toLowerCase(), org.toLowerCase(), `/orgs/${org}/events: event ${e.id}'s org is the repository's organization`, `/body/${i}/org/login`);
      });
      const login = ctx.profile.users[0]!.login;
      const full = ctx.profile.repos?.public;
      if (full?.toLowerCase().startsWith(`${login.toLowerCase()}/`)) {
        const feed = repoEvents(full);
        const { events: userRepo } = await page(ctx, feed);
        userRepo.forEach((e, i) => {
          check.ok(!("org" in e) || (e as { org?: unknown }).org === undefined, `${feed.label}: event ${e.id} of ${full}, a user's repository, carries no org`, { expected: "no org", actual: (e as { org?: unknown }).org, pointer: `/body/${i}/org` });
        });
      }
    },
  },
];
