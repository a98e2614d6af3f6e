/**
 * ISSUE-EVENTS-LIST-*, -GET-*, -PAGE-*: the three issue event endpoints (seed: Endpoints › B;
 * Resources › Issue event — `issue` absent in the per-issue list, included in the
 * repository-wide list and the single event). Every event read is also held to the per-kind
 * presence rules; unknown ids and issue numbers are 404 in the error shape; the lists carry
 * `Link` (the seed: "Link (lists)"), with 30 per page and rels next and last
 * (D-LIST-PAGINATION), first and prev past page 1 (D-LINK-FIRST-PREV) as the contract chose.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { check, SkipCase, type Checks } from "../../core/failure.ts";
import { checkPresence, checkSingle, issueList, issueNumber, NEEDS, repo, repoList, SEED, single, type IssueEvent } from "./support.ts";

const PAGE_SIZE = 30;

/** The repository's issue events on page 1, made to exist by a trigger when there are none. */
async function someEvents(ctx: CaseContext): Promise<IssueEvent[]> {
  let { events } = await repoList(ctx);
  if (events.length > 0) return events;
  await ctx.trigger("subscribed", { number: String(issueNumber(ctx)) });
  ({ events } = await repoList(ctx));
  if (events.length === 0) ctx.skip("the public repository has no issue events, even after a trigger");
  return events;
}

function checkNotFound(res: { status: number; json<T>(): T }, what: string): void {
  check.status(res.status, 404, what);
  const body = res.json<{ message?: unknown; documentation_url?: unknown }>();
  check.ok(typeof body.message === "string", `${what}: the 404 has the error shape {message, documentation_url}`, { actual: body, pointer: "/body/message" });
}

