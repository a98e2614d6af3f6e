/**
 * WEBHOOK-CONTENT-*: the two body formats (seed: Events › Webhook subscription — "Each delivery
 * is an HTTP POST with a JSON body"; DESIGN and contract HookConfig.content_type: `json`, the
 * default, sends the payload itself as `application/json`; `form` sends
 * `payload=<url-encoded JSON>` as `application/x-www-form-urlencoded`). The payload read from
 * either is checked against the webhook schema of its X-Service-Event.
 */
import type { Case } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { repoPlace, SEED, withHook } from "../hooks/support.ts";
import { checkPayloadSchema, eventOf, FORM_TYPE, JSON_TYPE, nameOf, payloadOf, pushAndPing, webhookCase } from "./support.ts";

/** The rules each case below enforces (spec/seed-rules.yaml, spec/DECISIONS.md). */
const RULES: Record<string, readonly string[]> = {
  "WEBHOOK-CONTENT-001": ["S-WEBHOOK-POST-JSON", "D-DELIVERY-CONTENT-TYPE"],
  "WEBHOOK-CONTENT-002": ["D-DELIVERY-CONTENT-TYPE"],
};

export const CONTENT_CASES: Case[] = withRules(RULES, [
  webhookCase("WEBHOOK-CONTENT-001", "content_type json (the default): Content-Type application/json and the body is the JSON payload itself", SEED.headers, ["trigger"], async (ctx, id) => {
    await withHook(ctx, repoPlace(ctx), id, { events: ["push"] }, async (hook) => {
      const type = hook.hook.config.content_type;
      check.ok(type === undefined || type === "json", "a hook created without content_type is json", { expected: "json (or left out)", actual: type, pointer: "/body/config/content_type" });
      const all = await pushAndPing(ctx, hook);
      for (const d of all) {
        const name = nameOf(d, all);
        check.equal(d.headers["content-type"], JSON_TYPE, `${name}: Content-Type is application/json`, "/headers/content-type");
        let body: unknown;
        try {
          body = JSON.parse(d.raw.toString("utf8"));
        } catch {
          check.fail(`${name}: the body is the JSON payload itself`, { expected: "a JSON object", actual: d.raw.toString("utf8").slice(0, 200), pointer: "/body" });
        }
        check.ok(body !== null && typeof body === "object" && !Array.isArray(body), `${name}: the body is a JSON object`, { actual: body, pointer: "/body" });
        checkPayloadSchema(eventOf(d), body, name);
      }
    });
  }),

  webhookCase("WEBHOOK-CONTENT-002", "content_type form: Content-Type application/x-www-form-urlencoded and the body is payload=<url-encoded JSON>", SEED.headers, ["trigger"], async (ctx, id) => {
    await withHook(ctx, repoPlace(ctx), id, { events: ["push"], contentType: "form" }, async (hook) => {
      check.equal(hook.hook.config.content_type, "form", "config.content_type is form", "/body/config/content_type");
      const all = await pushAndPing(ctx, hook);
      for (const d of all) {
        const name = nameOf(d, all);
        check.equal(d.headers["content-type"], FORM_TYPE, `${name}: Content-Type is ${FORM_TYPE}`, "/headers/content-type");
        const text = d.raw.toString("utf8");
        const fields = [...new URLSearchParams(text).keys()];
        check.ok(text.startsWith("payload=") && fields.length === 1, `${name}: the form body is the single field payload`, { expected: "payload=<url-encoded JSON>", actual: text.slice(0, 200), pointer: "/body" });
        checkPayloadSchema(eventOf(d), payloadOf(d), name);
      }
    });
  }),
]);
