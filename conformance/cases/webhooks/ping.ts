/**
 * WEBHOOK-PING-*: the ping event (seed: Events › Ping event — "When a webhook is created, a ping
 * event is sent to it … It can be triggered again through the ping endpoint"; Resources › Ping
 * payload: zen, hook_id, hook). The payload is checked against the ping webhook schema, and
 * hook_id (and hook.id) against the id the create request returned — which a schema cannot.
 */
import type { Case } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { checkEvents, checkSecretHidden, freshSecret, hookRequest, placeName, repoPlace, SEED, withHook, type Hook } from "../hooks/support.ts";
import { checkPing, creationPing, isPingFor, mark, waitAt, webhookCase } from "./support.ts";

/** The rules each case below enforces (spec/seed-rules.yaml, spec/DECISIONS.md). */
const RULES: Record<string, readonly string[]> = {
  "WEBHOOK-PING-001": ["S-PING", "S-PING-PAYLOAD", "D-PING-HOOK-FIELDS", "D-SCHEMA-WEBHOOK-PING"],
  "WEBHOOK-PING-002": ["S-PING", "D-PING-ENDPOINT"],
};

export const PING_CASES: Case[] = withRules(RULES, [
  webhookCase("WEBHOOK-PING-001", "Creating a webhook sends it a ping whose hook_id and hook are the created hook", SEED.ping, [], async (ctx, id) => {
    const place = repoPlace(ctx);
    const secret = freshSecret();
    await withHook(ctx, place, id, { events: ["push", "issues"], secret }, async (hook) => {
      const ping = await waitAt(ctx, hook.path, "the ping sent when the webhook was created", isPingFor(hook.id));
      const payload = checkPing(ping, hook.id, "the creation ping");
      const sent = payload.hook as Hook;
      checkEvents(sent.events, ["push", "issues"], "the ping's hook has the hook's events", "/body/hook/events");
      check.equal(sent.config?.url, hook.url, "the ping's hook has the hook's config.url", "/body/hook/config/url");
      checkSecretHidden(ping.raw.toString("utf8"), secret, "the ping payload's hook");
      const repository = (payload.repository as { full_name?: string } | undefined)?.full_name;
      if (repository !== undefined && place.kind === "repo") check.ok(repository.toLowerCase() === place.full.toLowerCase(), "the ping's repository is the hook's", { expected: place.full, actual: repository, pointer: "/body/repository/full_name" });
    });
  }),

  webhookCase("WEBHOOK-PING-002", "POST …/hooks/:id/pings answers 204 and sends a new ping delivery", SEED.ping, [], async (ctx, id) => {
    const place = repoPlace(ctx);
    await withHook(ctx, place, id, {}, async (hook) => {
      const creation = await creationPing(ctx, hook);
      const before = mark(ctx, hook.path);
      const res = await hookRequest(ctx, place, "ping", { id: hook.id });
      check.status(res.status, 204, `POST ${placeName(place)}/${hook.id}/pings`);
      const ping = await before.next("the ping sent by POST …/pings", isPingFor(hook.id));
      checkPing(ping, hook.id, "the ping endpoint's ping");
      if (creation) check.notEqual(ping.headers["x-service-delivery"], creation.headers["x-service-delivery"], "the endpoint's ping is a new delivery (its own X-Service-Delivery)", "/headers/x-service-delivery");
    });
  }),
]);
