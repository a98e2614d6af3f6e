/**
 * HOOKS-CREATE/READ/EDIT/DELETE-*: a repository webhook's life through the API (contract:
 * createRepoHook, listRepoHooks, getRepoHook, updateRepoHook, deleteRepoHook; seed: Events ›
 * Webhook subscription — default `push`, `*` replacing the other names, the list changeable at
 * any time; organization-only events). Every response is validated against the contract by
 * operationId, so these cases check the Hook shape everywhere; on top they check what a schema
 * cannot: the values the request set, the write-only secret absent from the raw text, `*`
 * replacing the others, and a deleted hook gone. HOOKS-CREATE-006 goes past the seed (DECISIONS:
 * Hook egress): hooks may never point at link-local or cloud metadata addresses.
 */
import type { Case, CaseDraft, CaseContext, Need } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import { HttpClient } from "../../core/http.ts";
import { check, type Checks } from "../../core/failure.ts";
import { parseLink } from "../feeds/link.ts";
import {
  checkHookStatus,
  is2xx,
  sameEvents,
  checkEvents,
  checkSecretHidden,
  createBody,
  freshSecret,
  hookPath,
  hookRequest,
  installHook,
  placeName,
  receiverOf,
  removeHook,
  repoPlace,
  SEED,
  withHook,
  type Hook,
  type Installed,
  type Place,
} from "./support.ts";

const NEEDS: readonly Need[] = ["hook-admin", "public-repo", "receiver"];

function hookCase(id: string, title: string, seed: string, run: (ctx: CaseContext, id: string) => Promise<void>): CaseDraft {
  return { id, title, area: "hooks", seed, needs: NEEDS, run: (ctx) => run(ctx, id) };
}

/** Every hook on the place, following rel="next" (at most 20 pages). */
async function listAll(ctx: CaseContext, place: Place): Promise<{ hooks: Hook[]; texts: string[] }> {
  const hooks: Hook[] = [];
  const texts: string[] = [];
  for (let page = 1; page <= 20; page++) {
    const res = await hookRequest(ctx, place, "list", page === 1 ? {} : { page });
    checkHookStatus(ctx, res.status, 200, `GET ${placeName(place)}${page > 1 ? `?page=${page}` : ""}`);
    const items = res.json<Hook[]>();
    hooks.push(...items);
    texts.push(res.text);
    if (!parseLink(res.headers.get("link"), res.exchange.url).next || items.length === 0) break;
  }
  return { hooks, texts };
}

/** A request that must be refused with 422; a hook it created anyway is removed and the case fails. */
async function expectRefused(ctx: CaseContext, place: Place, body: Record<string, unknown>, what: string): Promise<void> {
  const res = await hookRequest(ctx, place, "create", { json: body });
  if (res.status === 201 || res.status === 200) {
    const created = res.json<Hook>();
    await hookRequest(ctx, place, "remove", { id: created.id, client: new HttpClient(ctx.baseUrl, ctx.authUrl) }).catch(() => undefined);
  }
  check.status(res.status, 422, `${what}: refused with 422 Validation Failed`);
}

/** An edit: any 2xx with the hook; the contract's 200 counts against D-HOOK-STATUSES (the cases calling this name it). */
async function patch(ctx: CaseContext, hook: Installed, body: Record<string, unknown>): Promise<Hook> {
  const res = await hookRequest(ctx, hook.place, "update", { id: hook.id, json: body });
  checkHookStatus(ctx, res.status, 200, `PATCH ${placeName(hook.place)}/${hook.id} ${JSON.stringify(body)}`);
  return res.json<Hook>();
}

/** Whether two URLs are the same, ignoring case; a missing value (a body of another shape) is never the same. */
const sameUrl = (a: unknown, b: unknown) => typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();

