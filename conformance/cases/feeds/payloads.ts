/**
 * FEEDS-PAYLOAD-*: what a server of this contract puts in the payloads the response schemas take
 * loosely. The schemas accept a feed's `PushEvent` without `size`, `distinct_size` and `commits`
 * and a repository's `CreateEvent` whose `ref` is the default branch, because the real service
 * sends them so (D-RECEIVED-RESPONSES: a client validating what it receives must not reject it);
 * this contract's own choices stay D-SCHEMA-ACTIVITY-PUSH-PAYLOAD (the three fields, at most 20
 * commits) and D-SCHEMA-ACTIVITY-CREATE (`ref` null exactly when a repository was created), and
 * these cases hold an implementation to them. Likewise the objects a feed payload embeds: the
 * schemas take the real service's short forms (a minimal pull request, partial comments, …), and
 * FEEDS-PAYLOAD-003 holds a server of this contract to the full ones (D-SCHEMA-ACTIVITY-FEED-OBJECTS).
 */
import { validateSchema } from "../../../generated/validators/index.js";
import type { Case, CaseContext } from "../../core/types.ts";
import { CaseFailure, check, SkipCase, type Checks } from "../../core/failure.ts";
import { publicRepo } from "../profile.ts";
import { page, repoEvents, SEED, type ActivityEvent } from "./support.ts";

/** The newest event of `type` on page 1 of the repository's feed that `pick` accepts, after the trigger. */
async function newest(ctx: CaseContext, full: string, type: string, pick: (e: ActivityEvent) => boolean = () => true): Promise<ActivityEvent> {
  const feed = repoEvents(full);
  const { res, events } = await page(ctx, feed);
  check.status(res.status, 200, feed.label);
  const found = events.find((e) => e.type === type && pick(e));
  check.ok(found, `${feed.label}: the triggered ${type} is on page 1`, { expected: `a ${type}`, actual: events.map((e) => `${e.id} ${e.type}`), pointer: "/body" });
  return found;
}

