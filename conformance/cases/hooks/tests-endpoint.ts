/**
 * HOOKS-TESTS-*: `POST /repos/:owner/:repo/hooks/:id/tests` (D-REF-HOOKS-POST-TESTS: 204, and the
 * hook is sent the repository's latest push when it is subscribed to push and active and the
 * repository has a push; nothing otherwise). The case makes a push happen first (the profile's
 * trigger), then installs a push hook and asks for the test: the push delivery must arrive.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import type { HttpResponse } from "../../core/http.ts";
import { check } from "../../core/failure.ts";
import { adminToken, placeName, repoPlace, SEED, withHook, type Place } from "./support.ts";
import { creationPing, eventOf, kindOf, mark } from "../webhooks/support.ts";

function testHook(ctx: CaseContext, place: Place, id: number): Promise<HttpResponse> {
  const { owner, repo } = place as { owner: string; repo: string };
  return ctx.http.request({ operationId: "testRepoHook", params: { owner, repo, hook_id: id }, token: adminToken(ctx) });
}

export const TESTS_ENDPOINT_CASES: Case[] = [
  {
    id: "HOOKS-TESTS-001",
    title: "POST …/hooks/:id/tests answers 204 and sends the latest push to a push hook; a hook without push gets 204 too",
    area: "hooks",
    seed: SEED.subscription,
    rules: ["D-REF-HOOKS-POST-TESTS"],
    needs: ["hook-admin", "public-repo", "receiver", "trigger"],
    async run(ctx) {
      const place = repoPlace(ctx);
      // A push first, so the repository has one to send.
      await ctx.trigger("push");
      await withHook(ctx, place, "HOOKS-TESTS-001", { events: ["push"] }, async (hook) => {
        await creationPing(ctx, hook);
        const before = mark(ctx, hook.path);
        const tested = await testHook(ctx, place, hook.id);
        check.status(tested.status, 204, `POST ${placeName(place)}/${hook.id}/tests`);
        const push = await before.next("the push sent by POST …/tests", (d) => eventOf(d) === "push" || kindOf(d) === "push");
        check.equal(eventOf(push), "push", "the test delivery is a push (X-Service-Event)", "/headers/x-service-event");
      });
      await withHook(ctx, place, "HOOKS-TESTS-001", { events: ["issues"] }, async (hook) => {
        const res = await testHook(ctx, place, hook.id);
        check.status(res.status, 204, `POST ${placeName(place)}/${hook.id}/tests on a hook not subscribed to push`);
      });
    },
  },
];