/** The rules each case below enforces (spec/seed-rules.yaml, spec/DECISIONS.md). */
const RULES: Record<string, readonly string[]> = {
  // The seed shows no hook API but the name parameter (web); the rest of the answer is the contract's.
  "HOOKS-CREATE-001": ["S-HOOK-NAME-PARAMETER", "D-HOOK-ENDPOINTS", "D-HOOK-STATUSES", "D-SCHEMA-SECRET", "D-SCHEMA-LAST-RESPONSE", "D-SCHEMA-TEST-URL"],
  "HOOKS-CREATE-002": ["S-WEBHOOK-DEFAULT-EVENTS", "D-HOOK-ENDPOINTS"],
  "HOOKS-CREATE-003": ["D-REF-HOOKS-EVENTS", "D-SCHEMA-VALIDATION-ERROR"],
  // The seed: membership and repository are "Organization hooks only"; refusing them on a
  // repository hook (rather than never delivering them) is the contract's choice.
  "HOOKS-CREATE-004": ["D-REF-HOOKS-EVENTS", "D-SCHEMA-VALIDATION-ERROR", "D-HOOK-STATUSES"],
  "HOOKS-CREATE-005": ["D-SCHEMA-VALIDATION-ERROR", "D-REQ-422-CODES", "D-REQ-422-RESOURCE"],
  "HOOKS-CREATE-006": ["D-REF-HOOKS-EGRESS"],
  "HOOKS-READ-001": ["D-HOOK-ENDPOINTS", "D-HOOK-STATUSES", "D-SCHEMA-SECRET"],
  // The seed: the subscribed events "can be changed at any time through the API"; the edit's keys beyond events are the contract's.
  "HOOKS-EDIT-001": ["S-WEBHOOK-DEFAULT-EVENTS", "D-HOOK-ENDPOINTS", "D-HOOK-STATUSES"],
  "HOOKS-EDIT-002": ["S-WEBHOOK-WILDCARD", "D-SCHEMA-HOOK-WILDCARD", "D-HOOK-ENDPOINTS", "D-HOOK-STATUSES"],
  // The seed shows no delete; that it answers 204 is D-HOOK-STATUSES', that the hook is then gone D-HOOK-ENDPOINTS'.
  "HOOKS-DELETE-001": ["D-HOOK-ENDPOINTS", "D-HOOK-STATUSES", "D-ERRORS"],
};

