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
import { HttpClient } from "../../core/http.ts";
import { check, type Checks } from "../../core/failure.ts";
import { webhookEvents } from "../../../generated/validators/index.js";
import { adminToken, createBody, hookRequest, placeName, repoPlace, SEED, type Hook, type Place } from "./support.ts";

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

async function catalogEntry(ctx: CaseContext, name: string): Promise<CatalogEntry> {
  const res = await ctx.http.request({ operationId: "listServiceHooks", token: adminToken(ctx) });
  check.status(res.status, 200, "GET /hooks");
  const entry = res.json<CatalogEntry[]>().find((s) => s.name === name);
  check.ok(entry, `the catalog (GET /hooks) lists the profile's service ${name}`, { expected: name, actual: res.json<CatalogEntry[]>().map((s) => s.name), pointer: "/body" });
  return entry;
}

/** Every hook of the service on the place (first page; a repository has few hooks). */
async function hooksNamed(ctx: CaseContext, place: Place, name: string): Promise<Hook[]> {
  const res = await hookRequest(ctx, place, "list");
  check.status(res.status, 200, `GET ${placeName(place)}`);
  return res.json<Hook[]>().filter((h) => h.name === name);
}

/** Deletes what a case made, on a side client (the case's last request stays the one reported). */
async function remove(ctx: CaseContext, place: Place, ids: Iterable<number>): Promise<void> {
  const side = new HttpClient(ctx.baseUrl, ctx.authUrl);
  for (const id of ids) await hookRequest(ctx, place, "remove", { id, client: side }).catch(() => undefined);
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
function changedConfig(service: ProfileServiceHook, entry: CatalogEntry): { config: Record<string, string>; key?: string } {
  const stringKey = entry.schema.find(([type, key]) => type === "string" && key in service.config && !/url|domain|host/i.test(key))?.[1];
  if (!stringKey) return { config: { ...service.config } };
  return { config: { ...service.config, [stringKey]: `${service.config[stringKey]}-again` }, key: stringKey };
}

export const SERVICE_HOOK_CASES: Case[] = [
  {
    id: "HOOKS-SERVICE-001",
    title: "A service hook is created with its service name and catalog defaults; creating it again updates that one hook (200) instead of adding one",
    area: "hooks",
    seed: SEED.services,
    rules: ["S-SERVICE-HOOKS", "D-REF-HOOKS-SERVICE-CATALOG", "D-SCHEMA-SERVICE-HOOK-CONFIG"],
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
        d.status(first.status, 201, "the first install answers 201 Created");
        d.equal([...hook.events].sort(), [...entry.events].sort(), "created without events, the hook has the service's default events (its catalog entry's events)", "/body/events");
        const c: Checks = ctx.rule("D-SCHEMA-SERVICE-HOOK-CONFIG");
        const keys = entry.schema.map(([, key]) => key);
        c.ok(!("url" in hook.config) || keys.includes("url"), "a service hook's config has no url of its own (only the service's keys)", { expected: keys, actual: Object.keys(hook.config), pointer: "/body/config" });
        c.ok(Object.keys(hook.config).every((k) => keys.includes(k)), "the config holds only keys of the service's catalog schema", { expected: keys, actual: Object.keys(hook.config), pointer: "/body/config" });
        c.ok(Object.values(hook.config).every((v) => typeof v === "string"), "config values are strings", { actual: hook.config, pointer: "/body/config" });

        const events = entry.supported_events.filter((e) => e !== "*").slice(0, 1);
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

        const gone = await hookRequest(ctx, place, "remove", { id: hook.id });
        check.status(gone.status, 204, `DELETE ${placeName(place)}/${hook.id} removes the service hook`);
        made.delete(hook.id);
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
      const outside = webhookEvents.find((e) => e !== "ping" && !ORG_ONLY.includes(e) && !entry.supported_events.includes(e));
      if (outside) await expectNoHook(ctx, place, { name: service.name, config: service.config, events: [outside] }, `a ${service.name} hook subscribed to ${outside}, which its catalog entry does not support`, "D-REF-HOOKS-EVENTS");
      else ctx.note(`${service.name} supports every webhook event: no event outside its set to try`);
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
