/**
 * WEBHOOK-CONTENT-*: the two body formats (seed: Events › Webhook subscription — "Each delivery
 * is an HTTP POST with a JSON body"; DESIGN and contract HookConfig.content_type: `json`, the
 * default, sends the payload itself as `application/json`; `form` sends
 * `payload=<url-encoded JSON>` as `application/x-www-form-urlencoded`). Content-Type is compared
 * as a media type (a `charset` parameter does not change it). The payload read from either must
 * be the event's (a ping or a push by its fields); WEBHOOK-PAYLOAD-* hold it to its schema.
 */
import type { Case } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import { check, type Checks } from "../../core/failure.ts";
import { repoPlace, SEED, withHook } from "../hooks/support.ts";
import { checkMediaType, eventOf, FORM_TYPE, JSON_TYPE, kindOf, nameOf, payloadOf, pushAndPing, webhookCase } from "./support.ts";
import type { ReceivedDelivery } from "../../core/receiver.ts";
import { needsDecision } from "../profile.ts";

/** The body carries the payload of the event its header names (a ping or a push, by their fields). */
function checkKind(d: ReceivedDelivery, name: string): void {
  check.equal(kindOf(d) ?? "neither a ping nor a push payload", eventOf(d), `${name}: the body is the payload of the ${eventOf(d) ?? "?"} event`, "/body");
}

/** The rules each case below enforces (spec/seed-rules.yaml, spec/DECISIONS.md). */
const RULES: Record<string, readonly string[]> = {
  "WEBHOOK-CONTENT-001": ["S-WEBHOOK-POST-JSON", "S-DELIVERY-HEADERS", "D-DELIVERY-CONTENT-TYPE"],
  "WEBHOOK-CONTENT-002": ["D-DELIVERY-CONTENT-TYPE"],
};

export const CONTENT_CASES: Case[] = withRules(RULES, [
  webhookCase("WEBHOOK-CONTENT-001", "content_type json (the default): Content-Type application/json and the body is the JSON payload itself", SEED.headers, ["trigger"], async (ctx, id) => {
    await withHook(ctx, repoPlace(ctx), id, { events: ["push"] }, async (hook) => {
      const type = hook.hook.config?.content_type;
      // The hook's config is the contract's (the seed shows no hook API).
      const config: Checks = ctx.rule("D-DELIVERY-CONTENT-TYPE");
      config.ok(type === undefined || type === "json", "a hook created without content_type is json", { expected: "json (or left out)", actual: type, pointer: "/body/config/content_type" });
      const all = await pushAndPing(ctx, hook);
      for (const d of all) {
        const name = nameOf(d, all);
        checkMediaType(ctx.rule("S-DELIVERY-HEADERS"), d, JSON_TYPE, `${name}: Content-Type is application/json (parameters such as charset aside)`);
        let body: unknown;
        try {
          body = JSON.parse(d.raw.toString("utf8"));
        } catch {
          check.fail(`${name}: the body is the JSON payload itself`, { expected: "a JSON object", actual: d.raw.toString("utf8").slice(0, 200), pointer: "/body" });
        }
        check.ok(body !== null && typeof body === "object" && !Array.isArray(body), `${name}: the body is a JSON object`, { actual: body, pointer: "/body" });
        checkKind(d, name);
      }
    });
  }),

  webhookCase("WEBHOOK-CONTENT-002", "content_type form: Content-Type application/x-www-form-urlencoded and the body is payload=<url-encoded JSON>", SEED.headers, ["trigger"], async (ctx, id) => {
    needsDecision(ctx, "D-DELIVERY-CONTENT-TYPE", "a hook of content_type form");
    await withHook(ctx, repoPlace(ctx), id, { events: ["push"], contentType: "form" }, async (hook) => {
      check.equal(hook.hook.config.content_type, "form", "config.content_type is form", "/body/config/content_type");
      const all = await pushAndPing(ctx, hook);
      for (const d of all) {
        const name = nameOf(d, all);
        checkMediaType(check, d, FORM_TYPE, `${name}: Content-Type is ${FORM_TYPE}`);
        const text = d.raw.toString("utf8");
        const fields = [...new URLSearchParams(text).keys()];
        check.ok(text.startsWith("payload=") && fields.length === 1, `${name}: the form body is the single field payload`, { expected: "payload=<url-encoded JSON>", actual: text.slice(0, 200), pointer: "/body" });
        payloadOf(d);
        checkKind(d, name);
      }
    });
  }),
]);
