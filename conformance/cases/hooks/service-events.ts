/**
 * HOOKS-SERVICE-003: the catalog tells the truth about what a service takes. The seed: `GET /hooks`
 * "lists available service hooks with their supported events" (S-SERVICE-HOOK-CATALOG), and "each
 * service supports only its own set of events" (S-SERVICE-HOOKS) — so an event the service accepts
 * when a hook is created is one its catalog entry lists. The case tries every webhook event the
 * entry leaves out (organization-only ones aside: a repository hook never takes them) and expects
 * each refused; an accepted one is a catalog that omits an event the service still takes. The
 * refusal's status is the contract's (422, D-REF-HOOKS-EVENTS). The catalog's shape is not shown in
 * the seed: the entry is the object whose `name` is the service, its events its `supported_events`,
 * or — another shape — every event name the entry holds. Hooks are created through the contract's
 * endpoints (D-HOOK-ENDPOINTS); what the case made it removes, whatever its checks said.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { HttpClient } from "../../core/http.ts";
import { check } from "../../core/failure.ts";
import { webhookEvents } from "../../../generated/validators/index.js";
import { adminToken, hookRequest, placeName, SEED, type Hook, type Place } from "./support.ts";

/** Organization-only events: never offered to a repository hook. */
const ORG_ONLY = ["membership", "repository"];

/** The first object (depth first) whose `name` is `name`, or the value under the key `name`. */
function findEntry(value: unknown, name: string, depth = 0): Record<string, unknown> | undefined {
  if (depth > 4 || value === null || typeof value !== "object") return undefined;
  if (!Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    if (object.name === name) return object;
    const keyed = object[name];
    if (keyed !== null && typeof keyed === "object" && !Array.isArray(keyed)) return keyed as Record<string, unknown>;
  }
  for (const child of Object.values(value as Record<string, unknown>)) {
    const found = findEntry(child, name, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Every string the entry holds, at any depth. */
function stringsOf(value: unknown, out: Set<string> = new Set(), depth = 0): Set<string> {
  if (depth > 4) return out;
  if (typeof value === "string") out.add(value);
  else if (value !== null && typeof value === "object") for (const child of Object.values(value)) stringsOf(child, out, depth + 1);
  return out;
}

/** The events the catalog lists for the service: its `supported_events`, or every event name the entry names. */
function listedEvents(entry: Record<string, unknown>): string[] {
  if (Array.isArray(entry.supported_events) && entry.supported_events.every((e) => typeof e === "string")) return entry.supported_events as string[];
  const strings = stringsOf(entry);
  return webhookEvents.filter((e) => strings.has(e));
}

async function removeAll(ctx: CaseContext, place: Place, ids: Iterable<number>): Promise<void> {
  const side = new HttpClient(ctx.baseUrl, ctx.authUrl);
  for (const id of ids) await hookRequest(ctx, place, "remove", { id, client: side }).catch(() => undefined);
}

export const SERVICE_EVENT_CASES: Case[] = [
  {
    id: "HOOKS-SERVICE-003",
    title: "Every event a service accepts is listed with it in GET /hooks: each event its catalog entry leaves out is refused",
    area: "hooks",
    seed: SEED.services,
    rules: ["S-SERVICE-HOOK-CATALOG", "S-SERVICE-HOOKS", "D-REF-HOOKS-EVENTS", "D-HOOK-ENDPOINTS"],
    needs: ["service-hook"],
    async run(ctx) {
      const service = ctx.profile.serviceHook;
      if (!service) return ctx.skip("profile has no service hook to install (serviceHook: repo, name, config)");
      if (ctx.decisions.off("D-HOOK-ENDPOINTS")) ctx.skip("not checked: the case creates hooks through the contract's endpoints, and D-HOOK-ENDPOINTS is switched off");
      const [owner = "", repo = ""] = service.repo.split("/");
      const place: Place = { kind: "repo", owner, repo, full: service.repo };
      const catalog = await ctx.http.request({ operationId: "listServiceHooks", token: adminToken(ctx), validate: false });
      check.status(catalog.status, 200, "GET /hooks");
      const entry = findEntry(catalog.json<unknown>(), service.name);
      if (!entry) return ctx.skip(`the catalog (GET /hooks) has no entry the case can read for ${service.name} (an object named so, or under that key)`);
      const listed = listedEvents(entry);
      const existing = await hookRequest(ctx, place, "list");
      check.status(existing.status, 200, `GET ${placeName(place)}`);
      const before = existing.json<Hook[]>();
      if (Array.isArray(before) && before.some((h) => h.name === service.name)) ctx.skip(`${service.repo} already has a ${service.name} service hook, which the case would change (serviceHook.repo should name a repository without one)`);

      const unlisted = webhookEvents.filter((e) => e !== "ping" && !ORG_ONLY.includes(e) && !listed.includes(e));
      const made = new Set<number>();
      const accepted: string[] = [];
      try {
        for (const event of unlisted) {
          const res = await hookRequest(ctx, place, "create", { json: { name: service.name, config: service.config, events: [event] } });
          if (res.status >= 200 && res.status < 300) {
            const id = res.json<Partial<Hook>>().id;
            if (typeof id === "number") made.add(id);
            accepted.push(event);
            continue;
          }
          check.ok(res.status >= 400 && res.status < 500, `${service.name} subscribed to ${event}: refused`, { expected: "a 4xx refusal", actual: `${res.status} ${res.text.slice(0, 160)}`, pointer: "/status" });
          ctx.rule("D-REF-HOOKS-EVENTS").status(res.status, 422, `${service.name} subscribed to ${event}, outside its set: 422`);
        }
        check.equal(accepted, [], `the ${service.name} service accepts only events its catalog entry lists (${listed.join(", ") || "none"}): those it accepted are missing from GET /hooks`, "/body");
        ctx.note(`${unlisted.length} events outside ${service.name}'s listed set, each refused`);
      } finally {
        await removeAll(ctx, place, made);
      }
    },
  },
];
