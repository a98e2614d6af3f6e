/**
 * HOOKS-SERVICE-* and HOOKS-NAME-*: service hooks (seed: Events › Service hooks — "Created like
 * webhooks, with the name parameter set to a service name instead of web. Installed on
 * repositories only, not organizations. One service hook per integrator per repository … Each
 * service supports only its own set of events and has its own configuration options"). The
 * profile names the service, a config it accepts and the repository (`serviceHook`); the catalog
 * (`GET /hooks`) says the service's default and supported events and config keys. What the seed
 * states is checked with `check`: the hook is made with the service's name, on a repository and
 * never an organization, once per repository, with events of its own set only. The contract's
 * choices (`ctx.rule`): creating again answers 200 with the updated hook (D-REF-HOOKS-SERVICE-CATALOG),
 * a service config has no `url` (D-SCHEMA-SERVICE-HOOK-CONFIG), refusals are 422 (D-REF-HOOKS-EVENTS).
 */
import type { Case, CaseContext } from "../../core/types.ts";
import type { ProfileServiceHook } from "../../core/profile.ts";
import type { HttpResponse } from "../../core/http.ts";
import { check, type Checks } from "../../core/failure.ts";
import { webhookEvents } from "../../../generated/validators/index.js";
import { adminToken, createBody, hookRequest, placeName, removeQuietly, repoPlace, SEED, type Hook, type Place } from "./support.ts";

interface CatalogEntry {
  name: string;
  events: string[];
  supported_events: string[];
  schema: [string, string][];
}

/** Organization-only events: never offered to a repository hook, so never "outside the set" for the wrong reason. */
const ORG_ONLY = ["membership", "repository"];

function serviceOf(ctx: CaseContext): ProfileServiceHook {
  const s = ctx.profile.serviceHook;
  if (!s) ctx.skip("profile has no service hook to install (serviceHook: repo, name, config)");
  return s;
}

function placeOf(service: ProfileServiceHook): Place {
  const [owner = "", repo = ""] = service.repo.split("/");
  return { kind: "repo", owner, repo, full: service.repo };
}

/**
 * The profile's service in the catalog (`GET /hooks`), read whatever its shape: the seed shows
 * none (its shape is D-SERVICE-CATALOG-SHAPE). The contract's entry `{ name, events,
 * supported_events, schema }` is taken as it is; any other shape is searched for an object that
 * names the service (a `name`/`key`/… value or the key it sits under) and holds a list of event
 * names, which is taken as the service's supported events. Undefined when nothing like it is
 * there: the case then checks only what needs no catalog, and says so. Never throws on a shape.
 */
async function catalogEntry(ctx: CaseContext, name: string): Promise<Partial<CatalogEntry> | undefined> {
  const res = await ctx.http.request({ operationId: "listServiceHooks", token: adminToken(ctx) });
  check.status(res.status, 200, "GET /hooks");
  const body = res.json<unknown>();
  const contract = Array.isArray(body) ? (body as unknown[]).find((s): s is CatalogEntry => isObject(s) && s.name === name && Array.isArray(s.events) && Array.isArray(s.supported_events)) : undefined;
  if (contract) return { ...contract, schema: Array.isArray(contract.schema) ? contract.schema : [] };
  const found = findService(body, name);
  if (!found) {
    ctx.note(`the catalog (GET /hooks) names no service ${name} in a shape the suite can read; the checks that need its events were left out`);
    return undefined;
  }
  return found;
}

function isObject(v: unknown): v is Record<string, any> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

const EVENT_NAMES = new Set<string>(["*", ...webhookEvents]);

