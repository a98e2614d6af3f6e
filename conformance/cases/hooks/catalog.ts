/**
 * HOOKS-CATALOG-*: the service hook catalog `GET /hooks` (seed: Endpoints › C, "Lists available
 * service hooks with their supported events and configuration options"; contract:
 * listServiceHooks — not paginated, `web` first). The shape is the contract's check; this case
 * adds what the shape cannot say: `web` comes first, subscribes to `push` by default (the seed's
 * default) and supports every webhook event name and the wildcard, and names are unique.
 */
import type { Case } from "../../core/types.ts";
import { check, type Checks } from "../../core/failure.ts";
import { webhookEvents } from "../../../generated/validators/index.js";
import { SEED } from "./support.ts";

interface ServiceHook {
  name: string;
  title: string;
  events: string[];
  supported_events: string[];
  schema: [string, string][];
}

/** Every subscribable name: the contract's webhook events without `ping`, plus `*`. */
const SUBSCRIBABLE = ["*", ...webhookEvents.filter((e) => e !== "ping")];

export const CATALOG_CASES: Case[] = [
  {
    id: "HOOKS-CATALOG-001",
    title: "GET /hooks lists web first, subscribed to push by default and supporting every event and *",
    area: "hooks",
    seed: SEED.endpoints,
    rules: ["S-SERVICE-HOOK-CATALOG", "D-SERVICE-CATALOG-SHAPE", "D-SCHEMA-CATALOG", "D-REF-HOOKS-SERVICE-CATALOG"],
    async run(ctx) {
      const token = ctx.profile.users[0]?.token;
      const res = await ctx.http.request({ operationId: "listServiceHooks", ...(token ? { token } : {}) });
      // The seed: GET /hooks answers 200 with JSON listing the services; its shape is not shown.
      check.status(res.status, 200, "GET /hooks");
      res.json<unknown>();
      // The shape, the order (web first) and the entries are the contract's (D-SERVICE-CATALOG-SHAPE).
      if (ctx.decisions.off("D-SERVICE-CATALOG-SHAPE")) return;
      const shape: Checks = ctx.rule("D-SERVICE-CATALOG-SHAPE");
      const services = res.json<unknown>();
      shape.ok(Array.isArray(services), "GET /hooks is an array of services", { actual: typeof services, pointer: "/body" });
      // What follows reads the contract's shape; on another it would throw, so it stops here (the failure above says why).
      if (!Array.isArray(services)) return;
      const entries = services.filter((s): s is ServiceHook => s !== null && typeof s === "object");
      const names = entries.map((s) => s.name);
      shape.equal(new Set(names).size, names.length, "each service is listed once", "/body");
      const web = entries[0];
      shape.equal(web?.name, "web", "the first entry is web, the plain webhook", "/body/0/name");
      shape.equal(web?.events, ["push"], 'web subscribes to ["push"] by default (the seed: "Default: only push")', "/body/0/events");
      const supported = Array.isArray(web?.supported_events) ? web.supported_events : [];
      const missing = SUBSCRIBABLE.filter((e) => !supported.includes(e));
      shape.equal(missing, [], "web supports every webhook event name and *", "/body/0/supported_events");
      const keys = Array.isArray(web?.schema) ? web.schema.map((pair) => (Array.isArray(pair) ? pair[1] : undefined)) : [];
      shape.ok(keys.includes("url"), "web's config keys include url", { expected: "url among the keys", actual: keys, pointer: "/body/0/schema" });
    },
  },
];