export const PAYLOAD_CASES: Case[] = [
  {
    id: "FEEDS-PAYLOAD-001",
    title: "A PushEvent's payload has size, distinct_size and commits (at most 20)",
    area: "feeds",
    seed: SEED.feeds,
    rules: ["D-SCHEMA-ACTIVITY-PUSH-PAYLOAD"],
    needs: ["user", "public-repo", "trigger"],
    async run(ctx) {
      const repo = publicRepo(ctx);
      await ctx.trigger("push", {});
      const push = await newest(ctx, repo.full, "PushEvent");
      const p = push.payload;
      const rule: Checks = ctx.rule("D-SCHEMA-ACTIVITY-PUSH-PAYLOAD");
      const count = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
      rule.ok(count(p.size), "size: the number of commits pushed", { expected: "an integer ≥ 0", actual: p.size, pointer: "/body/*/payload/size" });
      rule.ok(count(p.distinct_size), "distinct_size: the number of distinct commits", { expected: "an integer ≥ 0", actual: p.distinct_size, pointer: "/body/*/payload/distinct_size" });
      rule.ok(Array.isArray(p.commits), "commits: the pushed commits", { expected: "an array", actual: p.commits, pointer: "/body/*/payload/commits" });
      const commits = p.commits as unknown[];
      rule.ok(commits.length <= 20 && commits.length <= (p.size as number), "commits: at most 20, and no more than size", { expected: `at most ${Math.min(20, p.size as number)}`, actual: commits.length, pointer: "/body/*/payload/commits" });
    },
  },
  {
    id: "FEEDS-PAYLOAD-002",
    title: "A CreateEvent's ref: the branch's name for a branch, null for a new repository",
    area: "feeds",
    seed: SEED.feeds,
    rules: ["D-SCHEMA-ACTIVITY-CREATE"],
    needs: ["user", "public-repo", "trigger"],
    async run(ctx) {
      const repo = publicRepo(ctx);
      const rule: Checks = ctx.rule("D-SCHEMA-ACTIVITY-CREATE");
      const branch = `conformance-payload-${Date.now().toString(36)}`;
      await ctx.trigger("create", { ref_type: "branch", ref: branch });
      const branchEvent = await newest(ctx, repo.full, "CreateEvent", (e) => e.payload.ref_type === "branch");
      rule.equal(branchEvent.payload.ref, branch, "a branch's CreateEvent names the branch in ref", "/body/*/payload/ref");
      if (!(ctx.profile.triggers?.repository?.length ?? 0)) ctx.skip("profile has no trigger for a new repository (repository); the branch was checked");
      const name = `conformance-payload-${Date.now().toString(36)}`;
      // Where the new repository lives is the target's (users[0]'s, the organization's): its
      // trigger's answer may say; else it is taken to be users[0]'s, next to the public one.
      const made = await ctx.trigger("repository", { name });
      const full = made.repository ?? `${repo.owner}/${name}`;
      const created = await newest(ctx, full, "CreateEvent", (e) => e.payload.ref_type === "repository");
      rule.equal(created.payload.ref, null, `the new repository's CreateEvent has ref null (${full})`, "/body/*/payload/ref");
    },
  },
  {
    id: "FEEDS-PAYLOAD-003",
    title: "A feed payload embeds the full objects its webhook payload carries (pull request, comments, forkee, gollum pages, create description, asset uploader)",
    area: "feeds",
    seed: SEED.feeds,
    rules: ["D-SCHEMA-ACTIVITY-FEED-OBJECTS"],
    needs: ["user", "public-repo", "trigger"],
    async run(ctx) {
      const repo = publicRepo(ctx);
      const rule: Checks = ctx.rule("D-SCHEMA-ACTIVITY-FEED-OBJECTS");
      const full = (schema: string, value: unknown, what: string, pointer: string) => {
        const verdict = validateSchema(schema, value);
        rule.ok(verdict.valid, `${what} is a full ${schema}`, { expected: `a valid ${schema}`, actual: verdict.valid ? value : verdict.errors.slice(0, 3), pointer });
      };
      const objects: { event: string; type: string; check: (p: Record<string, unknown>) => void }[] = [
        { event: "pull_request", type: "PullRequestEvent", check: (p) => full("PullRequest", p.pull_request, "a PullRequestEvent's pull_request", "/body/*/payload/pull_request") },
        {
          event: "pull_request_review_comment",
          type: "PullRequestReviewCommentEvent",
          check: (p) => {
            full("PullRequest", p.pull_request, "a PullRequestReviewCommentEvent's pull_request", "/body/*/payload/pull_request");
            full("PullRequestReviewComment", p.comment, "a PullRequestReviewCommentEvent's comment", "/body/*/payload/comment");
          },
        },
        { event: "commit_comment", type: "CommitCommentEvent", check: (p) => full("CommitComment", p.comment, "a CommitCommentEvent's comment", "/body/*/payload/comment") },
        { event: "issue_comment", type: "IssueCommentEvent", check: (p) => full("IssueComment", p.comment, "an IssueCommentEvent's comment", "/body/*/payload/comment") },
        { event: "fork", type: "ForkEvent", check: (p) => full("Repository", p.forkee, "a ForkEvent's forkee", "/body/*/payload/forkee") },
        {
          event: "gollum",
          type: "GollumEvent",
          check: (p) => {
            const pages = Array.isArray(p.pages) ? (p.pages as Record<string, unknown>[]) : [];
            rule.ok(pages.length > 0, "a GollumEvent has its pages", { expected: "at least one page", actual: p.pages, pointer: "/body/*/payload/pages" });
            for (const [i, page] of pages.entries()) {
              const complete =
                typeof page.page_name === "string" && typeof page.title === "string" && (page.summary === null || typeof page.summary === "string") &&
                (page.action === "created" || page.action === "edited") && /^[0-9a-f]{40}$/.test(String(page.sha)) && typeof page.html_url === "string";
              rule.ok(complete, "a gollum page has page_name, title, summary, action created|edited, sha and html_url", { expected: "every field of a page", actual: page, pointer: `/body/*/payload/pages/${i}` });
            }
          },
        },
        {
          event: "create",
          type: "CreateEvent",
          check: (p) => rule.ok("description" in p && (p.description === null || typeof p.description === "string"), "a CreateEvent has the repository's description", { expected: "a string or null", actual: "description" in p ? p.description : "absent", pointer: "/body/*/payload/description" }),
        },
        {
          event: "release",
          type: "ReleaseEvent",
          check: (p) => {
            const assets = ((p.release as { assets?: { uploader?: unknown }[] } | undefined)?.assets ?? []);
            for (const [i, asset] of assets.entries()) full("User", asset.uploader, "a release asset's uploader", `/body/*/payload/release/assets/${i}/uploader`);
          },
        },
      ];
      const available = objects.filter((o) => (ctx.profile.triggers?.[o.event]?.length ?? 0) > 0);
      if (available.length === 0) ctx.skip("profile has no trigger for an event whose payload embeds an object (pull_request, comments, fork, gollum, create, release)");
      // pull_request comes first: its number is what a review comment trigger may need; an issue
      // comment's trigger may need the profile's issue. A trigger the profile refuses leaves its
      // event out (noted); the case skips when none could be made.
      let pullNumber: number | undefined;
      let checked = 0;
      for (const o of available) {
        const params =
          o.event === "pull_request_review_comment" && pullNumber !== undefined
            ? { number: String(pullNumber) }
            : o.event === "issue_comment" && ctx.profile.issue !== undefined
              ? { number: String(ctx.profile.issue) }
              : undefined;
        try {
          await ctx.trigger(o.event, params);
        } catch (error) {
          if (!(error instanceof SkipCase || (error instanceof CaseFailure && /^trigger\b/.test(error.message)))) throw error;
          ctx.note(`${o.event}: not triggered (${error.message})`);
          continue;
        }
        const event = await newest(ctx, repo.full, o.type);
        if (o.event === "pull_request" && Number.isInteger(event.payload.number)) pullNumber = event.payload.number as number;
        o.check(event.payload);
        checked++;
      }
      if (checked === 0) ctx.skip("no trigger of the profile made an event whose payload embeds an object");
    },
  },
];