/** Depth-first: an object naming `name` (or under the key `name`) with an array of event names. */
function findService(node: unknown, name: string, key?: string, depth = 0): Partial<CatalogEntry> | undefined {
  if (depth > 6) return undefined;
  if (Array.isArray(node)) {
    for (const item of node.slice(0, 500)) {
      const hit = findService(item, name, undefined, depth + 1);
      if (hit) return hit;
    }
    return undefined;
  }
  if (!isObject(node)) return undefined;
  const named = key === name || Object.values(node).some((v) => v === name);
  if (named) {
    const lists = Object.values(node).filter((v): v is string[] => Array.isArray(v) && v.length > 0 && v.every((e) => typeof e === "string" && EVENT_NAMES.has(e)));
    if (lists.length > 0) {
      const supported = lists.reduce((a, b) => (b.length > a.length ? b : a));
      return { name, supported_events: supported };
    }
  }
  for (const [k, v] of Object.entries(node).slice(0, 500)) {
    const hit = findService(v, name, k, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

/** Every hook of the service on the place (first page; a repository has few hooks). */
async function hooksNamed(ctx: CaseContext, place: Place, name: string): Promise<Hook[]> {
  const res = await hookRequest(ctx, place, "list");
  check.status(res.status, 200, `GET ${placeName(place)}`);
  const list = res.json<unknown>();
  // The list's shape is the contract's (an array of hooks); another is reported, never thrown on.
  check.ok(Array.isArray(list), `GET ${placeName(place)} lists the hooks as an array`, { expected: "an array of hooks", actual: res.text.slice(0, 160), pointer: "/body" });
  return (list as Hook[]).filter((h) => isObject(h) && h.name === name);
}

/** Deletes what a case made, on a side client (the case's last request stays the one reported). */
async function remove(ctx: CaseContext, place: Place, ids: Iterable<number>): Promise<void> {
  for (const id of ids) await removeQuietly(ctx, place, id);
}

const is2xx = (res: HttpResponse) => res.status >= 200 && res.status < 300;

/** A request the seed says must not create a hook: a 4xx, and anything it created anyway removed. */
async function expectNoHook(ctx: CaseContext, place: Place, body: Record<string, unknown>, what: string, rule?: string): Promise<void> {
  const res = await hookRequest(ctx, place, "create", { json: body });
  if (is2xx(res)) await remove(ctx, place, [res.json<Hook>().id]);
  check.ok(res.status >= 400 && res.status < 500, `${what}: refused`, { expected: "a 4xx refusal", actual: `${res.status} ${res.text.slice(0, 160)}`, pointer: "/status" });
  if (rule) ctx.rule(rule).status(res.status, 422, `${what}: 422 Validation Failed`);
}

/** The config sent again with every string value changed, so the second create's effect shows. */
function changedConfig(service: ProfileServiceHook, entry: Partial<CatalogEntry> | undefined): { config: Record<string, string>; key?: string } {
  const stringKey = (entry?.schema ?? []).find(([type, key]) => type === "string" && key in service.config && !/url|domain|host/i.test(key))?.[1];
  if (!stringKey) return { config: { ...service.config } };
  return { config: { ...service.config, [stringKey]: `${service.config[stringKey]}-again` }, key: stringKey };
}

export const SERVICE_HOOK_CASES: Case[] = [
  {
    id: "HOOKS-SERVICE-001",
    title: "A service hook is created with its service name and catalog defaults; creating it again updates that one hook (200) instead of adding one",
    area: "hooks",
    seed: SEED.services,
    rules: ["S-SERVICE-HOOKS", "D-REF-HOOKS-SERVICE-CATALOG", "D-SCHEMA-SERVICE-HOOK-CONFIG", "D-HOOK-ENDPOINTS", "D-HOOK-STATUSES"],
    needs: ["service-hook"],
    async run(ctx) {
      const service = serviceOf(ctx);
      const place = placeOf(service);
      const entry = await catalogEntry(ctx, service.name);
      if ((await hooksNamed(ctx, place, service.name)).length > 0) ctx.skip(`${service.repo} already has a ${service.name} service hook, which the case would change (serviceHook.repo should name a repository without one)`);
      const made = new Set<number>();
      try {
        const first = await hookRequest(ctx, place, "create", { json: { name: service.name, config: service.config } });
        if (is2xx(first)) made.add(first.json<Hook>().id);
        check.ok(is2xx(first), `POST ${placeName(place)} with name ${service.name} installs the service hook`, { expected: "2xx", actual: `${first.status} ${first.text.slice(0, 160)}`, pointer: "/status" });
        const hook = first.json<Hook>();
        check.equal(hook.name, service.name, "the hook's name is the service's", "/body/name");
        const d: Checks = ctx.rule("D-REF-HOOKS-SERVICE-CATALOG");
        // Its status is the hook API's like any create's (one departure, one switch: a target that
        // creates every hook with 200 fails D-HOOK-STATUSES alone, issue 40).
        ctx.rule("D-HOOK-STATUSES").status(first.status, 201, "the first install answers 201 Created");
        if (entry?.events) d.equal([...(hook.events ?? [])].sort(), [...entry.events].sort(), "created without events, the hook has the service's default events (its catalog entry's events)", "/body/events");
        const c: Checks = ctx.rule("D-SCHEMA-SERVICE-HOOK-CONFIG");
        const keys = (entry?.schema ?? []).map(([, key]) => key);
        const hookConfig = isObject(hook.config) ? hook.config : {};
        if (entry?.schema) {
          c.ok(!("url" in hookConfig) || keys.includes("url"), "a service hook's config has no url of its own (only the service's keys)", { expected: keys, actual: Object.keys(hookConfig), pointer: "/body/config" });
          c.ok(Object.keys(hookConfig).every((k) => keys.includes(k)), "the config holds only keys of the service's catalog schema", { expected: keys, actual: Object.keys(hookConfig), pointer: "/body/config" });
        }
        c.ok(isObject(hook.config) && Object.values(hookConfig).every((v) => typeof v === "string"), "config values are strings", { actual: hook.config, pointer: "/body/config" });

        // An event of the service's own set; without a readable catalog, its first event as created.
        const events = (entry?.supported_events ?? hook.events ?? []).filter((e) => e !== "*").slice(0, 1);
        const { config, key } = changedConfig(service, entry);
        const second = await hookRequest(ctx, place, "create", { json: { name: service.name, config, events } });
        if (is2xx(second)) made.add(second.json<Hook>().id);
        const after = await hooksNamed(ctx, place, service.name);
        for (const h of after) made.add(h.id);
        check.equal(after.map((h) => h.id), [hook.id], `one ${service.name} hook per repository: after creating it twice, the repository has the one hook`, "/body");
        d.status(second.status, 200, "creating the service again answers 200 with the existing hook, updated");
        // Read only when it is a hook: a target that refuses the second create (the seed allows it) declares this decision off.
        const updated = is2xx(second) ? second.json<Hook>() : undefined;
        d.equal(updated?.id, hook.id, "the second create answers the same hook", "/body/id");
        d.equal([...(updated?.events ?? [])].sort(), [...events].sort(), "the second create's events are taken", "/body/events");
        if (key) d.equal(updated?.config?.[key], config[key], `the second create's config.${key} is taken`, `/body/config/${key}`);
        d.equal(second.headers.get("location"), null, "an update has no Location", "/headers/location");

        // Removing it is the contract's API (the seed shows none); whatever it answers, the finally removes what is left.
        const gone = await hookRequest(ctx, place, "remove", { id: hook.id });
        ctx.rule("D-HOOK-STATUSES").status(gone.status, 204, `DELETE ${placeName(place)}/${hook.id} removes the service hook`);
        if (is2xx(gone)) made.delete(hook.id);
      } finally {
        await remove(ctx, place, made);
      }
    },
  },
  {
    id: "HOOKS-SERVICE-002",
    title: "A service hook is refused on an organization, with an event outside the service's set, and with *",
    area: "hooks",
    seed: SEED.services,
    rules: ["S-SERVICE-HOOKS", "D-REF-HOOKS-EVENTS"],
    needs: ["service-hook", "org"],
    async run(ctx) {
      const service = serviceOf(ctx);
      const place = placeOf(service);
      const entry = await catalogEntry(ctx, service.name);
      await expectNoHook(ctx, { kind: "org", org: ctx.profile.org! }, { name: service.name, config: service.config }, `a ${service.name} service hook on the organization ${ctx.profile.org} (repositories only)`);
      const supported = entry?.supported_events;
      const outside = supported ? webhookEvents.find((e) => e !== "ping" && !ORG_ONLY.includes(e) && !supported.includes(e)) : undefined;
      if (!supported) ctx.note(`without ${service.name}'s events from the catalog, no event outside its set to try`);
      else if (outside) await expectNoHook(ctx, place, { name: service.name, config: service.config, events: [outside] }, `a ${service.name} hook subscribed to ${outside}, which its catalog entry does not support`, "D-REF-HOOKS-EVENTS");
      else if (supported) ctx.note(`${service.name} supports every webhook event: no event outside its set to try`);
      const wildcard = await hookRequest(ctx, place, "create", { json: { name: service.name, config: service.config, events: ["*"] } });
      if (is2xx(wildcard)) await remove(ctx, place, [wildcard.json<Hook>().id]);
      ctx.rule("D-REF-HOOKS-EVENTS").status(wildcard.status, 422, `a ${service.name} hook subscribed to * (a service has its own set): 422`);
    },
  },
  {
    id: "HOOKS-NAME-001",
    title: "A hook name that is not a lower-case service-name token (Web, -web, we b, empty) is refused with 422",
    area: "hooks",
    seed: SEED.endpoints,
    rules: ["D-SCHEMA-HOOK-NAME"],
    needs: ["hook-admin", "public-repo"],
    async run(ctx) {
      const place = repoPlace(ctx);
      for (const name of ["Web", "-web", "we b", ""]) {
        const res = await hookRequest(ctx, place, "create", { json: { ...createBody("https://conformance.invalid/hook", {}), name } });
        if (is2xx(res)) await remove(ctx, place, [res.json<Hook>().id]);
        check.status(res.status, 422, `name ${JSON.stringify(name)}: 422`);
      }
    },
  },
];
