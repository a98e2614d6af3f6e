/**
 * ISSUE-EVENTS-ORDER-*: the order of the two issue event lists (spec/DECISIONS.md, Issue events:
 * the per-issue list oldest first, the repository-wide list newest first, by `created_at`, then
 * by id). Two events are made to happen on the profile's issue first, so each list holds at least
 * two events to order; the repository-wide list is read over its page boundary when it has one.
 */
import type { Case } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { allOfIssue, issueNumber, NEEDS, repoList, type IssueEvent } from "./support.ts";

const SEED_ORDER = "Endpoints › B. Issue events (spec/DECISIONS.md: Issue events)";

/** Negative when `a` is older than `b` (created_at, then id). */
function age(a: IssueEvent, b: IssueEvent): number {
  return Date.parse(a.created_at) - Date.parse(b.created_at) || a.id - b.id;
}

function checkOrder(events: IssueEvent[], oldestFirst: boolean, where: string): void {
  for (let i = 1; i < events.length; i++) {
    const [a, b] = [events[i - 1]!, events[i]!];
    const wrong = oldestFirst ? age(a, b) > 0 : age(a, b) < 0;
    if (wrong) {
      check.fail(`${where}: ${oldestFirst ? "oldest" : "newest"} first (created_at, then id) — event ${a.id} (${a.created_at}) comes before ${b.id} (${b.created_at})`, {
        expected: `${oldestFirst ? "ascending" : "descending"} (created_at, id)`,
        actual: events.slice(Math.max(0, i - 2), i + 2).map((e) => `${e.id} ${e.created_at}`),
        pointer: `/body/${i}`,
      });
    }
  }
}

async function twoMore(ctx: Parameters<Case["run"]>[0], number: number): Promise<void> {
  await ctx.trigger("subscribed", { number: String(number) });
  await ctx.trigger("subscribed", { number: String(number) });
}

export const ORDER_CASES: Case[] = [
  {
    id: "ISSUE-EVENTS-ORDER-001",
    title: "The per-issue list is oldest first (created_at, then id)",
    area: "issue-events",
    seed: SEED_ORDER,
    rules: ["D-ISSUE-EVENTS-ORDER"],
    needs: [...NEEDS, "trigger"],
    async run(ctx) {
      const number = issueNumber(ctx);
      await twoMore(ctx, number);
      const events = await allOfIssue(ctx, number);
      check.ok(events.length >= 2, `issue #${number} has at least two events to order`, { actual: events.length, pointer: "/body" });
      checkOrder(events, true, `/issues/${number}/events`);
    },
  },
  {
    id: "ISSUE-EVENTS-ORDER-002",
    title: "The repository-wide list is newest first (created_at, then id), across the page boundary",
    area: "issue-events",
    seed: SEED_ORDER,
    rules: ["D-ISSUE-EVENTS-ORDER"],
    needs: [...NEEDS, "trigger"],
    async run(ctx) {
      await twoMore(ctx, issueNumber(ctx));
      const first = await repoList(ctx);
      const events = first.links.next ? [...first.events, ...(await repoList(ctx, { url: first.links.next })).events] : first.events;
      check.ok(events.length >= 2, "the repository has at least two issue events to order", { actual: events.length, pointer: "/body" });
      checkOrder(events, false, "/issues/events");
    },
  },
];
