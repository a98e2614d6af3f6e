/**
 * FEEDS-WINDOW-001: only events of the past 90 days appear, even when fewer than 300 exist
 * (seed: Limits › Activity feed age). Every event on every page of the public timeline and of
 * users[0]'s feeds must be younger than 90 days by the server's own clock (its `Date` header),
 * with a few minutes' allowance for pages served from a short cache. The window is only
 * observable on a target that holds older activity, which the suite cannot create; the issue
 * events API has no window, so an issue event older than 90 days in the public repository is the
 * evidence. Without it the case is skipped — unless a feed shows an old event, which fails it.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { parseLink } from "./link.ts";
import { mainToken, splitRepo } from "../profile.ts";
import { publicEvents, SEED, userEvents, walk, WINDOW_DAYS, type Feed } from "./support.ts";

const DAY_MS = 86_400_000;
/** Pages may be served from a cache for a short while; an event ageing out meanwhile is not a defect. */
const ALLOWANCE_MS = 5 * 60_000;

function serverNow(dateHeader: string | null): number {
  const parsed = dateHeader ? Date.parse(dateHeader) : NaN;
  return Number.isFinite(parsed) ? parsed : Date.now();
}

/** The oldest issue event of the public repository, if one is older than the window (up to 10 pages back). */
async function oldActivity(ctx: CaseContext): Promise<string | undefined> {
  const full = ctx.profile.repos?.public;
  if (!full) return undefined;
  const { owner, repo } = splitRepo(full);
  let url: string | undefined;
  for (let i = 0; i < 10; i++) {
    const res = await ctx.http.request({ operationId: "listIssueEventsForRepo", params: { owner, repo }, ...(url ? { path: url } : {}), token: mainToken(ctx) });
    if (res.status !== 200) return undefined;
    const events = res.json<{ created_at?: string }[]>();
    const limit = serverNow(res.headers.get("date")) - WINDOW_DAYS * DAY_MS;
    const old = events.find((e) => e.created_at && Date.parse(e.created_at) < limit);
    if (old) return old.created_at;
    url = parseLink(res.headers.get("link"), res.exchange.url).next;
    if (!url) return undefined;
  }
  return undefined;
}

export const WINDOW_CASES: Case[] = [
  {
    id: "FEEDS-WINDOW-001",
    title: "No event older than 90 days appears in a feed",
    area: "feeds",
    seed: SEED.limits,
    rules: ["S-LIMIT-AGE", "D-FEED-ORDER", "S-ACTIVITY-EVENT-FIELDS", "D-ACTIVITY-ID", "D-ACTIVITY-TYPE", "D-ACTIVITY-PAYLOADS", "S-PING-NOT-STORED", "D-SCHEMA-ACTIVITY-PUSH-PAYLOAD", "D-SCHEMA-ACTIVITY-CREATE", "D-SCHEMA-ACTIVITY-ISSUES-PR", "D-SCHEMA-ACTIVITY-COMMENT-ACTION", "D-SCHEMA-ACTIVITY-SMALL-PAYLOADS", "D-SCHEMA-ACTIVITY-GOLLUM", "D-SCHEMA-ACTIVITY-STATUS"],
    needs: ["user"],
    async run(ctx) {
      const feeds: Feed[] = [publicEvents(), userEvents(ctx.profile.users[0]!.login)];
      let oldest: string | undefined;
      for (const feed of feeds) {
        const walked = await walk(ctx, feed);
        for (const [i, p] of walked.pages.entries()) {
          const limit = serverNow(p.res.headers.get("date")) - WINDOW_DAYS * DAY_MS - ALLOWANCE_MS;
          p.events.forEach((e, j) => {
            const at = Date.parse(e.created_at);
            check.ok(at >= limit, `${feed.label} page ${i + 1}: event ${e.id} is older than ${WINDOW_DAYS} days`, { expected: `created_at after ${new Date(limit).toISOString()}`, actual: e.created_at, pointer: `/body/${j}/created_at` });
            if (!oldest || e.created_at < oldest) oldest = e.created_at;
          });
        }
      }
      const evidence = await oldActivity(ctx);
      if (!evidence) ctx.skip(`the target shows no activity older than ${WINDOW_DAYS} days (no old issue event in the public repository), so the window cannot be seen; every event shown was inside it`);
      ctx.note(`oldest event shown: ${oldest ?? "none"}; activity from ${evidence} exists but is not shown`);
    },
  },
];
