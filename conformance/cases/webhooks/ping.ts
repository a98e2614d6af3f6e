/**
 * WEBHOOK-PING-*: the ping event (seed: Events › Ping event — "When a webhook is created, a ping
 * event is sent to it … It can be triggered again through the ping endpoint"; Resources › Ping
 * payload: zen, hook_id, hook). The payload is checked against the ping webhook schema, and
 * hook_id (and hook.id) against the id the create request returned — which a schema cannot.
 */
import type { Case } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import type { Checks } from "../../core/failure.ts";
import { freshSecret, repoPlace, sameEvents, SEED, withHook, type Hook } from "../hooks/support.ts";
import { checkPing, creationPing, isPingFor, mark, pingNow, PING_RULES, waitAt, webhookCase } from "./support.ts";

/** The rules each case below enforces (spec/seed-rules.yaml, spec/DECISIONS.md). */
const RULES: Record<string, readonly string[]> = {
  "WEBHOOK-PING-001": ["S-PING", ...PING_RULES],
  // The ping endpoint's path and its 204 are the contract's (the seed: "can be triggered again through the ping endpoint").
  "WEBHOOK-PING-002": ["S-PING", "D-PING-ENDPOINT", "S-DELIVERY-HEADERS", ...PING_RULES],
};

export const PING_CASES: Case[] = withRules(RULES, [
  webhookCase("WEBHOOK-PING-001", "Creating a webhook sends it a ping whose hook_id and hook are the created hook", SEED.ping, [], async (ctx, id) => {
    const place = repoPlace(ctx);
    const secret = freshSecret();
    await withHook(ctx, place, id, { events: ["push", "issues"], secret }, async (hook) => {
      const ping = await waitAt(ctx, hook.path, "the ping sent when the webhook was created", isPingFor(hook.id));
      const payload = checkPing(ctx, ping, hook.id, "the creation ping");
      // The hook's fields in the ping are not shown in the seed: the contract's (D-PING-HOOK-FIELDS).
      if (ctx.decisions.off("D-PING-HOOK-FIELDS")) return;
      const fields: Checks = ctx.rule("D-PING-HOOK-FIELDS");
      const sent = payload.hook as Hook;
      if (!sameEvents(sent.events, ["push", "issues"])) fields.fail("the ping's hook has the hook's events", { expected: ["issues", "push"], actual: sent.events, pointer: "/body/hook/events" });
      fields.equal(sent.config?.url, hook.url, "the ping's hook has the hook's config.url", "/body/hook/config/url");
      fields.ok(!ping.raw.toString("utf8").includes(secret), "the ping payload's hook: the config secret is write-only and never sent", { expected: "no secret in the payload", actual: "the secret appears in the body", pointer: "/body/hook/config/secret" });
      const repository = (payload.repository as { full_name?: string } | undefined)?.full_name;
      const pingSchema: Checks = ctx.rule("D-SCHEMA-WEBHOOK-PING");
      if (repository !== undefined && place.kind === "repo") pingSchema.ok(repository.toLowerCase() === place.full.toLowerCase(), "the ping's repository is the hook's", { expected: place.full, actual: repository, pointer: "/body/repository/full_name" });
    });
  }),

  webhookCase("WEBHOOK-PING-002", "POST …/hooks/:id/pings answers 204 (the contract's status) and sends a new ping delivery", SEED.ping, [], async (ctx, id) => {
    const place = repoPlace(ctx);
    await withHook(ctx, place, id, {}, async (hook) => {
      const creation = await creationPing(ctx, hook);
      const before = mark(ctx, hook.path);
      await pingNow(ctx, hook, true);
      const ping = await before.next("the ping sent by POST …/pings", isPingFor(hook.id));
      checkPing(ctx, ping, hook.id, "the ping endpoint's ping");
      if (creation) ctx.rule("S-DELIVERY-HEADERS").notEqual(ping.headers["x-service-delivery"], creation.headers["x-service-delivery"], "the endpoint's ping is a new delivery (its own X-Service-Delivery)", "/headers/x-service-delivery");
    });
  }),
]);
