/**
 * WEBHOOK-DEFAULT/WILDCARD/ACTIVE-*: which events reach a hook (seed: Events › Webhook
 * subscription — "Default: only push", the wildcard `*` matching every event; the hook's
 * `active` flag: whether deliveries are sent). Proving that something is NOT delivered needs a
 * later delivery to wait for: the unsubscribed event is triggered first, then a push; once the
 * push has arrived the receiver listens a little longer and nothing else may have come: a few
 * times as long as the target took to deliver (support.ts quietMs), at most QUIET_MS.
 */
import type { Case } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { checkEvents, checkHookStatus, hookRequest, placeName, repoPlace, SEED, withHook, type Hook } from "../hooks/support.ts";
import { deliveriesAt, eventOf, isEvent, mark, nameOf, noteDeliveryTime, quietMs, sleep, summarize, waitAt, webhookCase } from "./support.ts";

/** The rules each case below enforces (spec/seed-rules.yaml, spec/DECISIONS.md). */
const RULES: Record<string, readonly string[]> = {
  "WEBHOOK-DEFAULT-001": ["S-WEBHOOK-DEFAULT-EVENTS"],
  "WEBHOOK-WILDCARD-001": ["S-WEBHOOK-WILDCARD"],
  // The seed shows no `active` flag (D-HOOK-ENDPOINTS); the edit's exact status is D-HOOK-STATUSES'.
  "WEBHOOK-ACTIVE-001": ["D-HOOK-ENDPOINTS", "D-HOOK-STATUSES"],
};

export const SUBSCRIPTION_CASES: Case[] = withRules(RULES, [
  webhookCase("WEBHOOK-DEFAULT-001", "A webhook created without events gets push deliveries and nothing else (no issues)", SEED.subscription, ["trigger"], async (ctx, id) => {
    await withHook(ctx, repoPlace(ctx), id, {}, async (hook) => {
      checkEvents(hook.hook.events, ["push"], 'a webhook created without events subscribes to ["push"]');
      // The unsubscribed event first: by the time the push is in, it would have been sent too.
      const started = Date.now();
      await ctx.trigger("issues");
      await ctx.trigger("push");
      await waitAt(ctx, hook.path, "a push delivery (the default subscription)", isEvent("push"));
      // Listened for a few times as long as both events took to be made and the push to arrive.
      await sleep(quietMs(ctx, Date.now() - started));
      const all = deliveriesAt(ctx, hook.path);
      const unsubscribed = all.filter((d) => eventOf(d) !== "push" && eventOf(d) !== "ping");
      check.equal(unsubscribed.map(summarize), [], "a hook subscribed to push only is sent push (and ping) deliveries only, not the issues event triggered before the push", "/headers/x-service-event");
    });
  }),

  webhookCase("WEBHOOK-WILDCARD-001", "A webhook subscribed to * gets push and issues deliveries, each under its own event name", SEED.subscription, ["trigger"], async (ctx, id) => {
    await withHook(ctx, repoPlace(ctx), id, { events: ["*"] }, async (hook) => {
      check.equal(hook.hook.events, ["*"], 'events are ["*"]', "/body/events");
      const started = Date.now();
      await ctx.trigger("push");
      await ctx.trigger("issues");
      await waitAt(ctx, hook.path, "a push delivery (* matches every event)", isEvent("push"));
      await waitAt(ctx, hook.path, "an issues delivery (* matches every event)", isEvent("issues"));
      noteDeliveryTime(ctx, Date.now() - started);
      const all = deliveriesAt(ctx, hook.path);
      for (const d of all) check.notEqual(eventOf(d), "*", `${nameOf(d, all)}: X-Service-Event names the event, never *`, "/headers/x-service-event");
    });
  }),

  webhookCase("WEBHOOK-ACTIVE-001", "An inactive webhook is sent nothing; once made active it gets the next push", SEED.subscription, ["trigger"], async (ctx, id) => {
    const place = repoPlace(ctx);
    await withHook(ctx, place, id, { events: ["push"], active: false }, async (hook) => {
      check.equal(hook.hook.active, false, "active: false is kept", "/body/active");
      await ctx.trigger("push");
      // Nothing to time in this case yet: as long as the run's deliveries say (QUIET_MS before any).
      await sleep(quietMs(ctx));
      check.equal(deliveriesAt(ctx, hook.path).map(summarize), [], "an inactive hook is sent nothing: neither the creation ping nor the push", "/headers/x-service-event");
      const res = await hookRequest(ctx, place, "update", { id: hook.id, json: { active: true } });
      checkHookStatus(ctx, res.status, 200, `PATCH ${placeName(place)}/${hook.id} {"active":true}`);
      check.equal(res.json<Hook>().active, true, "the hook is active again", "/body/active");
      const before = mark(ctx, hook.path);
      const started = Date.now();
      await ctx.trigger("push");
      await before.next("a push delivery once the hook is active", isEvent("push"));
      noteDeliveryTime(ctx, Date.now() - started);
      const pushes = deliveriesAt(ctx, hook.path).filter(isEvent("push"));
      check.equal(pushes.length, 1, "only the push after activation is delivered", "/headers/x-service-event");
    });
  }),
]);
