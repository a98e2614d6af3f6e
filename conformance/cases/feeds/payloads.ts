/**
 * FEEDS-PAYLOAD-*: what a server of this contract puts in the payloads the response schemas take
 * loosely. The schemas accept a feed's `PushEvent` without `size`, `distinct_size` and `commits`
 * and a repository's `CreateEvent` whose `ref` is the default branch, because the real service
 * sends them so (D-RECEIVED-RESPONSES: a client validating what it receives must not reject it);
 * this contract's own choices stay D-SCHEMA-ACTIVITY-PUSH-PAYLOAD (the three fields, at most 20
 * commits) and D-SCHEMA-ACTIVITY-CREATE (`ref` null exactly when a repository was created), and
 * these cases hold an implementation to them.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { check, type Checks } from "../../core/failure.ts";
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
      const created = await newest(ctx, repo.full, "CreateEvent", (e) => e.payload.ref_type === "branch");
      rule.equal(created.payload.ref, branch, "a branch's CreateEvent names the branch in ref", "/body/*/payload/ref");
      if (!(ctx.profile.triggers?.repository?.length ?? 0)) ctx.skip("profile has no trigger for a new repository (repository); the branch was checked");
      const name = `conformance-payload-${Date.now().toString(36)}`;
      await ctx.trigger("repository", { name });
      const full = `${repo.owner}/${name}`;
      const made = await newest(ctx, full, "CreateEvent", (e) => e.payload.ref_type === "repository");
      rule.equal(made.payload.ref, null, `the new repository's CreateEvent has ref null (${full})`, "/body/*/payload/ref");
    },
  },
];
