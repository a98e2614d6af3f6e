/**
 * WEBHOOK-HEADERS-*: the headers of every delivery (seed: Events › Delivery headers —
 * X-Service-Event, X-Service-Delivery "Unique ID of the delivery", Content-Type application/json,
 * User-Agent `Service-Hookshot/…`). The delivery ID is any non-empty string, different from one
 * delivery to the next (the reference sends UUIDs; nothing may require that form:
 * D-REF-HOOKS-DELIVERY-ID); the Content-Type is compared as a media type, so
 * `application/json; charset=utf-8` is application/json. Each delivery's event is judged from its
 * payload (a ping has zen and hook_id, a push ref and commits), so a wrong X-Service-Event is
 * caught rather than trusted.
 */
import type { Case } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { freshSecret, repoPlace, SEED, withHook } from "../hooks/support.ts";
import { checkMediaType, eventOf, JSON_TYPE, kindOf, nameOf, pushAndPing, webhookCase } from "./support.ts";

/** The rules each case below enforces (spec/seed-rules.yaml, spec/DECISIONS.md). */
const RULES: Record<string, readonly string[]> = {
  "WEBHOOK-HEADERS-001": ["S-DELIVERY-HEADERS", "S-WEBHOOK-POST-JSON", "D-REF-HOOKS-USER-AGENT"],
};

export const HEADER_CASES: Case[] = withRules(RULES, [
  webhookCase(
    "WEBHOOK-HEADERS-001",
    "Every delivery carries X-Service-Event, its own X-Service-Delivery, a Service-Hookshot/ User-Agent and Content-Type application/json",
    SEED.headers,
    ["trigger"],
    async (ctx, id) => {
      await withHook(ctx, repoPlace(ctx), id, { events: ["push"], secret: freshSecret() }, async (hook) => {
        const all = await pushAndPing(ctx, hook);
        for (const d of all) {
          const name = nameOf(d, all);
          check.equal(d.method, "POST", `${name}: a delivery is an HTTP POST`, "/method");
          const kind = kindOf(d);
          check.ok(kind, `${name}: a hook subscribed to push gets ping and push payloads only`, { expected: "a ping (zen, hook_id) or push (ref, commits) payload", actual: d.raw.toString("utf8").slice(0, 200), pointer: "/body" });
          check.equal(eventOf(d), kind, `${name}: X-Service-Event names the event of the payload`, "/headers/x-service-event");
          check.matches(d.headers["x-service-delivery"], /\S/, `${name}: X-Service-Delivery is the delivery's ID (a non-empty string)`, "/headers/x-service-delivery");
          check.matches(d.headers["user-agent"], /^Service-Hookshot\//, `${name}: User-Agent begins with Service-Hookshot/`, "/headers/user-agent");
          checkMediaType(check, d, JSON_TYPE, `${name}: Content-Type is application/json (parameters such as charset aside)`);
        }
        const ids = all.map((d) => d.headers["x-service-delivery"]);
        check.equal(new Set(ids).size, ids.length, "each delivery has its own X-Service-Delivery", "/headers/x-service-delivery");
      });
    },
  ),
]);
