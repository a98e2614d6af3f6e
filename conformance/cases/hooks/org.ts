/**
 * HOOKS-ORG-*: webhooks on the profile's organization (seed: Events › Webhook subscription — "A
 * webhook is installed on an organization or on one repository"; `membership` and `repository`
 * are organization hooks only; Ping event; contract: createOrgHook, listOrgHooks, updateOrgHook,
 * pingOrgHook, deleteOrgHook). The Hook shape (no `test_url` on organization hooks) is the
 * contract validators' check; the cases add the organization-only events being accepted, the
 * ping on creation and on the ping endpoint, and the hook's life through the API.
 */
import type { Case, Need } from "../../core/types.ts";
import type { Checks } from "../../core/failure.ts";
import { checkHookResponse, checkSecretHidden, freshSecret, hookRequest, orgPlace, placeName, sameEvents, SEED, withHook, type Hook } from "./support.ts";
import { checkPing, checkSignatures, isPingFor, mark, pingNow, PING_RULES, waitAt } from "../webhooks/support.ts";

const NEEDS: readonly Need[] = ["user", "org", "receiver"];

export const ORG_CASES: Case[] = [
  {
    id: "HOOKS-ORG-001",
    title: "An organization webhook takes membership and repository, has no test_url, and is pinged on creation",
    area: "hooks",
    seed: SEED.subscription,
    rules: ["S-WEBHOOK-PLACES", "S-PING", "S-WEBHOOK-SIGNATURE", "D-HOOK-ENDPOINTS", "D-SCHEMA-TEST-URL", "D-SCHEMA-SECRET", "D-SIGNATURE", "D-SCHEMA-LAST-RESPONSE", "D-SCHEMA-HOOK-RESPONSE", ...PING_RULES],
    needs: NEEDS,
    async run(ctx) {
      const place = orgPlace(ctx);
      const secret = freshSecret();
      await withHook(ctx, place, "HOOKS-ORG-001", { events: ["membership", "repository"], secret }, async (hook) => {
        // The hook object is the contract's (the seed shows no hook API).
        const api: Checks = ctx.rule("D-HOOK-ENDPOINTS");
        if (ctx.decisions.on("D-HOOK-ENDPOINTS") && !sameEvents(hook.hook.events, ["membership", "repository"])) api.fail("an organization hook keeps the organization-only events", { expected: ["membership", "repository"], actual: hook.hook.events, pointer: "/body/events" });
        api.ok(String(hook.hook.url).toLowerCase().endsWith(`/orgs/${place.kind === "org" ? place.org : ""}/hooks/${hook.id}`.toLowerCase()), "url is the hook's API URL, …/orgs/:org/hooks/:id", { actual: hook.hook.url, pointer: "/body/url" });
        const testUrl: Checks = ctx.rule("D-SCHEMA-TEST-URL");
        testUrl.ok(!("test_url" in hook.hook), "an organization hook has no test_url", { expected: "absent", actual: hook.hook.test_url, pointer: "/body/test_url" });
        // The schema takes an organization hook without last_response, as the real service sends
        // it (D-RECEIVED-RESPONSES); a server of this contract sends it on every hook.
        if (ctx.decisions.on("D-SCHEMA-LAST-RESPONSE")) {
          const last = hook.hook.last_response as { code?: unknown; status?: unknown; message?: unknown } | undefined;
          ctx.rule("D-SCHEMA-LAST-RESPONSE").ok(
            typeof last === "object" && last !== null && "code" in last && typeof last.status === "string" && "message" in last,
            "an organization hook has last_response {code, status, message}",
            { expected: "{code, status, message}", actual: last, pointer: "/body/last_response" },
          );
        }
        checkHookResponse(ctx, hook, { secret }, `POST ${placeName(place)}`);
        if (ctx.decisions.on("D-SCHEMA-SECRET")) checkSecretHidden(hook.response.text, secret, `POST ${placeName(place)}`, ctx.rule("D-SCHEMA-SECRET"));
        const ping = await waitAt(ctx, hook.path, "the ping sent when the organization webhook was created", isPingFor(hook.id));
        const payload = checkPing(ctx, ping, hook.id, "the creation ping");
        checkSignatures(ctx, ping, secret, "the creation ping");
        if (ctx.decisions.on("D-PING-HOOK-FIELDS")) checkSecretHidden(ping.raw.toString("utf8"), secret, "the ping payload's hook", ctx.rule("D-PING-HOOK-FIELDS"));
        const org = (payload.organization as { login?: string } | undefined)?.login;
        const pingSchema: Checks = ctx.rule("D-SCHEMA-WEBHOOK-PING");
        if (org !== undefined && place.kind === "org") pingSchema.ok(org.toLowerCase() === place.org.toLowerCase(), "the ping's organization is the hook's", { expected: place.org, actual: org, pointer: "/body/organization/login" });
      });
    },
  },
  {
    id: "HOOKS-ORG-002",
    title: "An organization webhook is listed, edited, pinged through its ping endpoint and deleted",
    area: "hooks",
    seed: SEED.ping,
    rules: ["S-WEBHOOK-PLACES", "S-PING", "D-PING-ENDPOINT", "D-HOOK-ENDPOINTS", "D-HOOK-STATUSES", ...PING_RULES],
    needs: NEEDS,
    async run(ctx) {
      const place = orgPlace(ctx);
      await withHook(ctx, place, "HOOKS-ORG-002", { events: ["repository"] }, async (hook) => {
        // Listing and editing are the contract's hook API (D-HOOK-ENDPOINTS); when the profile
        // switches it off, only the organization hook's pings are checked (the seed's part).
        if (ctx.decisions.on("D-HOOK-ENDPOINTS")) {
          const api: Checks = ctx.rule("D-HOOK-ENDPOINTS");
          const list = await hookRequest(ctx, place, "list");
          ctx.rule("D-HOOK-STATUSES").status(list.status, 200, `GET ${placeName(place)}`);
          api.ok(list.json<Hook[]>().some((h) => h.id === hook.id), `GET ${placeName(place)} lists the new hook`, { expected: hook.id, actual: list.json<Hook[]>().map((h) => h.id), pointer: "/body" });
          const edited = await hookRequest(ctx, place, "update", { id: hook.id, json: { add_events: ["membership"] } });
          ctx.rule("D-HOOK-STATUSES").status(edited.status, 200, `PATCH ${placeName(place)}/${hook.id}`);
          if (!sameEvents(edited.json<Hook>().events, ["membership", "repository"])) api.fail("add_events [membership] on [repository]", { expected: ["membership", "repository"], actual: edited.json<Hook>().events, pointer: "/body/events" });
        }
        // The creation ping first (if any), so the endpoint's ping is told apart from it.
        await waitAt(ctx, hook.path, "the creation ping", isPingFor(hook.id)).catch(() => ctx.note("no ping arrived on creation (HOOKS-ORG-001 checks that)"));
        const before = mark(ctx, hook.path);
        await pingNow(ctx, hook, true);
        checkPing(ctx, await before.next("the ping sent by POST …/pings", isPingFor(hook.id)), hook.id, "the ping endpoint's ping");
      });
    },
  },
];