export const MANAGE_CASES: Case[] = withRules(RULES, [
  hookCase("HOOKS-CREATE-001", "Creating a webhook answers 201 with the Hook, its Location, the values sent, and never the secret", SEED.subscription, async (ctx, id) => {
    const place = repoPlace(ctx);
    const secret = freshSecret();
    await withHook(ctx, place, id, { events: ["push", "issues"], contentType: "json", secret }, async (hook) => {
      const body = hook.hook;
      check.equal(body.name, "web", "name is web", "/body/name");
      // 201 with a Location naming the new hook: D-HOOK-STATUSES, apart from the hook's shape.
      const statuses: Checks = ctx.rule("D-HOOK-STATUSES");
      statuses.status(hook.response.status, 201, `POST ${placeName(place)} creates the webhook`);
      // Location is the 201's, so all of it is this decision's: the hook's url when the body has
      // one (its shape is D-HOOK-ENDPOINTS'), else at least a URL ending in the hook's id.
      const location = hook.response.headers.get("location") ?? "";
      const named = typeof body.url === "string" ? sameUrl(location, body.url) : location.toLowerCase().endsWith(`/hooks/${hook.id}`);
      statuses.ok(named, "Location is the created hook's url", { expected: typeof body.url === "string" ? body.url : `…/hooks/${hook.id}`, actual: location || null, pointer: "/headers/location" });
      if (ctx.decisions.off("D-HOOK-ENDPOINTS")) return;
      const api: Checks = ctx.rule("D-HOOK-ENDPOINTS");
      if (!sameEvents(body.events, ["push", "issues"])) api.fail("events are the ones sent", { expected: ["issues", "push"], actual: body.events, pointer: "/body/events" });
      api.equal(body.active, true, "active defaults to true", "/body/active");
      api.equal(body.config.url, hook.url, "config.url is the URL sent", "/body/config/url");
      api.equal(body.config.content_type, "json", "config.content_type is the one sent", "/body/config/content_type");
      checkSecretHidden(hook.response.text, secret, `POST ${placeName(place)}`, ctx.rule("D-SCHEMA-SECRET"));
      api.ok(place.kind === "repo" && body.url.toLowerCase().endsWith(`/repos/${place.owner}/${place.repo}/hooks/${hook.id}`.toLowerCase()), "url is the hook's API URL, …/repos/:owner/:repo/hooks/:id", {
        expected: `…/repos/${place.kind === "repo" ? place.full : ""}/hooks/${hook.id}`,
        actual: body.url,
        pointer: "/body/url",
      });
      api.ok(sameUrl(body.ping_url, `${body.url}/pings`), "ping_url is the hook's url + /pings", { expected: `${body.url}/pings`, actual: body.ping_url, pointer: "/body/ping_url" });
      // test_url is D-SCHEMA-TEST-URL's (a target without it declares that, not the whole hook API).
      ctx.rule("D-SCHEMA-TEST-URL").ok(sameUrl(body.test_url, `${body.url}/tests`), "test_url is the hook's url + /tests", { expected: `${body.url}/tests`, actual: body.test_url, pointer: "/body/test_url" });
    });
  }),

  hookCase("HOOKS-CREATE-002", "A webhook created with only name and config.url: events [\"push\"], active, JSON content", SEED.subscription, async (ctx, id) => {
    await withHook(ctx, repoPlace(ctx), id, {}, async (hook) => {
      checkEvents(hook.hook.events, ["push"], 'events default to ["push"] (the seed: "Default: only push")');
      const api: Checks = ctx.rule("D-HOOK-ENDPOINTS");
      api.equal(hook.hook.active, true, "active defaults to true", "/body/active");
      const type = hook.hook.config?.content_type;
      api.ok(type === undefined || type === "json", "content_type defaults to json", { expected: "json (or left out)", actual: type, pointer: "/body/config/content_type" });
    });
  }),

  hookCase("HOOKS-CREATE-003", "A second webhook with the same URL on the repository is refused with 422", SEED.subscription, async (ctx, id) => {
    const place = repoPlace(ctx);
    await withHook(ctx, place, id, {}, async (hook) => {
      await expectRefused(ctx, place, createBody(hook.url, { events: ["issues"] }), `a second webhook posting to ${hook.url}`);
    });
  }),

  hookCase("HOOKS-CREATE-004", "Organization-only events (membership, repository) on a repository hook are refused with 422", SEED.subscription, async (ctx, id) => {
    const place = repoPlace(ctx);
    const url = receiverOf(ctx).url(hookPath(id, "refused"));
    for (const event of ["membership", "repository"]) await expectRefused(ctx, place, createBody(url, { events: ["push", event] }), `a repository webhook subscribing to ${event}`);
    await withHook(ctx, place, id, { events: ["push"] }, async (hook) => {
      for (const event of ["membership", "repository"]) {
        const res = await hookRequest(ctx, place, "update", { id: hook.id, json: { add_events: [event] } });
        check.status(res.status, 422, `PATCH add_events [${event}] on a repository hook: refused with 422 Validation Failed`);
      }
      const after = await hookRequest(ctx, place, "get", { id: hook.id });
      checkHookStatus(ctx, after.status, 200, `GET ${placeName(place)}/${hook.id}`);
      checkEvents(after.json<Hook>().events, ["push"], "a refused edit leaves the events as they were");
    });
  }),

  hookCase("HOOKS-CREATE-005", "A webhook without config.url is refused with 422", SEED.endpoints, async (ctx) => {
    await expectRefused(ctx, repoPlace(ctx), { name: "web", config: { content_type: "json" }, events: ["push"] }, "a webhook without config.url");
  }),

  hookCase(
    "HOOKS-CREATE-006",
    "A webhook at a link-local or cloud metadata address (169.254.169.254, [fe80::1], metadata.google.internal) is refused with 422",
    "spec/DECISIONS.md › Hook egress",
    async (ctx) => {
      for (const url of ["http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/hook", "http://metadata.google.internal/computeMetadata/v1/"]) {
        await expectRefused(ctx, repoPlace(ctx), { name: "web", config: { url, content_type: "json" }, events: ["push"], active: false }, `a webhook posting to ${url}`);
      }
    },
  ),

  hookCase("HOOKS-READ-001", "The created hook is in the list and readable by id, the same in both, without its secret", SEED.endpoints, async (ctx, id) => {
    const place = repoPlace(ctx);
    const secret = freshSecret();
    await withHook(ctx, place, id, { events: ["push", "issues"], secret }, async (hook) => {
      const stable = (h: Hook) => ({ id: h.id, url: h.url, name: h.name, events: [...h.events].sort(), active: h.active, config_url: h.config.url });
      const { hooks, texts } = await listAll(ctx, place);
      const listed = hooks.find((h) => h.id === hook.id);
      check.ok(listed, `GET ${placeName(place)} lists the created hook ${hook.id}`, { expected: hook.id, actual: hooks.map((h) => h.id), pointer: "/body" });
      check.equal(stable(listed), stable(hook.hook), "the listed hook is the created one", "/body");
      for (const text of texts) checkSecretHidden(text, secret, `GET ${placeName(place)}`);
      const one = await hookRequest(ctx, place, "get", { id: hook.id });
      checkHookStatus(ctx, one.status, 200, `GET ${placeName(place)}/${hook.id}`);
      check.equal(stable(one.json<Hook>()), stable(hook.hook), "the hook read by id is the created one", "/body");
      checkSecretHidden(one.text, secret, `GET ${placeName(place)}/${hook.id}`);
    });
  }),

  hookCase("HOOKS-EDIT-001", "Editing: add_events adds, remove_events removes, events replaces, left-out keys keep their value", SEED.subscription, async (ctx, id) => {
    await withHook(ctx, repoPlace(ctx), id, { events: ["push"] }, async (hook) => {
      // The seed: "The subscribed event list can be changed at any time through the API" — a
      // replaced list is what the hook reads back. add_events, remove_events and active are the
      // contract's edit (D-HOOK-ENDPOINTS), checked when the profile keeps it.
      const api = ctx.decisions.on("D-HOOK-ENDPOINTS");
      if (api) {
        checkEvents((await patch(ctx, hook, { add_events: ["issues"] })).events, ["push", "issues"], "add_events [issues] on [push]");
        checkEvents((await patch(ctx, hook, { remove_events: ["push"] })).events, ["issues"], "remove_events [push] on [push, issues]");
      }
      checkEvents((await patch(ctx, hook, { events: ["push", "pull_request"] })).events, ["push", "pull_request"], `events [push, pull_request] replaces [${api ? "issues" : "push"}]`);
      if (api) {
        const paused = await patch(ctx, hook, { active: false });
        check.equal(paused.active, false, "active: false is kept", "/body/active");
        checkEvents(paused.events, ["push", "pull_request"], "an edit without events keeps them");
        check.equal(paused.config.url, hook.url, "an edit without config keeps config.url", "/body/config/url");
      }
      const read = await hookRequest(ctx, hook.place, "get", { id: hook.id });
      check.ok(is2xx(read.status), `GET ${placeName(hook.place)}/${hook.id} reads the hook back`, { expected: "2xx", actual: read.status, pointer: "/status" });
      const got = read.json<Hook>();
      checkEvents(got?.events, ["pull_request", "push"], "GET shows the replaced events");
      if (api) check.equal(got.active, false, "GET shows the edits", "/body/active");
    });
  }),

  hookCase("HOOKS-EDIT-002", "The wildcard * replaces every other event name, on create, in events and in add_events", SEED.subscription, async (ctx, id) => {
    await withHook(ctx, repoPlace(ctx), id, { events: ["push", "*"] }, async (hook) => {
      check.equal(hook.hook.events, ["*"], 'created with [push, *]: events are exactly ["*"]', "/body/events");
      checkEvents((await patch(ctx, hook, { events: ["issues", "push"] })).events, ["issues", "push"], "events [issues, push] replaces [*]");
      // add_events is the contract's edit (D-HOOK-ENDPOINTS); `events` holding * is the seed's case.
      if (ctx.decisions.on("D-HOOK-ENDPOINTS")) check.equal((await patch(ctx, hook, { add_events: ["*"] })).events, ["*"], 'add_events [*] on [issues, push]: events are exactly ["*"]', "/body/events");
      await patch(ctx, hook, { events: ["issues"] });
      check.equal((await patch(ctx, hook, { events: ["watch", "*"] })).events, ["*"], 'events [watch, *]: exactly ["*"]', "/body/events");
    });
  }),

  hookCase("HOOKS-DELETE-001", "Deleting a hook answers 204; then it is 404 to read, to delete again and gone from the list", SEED.endpoints, async (ctx, id) => {
    const place = repoPlace(ctx);
    const hook = await installHook(ctx, place, id, {});
    let deleted = false;
    try {
      const res = await hookRequest(ctx, place, "remove", { id: hook.id });
      checkHookStatus(ctx, res.status, 204, `DELETE ${placeName(place)}/${hook.id}`);
      deleted = true;
      const read = await hookRequest(ctx, place, "get", { id: hook.id });
      check.status(read.status, 404, `GET ${placeName(place)}/${hook.id} after the delete`);
      const again = await hookRequest(ctx, place, "remove", { id: hook.id });
      check.status(again.status, 404, `DELETE ${placeName(place)}/${hook.id} a second time`);
      const { hooks } = await listAll(ctx, place);
      check.ok(!hooks.some((h) => h.id === hook.id), `GET ${placeName(place)} no longer lists hook ${hook.id}`, { expected: `no hook ${hook.id}`, actual: hooks.map((h) => h.id), pointer: "/body" });
    } finally {
      if (!deleted) await removeHook(ctx, hook, false);
    }
  }),
]);