export const LIST_CASES: Case[] = [
  {
    id: "ISSUE-EVENTS-LIST-001",
    title: "The per-issue list has no issue field, and each event follows its kind's presence rules",
    area: "issue-events",
    seed: SEED.resource,
    rules: ["S-ISSUE-EVENT-ISSUE-FIELD", "S-ISSUE-EVENT-KIND-FIELDS", "D-SCHEMA-ISSUE-EVENT-KIND-FIELDS", "S-ISSUE-EVENT-FIELDS", "S-USER-OBJECT"],
    needs: NEEDS,
    async run(ctx) {
      const number = issueNumber(ctx);
      let { events } = await issueList(ctx, number);
      if (events.length === 0) {
        try {
          await ctx.trigger("subscribed", { number: String(number) });
        } catch (error) {
          if (error instanceof SkipCase) ctx.skip(`issue #${number} has no events and none can be made: ${error.message}`);
          throw error;
        }
        ({ events } = await issueList(ctx, number));
      }
      check.ok(events.length > 0, `issue #${number} has events to look at`, { actual: 0, pointer: "/body" });
      events.forEach((e, i) => {
        check.ok(!("issue" in e), `/issues/${number}/events: event ${e.id} carries issue, which the per-issue list leaves out`, { expected: "no issue field", actual: e.issue, pointer: `/body/${i}/issue` });
        checkPresence(e, `/issues/${number}/events event ${e.id}`, `/body/${i}`);
      });
    },
  },
  {
    id: "ISSUE-EVENTS-LIST-002",
    title: "The repository-wide list has the issue on every event",
    area: "issue-events",
    seed: SEED.resource,
    rules: ["S-ISSUE-EVENT-ISSUE-FIELD", "S-ISSUE-EVENTS-ENDPOINTS", "S-ISSUE-OBJECT", "D-SCHEMA-ISSUE", "D-SCHEMA-MILESTONE"],
    needs: NEEDS,
    async run(ctx) {
      const events = await someEvents(ctx);
      events.forEach((e, i) => {
        check.ok(e.issue && typeof e.issue === "object" && Number.isInteger(e.issue.number), `/issues/events: event ${e.id} carries its issue`, { expected: "an issue object with a number", actual: e.issue, pointer: `/body/${i}/issue` });
        checkPresence(e, `/issues/events event ${e.id}`, `/body/${i}`);
      });
    },
  },
  {
    id: "ISSUE-EVENTS-GET-001",
    title: "A single event has its issue and is the event the list shows",
    area: "issue-events",
    seed: SEED.resource,
    rules: ["S-ISSUE-EVENT-ISSUE-FIELD", "S-ISSUE-EVENTS-ENDPOINTS"],
    needs: NEEDS,
    async run(ctx) {
      const [e] = await someEvents(ctx);
      check.ok(e!.issue, "the list entry carries its issue", { pointer: "/body/0/issue" });
      await checkSingle(ctx, e!, e!.issue!.number);
    },
  },
  {
    id: "ISSUE-EVENTS-GET-002",
    title: "An unknown event id is 404 in the error shape",
    area: "issue-events",
    seed: SEED.endpoints,
    rules: ["D-ERRORS", "D-ISSUE-EVENTS-ORDER"],
    needs: NEEDS,
    async run(ctx) {
      const events = await someEvents(ctx);
      const unknown = Math.max(...events.map((e) => e.id)) + 1_000_000;
      checkNotFound(await single(ctx, unknown), `/issues/events/${unknown}`);
    },
  },
  {
    id: "ISSUE-EVENTS-LIST-003",
    title: "The events of an issue that does not exist are 404 in the error shape",
    area: "issue-events",
    seed: SEED.endpoints,
    rules: ["D-ERRORS", "D-ISSUE-EVENTS-ORDER"],
    needs: NEEDS,
    async run(ctx) {
      const r = repo(ctx);
      const number = 999_999;
      const res = await ctx.http.request({ operationId: "listIssueEventsForIssue", params: { owner: r.owner, repo: r.repo, issue_number: number }, token: ctx.profile.users[0]?.token });
      checkNotFound(res, `/repos/${r.full}/issues/${number}/events`);
    },
  },
  {
    id: "ISSUE-EVENTS-PAGE-001",
    title: "The repository-wide list pages 30 at a time with working Link rels (next, last; first, prev)",
    area: "issue-events",
    seed: SEED.endpoints,
    rules: ["S-ISSUE-EVENTS-ENDPOINTS", "D-LIST-PAGINATION", "D-LINK-FIRST-PREV"],
    needs: NEEDS,
    async run(ctx) {
      let first = await repoList(ctx);
      if (!first.links.next) {
        const missing = PAGE_SIZE + 1 - first.events.length;
        try {
          for (let i = 0; i < missing; i++) await ctx.trigger("subscribed", { number: String(issueNumber(ctx)) });
        } catch (error) {
          if (error instanceof SkipCase) ctx.skip(`the repository has ${first.events.length} issue events, one page, and more cannot be made: ${error.message}`);
          throw error;
        }
        ctx.note(`triggered ${missing} subscribed events`);
        first = await repoList(ctx);
      }
      // The seed: "Link (lists)". Its rels and the page size are the contract's (D-LIST-PAGINATION).
      check.ok(first.res.headers.get("link"), "a list longer than one page carries Link", { expected: "a Link header", actual: null, pointer: "/headers/link" });
      if (ctx.decisions.off("D-LIST-PAGINATION")) return;
      const lists: Checks = ctx.rule("D-LIST-PAGINATION");
      lists.equal(first.events.length, PAGE_SIZE, "page 1 of a list longer than one page holds 30 events", "/body");
      const { next, last } = first.links;
      lists.ok(next && last, 'page 1 links rel="next" and rel="last"', { expected: "next and last", actual: first.res.headers.get("link"), pointer: "/headers/link" });
      const viaNext = await repoList(ctx, { url: next });
      const second = await repoList(ctx, { page: 2 });
      lists.equal(viaNext.events.map((e) => e.id), second.events.map((e) => e.id), `rel="next" (${next}) is page 2`, "/headers/link");
      const overlap = second.events.filter((e) => first.events.some((f) => f.id === e.id));
      lists.equal(overlap.map((e) => e.id), [], "page 2 repeats none of page 1's events", "/body");
      const end = await repoList(ctx, { url: last });
      lists.ok(end.events.length > 0 && end.events.length <= PAGE_SIZE, `the last page (${last}) holds 1 to 30 events`, { actual: end.events.length, pointer: "/body" });
      lists.equal(end.links.next, undefined, 'the last page has no rel="next"', "/headers/link");
      if (ctx.decisions.off("D-LINK-FIRST-PREV")) return;
      const back: Checks = ctx.rule("D-LINK-FIRST-PREV");
      back.ok(second.links.first && second.links.prev, 'page 2 links rel="first" and rel="prev"', { actual: second.res.headers.get("link"), pointer: "/headers/link" });
      const previous = await repoList(ctx, { url: second.links.prev });
      back.equal(previous.events.map((e) => e.id), first.events.map((e) => e.id), `rel="prev" of page 2 (${second.links.prev}) is page 1`, "/headers/link");
    },
  },
];
