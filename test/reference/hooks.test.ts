/**
 * Hook management over HTTP, as the owner of the hooks (octocat administers octocat/hello-world
 * and octo-org): the service catalog; create with its defaults; the event rules (`*` replaces
 * everything, sorted and unique, organization-only events, unknown names); config validation;
 * edit with events / add_events / remove_events and the write-only secret; delete; `Link`
 * pagination; malformed ids. Every response is also checked against the contract by the harness.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { loadSecretKey, openSecret } from "../../reference/hooks/secret-box.ts";
import { MAX_HOOKS_PER_PLACE } from "../../reference/handlers/hooks-manage.ts";
import { insertHook } from "../../reference/store/hooks.ts";
import { ids } from "./feeds-fixtures.ts";
import { fields, ORG_HOOKS, REPO_HOOKS, useHookApi, webhook, type HookReply } from "./hooks-fixtures.ts";

const api = useHookApi();
const { t, call } = api;
let counter = 0;
/** A receiver URL no other hook of the test uses. */
const fresh = () => `https://receiver.example/hooks/${++counter}`;

const create = (path: string, body: unknown) => call("POST", path, api.token, body);

// Each test starts without hooks: a repository or organization holds at most 20
// (D-REF-HOOKS-CAP), and these tests make many more between them.
afterEach(async () => {
  await t.server.db.query("delete from hooks");
});

async function createdHook(path: string, body: unknown): Promise<HookReply> {
  const reply = await create(path, body);
  expect(reply.status, reply.text).toBe(201);
  return reply;
}

describe("service hook catalog", () => {
  it("lists web first, then the services by name, anonymously", async () => {
    const reply = await call("GET", "/hooks", null);
    expect(reply.status).toBe(200);
    const names = (reply.body as { name: string }[]).map((s) => s.name);
    expect(names[0]).toBe("web");
    expect(names.slice(1)).toEqual([...names.slice(1)].sort());
    expect(names).toEqual(["web", "chat", "travis"]);
  });

  it("offers every contract event name on web, and each service's defaults among its supported events", async () => {
    const schema = JSON.parse(readFileSync(new URL("../../spec/schemas/webhook-event-name.json", import.meta.url), "utf8")) as { enum: string[] };
    const catalog = (await call("GET", "/hooks", null)).body as { name: string; events: string[]; supported_events: string[]; schema: [string, string][] }[];
    expect(catalog[0]!.supported_events).toEqual(schema.enum);
    expect(catalog[0]!.schema).toEqual([["string", "url"], ["string", "content_type"], ["password", "secret"], ["boolean", "insecure_ssl"]]);
    for (const service of catalog) {
      for (const event of service.events) expect(service.supported_events).toContain(event);
    }
    expect(catalog.find((s) => s.name === "travis")!.schema).toEqual([["string", "user"], ["password", "token"], ["string", "domain"]]);
  });
});

describe("creating", () => {
  it("answers 201 with Location and the defaults: push, active, json, insecure_ssl 0, unused", async () => {
    const url = fresh();
    const reply = await createdHook(REPO_HOOKS, { name: "web", config: { url } });
    const hook = reply.body;
    expect(reply.headers.get("location")).toBe(hook.url);
    expect(hook.url).toBe(`${t.api}/repos/octocat/hello-world/hooks/${hook.id}`);
    expect(hook).toMatchObject({
      test_url: `${hook.url}/tests`,
      ping_url: `${hook.url}/pings`,
      deliveries_url: `${hook.url}/deliveries`,
      name: "web",
      events: ["push"],
      active: true,
      config: { url, content_type: "json", insecure_ssl: "0" },
      last_response: { code: null, status: "unused", message: null },
    });
    expect(hook.created_at).toBe(hook.updated_at);
  });

  it.each([
    { events: ["watch", "issues", "push"], stored: ["issues", "push", "watch"] },
    { events: ["push", "*", "issues"], stored: ["*"] },
    { events: ["*"], stored: ["*"] },
    { events: [], stored: [] },
  ])("stores events $events as $stored", async ({ events, stored }) => {
    const hook = (await createdHook(REPO_HOOKS, webhook(fresh(), { events }))).body;
    expect(hook.events).toEqual(stored);
    expect((await call("GET", `${REPO_HOOKS}/${hook.id}`, api.token)).body.events).toEqual(stored);
  });

  it("keeps content_type form, insecure_ssl 1 and active false", async () => {
    const hook = (await createdHook(REPO_HOOKS, webhook(fresh(), { active: false }, { content_type: "form", insecure_ssl: "1" }))).body;
    expect(hook.active).toBe(false);
    expect(hook.config).toMatchObject({ content_type: "form", insecure_ssl: "1" });
  });

  it("creates organization webhooks without test_url, organization-only events allowed", async () => {
    const hook = (await createdHook(ORG_HOOKS, webhook(fresh(), { events: ["repository", "membership"] }))).body;
    expect(hook.url).toBe(`${t.api}/orgs/octo-org/hooks/${hook.id}`);
    expect(hook.test_url).toBeUndefined();
    expect(hook.events).toEqual(["membership", "repository"]);
  });

  it.each([
    { name: "organization-only event membership", path: REPO_HOOKS, body: webhook("https://a.example/1", { events: ["push", "membership"] }), field: "events" },
    { name: "organization-only event repository", path: REPO_HOOKS, body: webhook("https://a.example/2", { events: ["repository"] }), field: "events" },
    { name: "an unknown event", path: REPO_HOOKS, body: webhook("https://a.example/3", { events: ["pushed"] }), field: "events[0]" },
    { name: "ping as an event", path: REPO_HOOKS, body: webhook("https://a.example/4", { events: ["ping"] }), field: "events[0]" },
    { name: "repeated events", path: REPO_HOOKS, body: webhook("https://a.example/5", { events: ["push", "push"] }), field: "events" },
    { name: "no config.url", path: REPO_HOOKS, body: { name: "web", config: { content_type: "json" } }, field: "config.url" },
    { name: "a config.url that is no URL", path: REPO_HOOKS, body: webhook("not a url"), field: "config.url" },
    { name: "a config.url that is not http", path: REPO_HOOKS, body: webhook("ftp://files.example/x"), field: "config.url" },
    { name: "a config.url too long", path: REPO_HOOKS, body: webhook(`https://a.example/${"x".repeat(2100)}`), field: "config.url" },
    { name: "content_type xml", path: REPO_HOOKS, body: webhook("https://a.example/6", {}, { content_type: "xml" }), field: "config.content_type" },
    { name: "insecure_ssl 2", path: REPO_HOOKS, body: webhook("https://a.example/7", {}, { insecure_ssl: "2" }), field: "config.insecure_ssl" },
    { name: "insecure_ssl as a number", path: REPO_HOOKS, body: webhook("https://a.example/8", {}, { insecure_ssl: 1 }), field: "config.insecure_ssl" },
    { name: "an unknown service", path: REPO_HOOKS, body: { name: "jenkins", config: { url: "https://a.example/9" } }, field: "name" },
    { name: "a malformed name", path: REPO_HOOKS, body: { name: "Web Hook", config: { url: "https://a.example/10" } }, field: "name" },
    { name: "no config", path: REPO_HOOKS, body: { name: "web" }, field: "config" },
    { name: "a service on an organization", path: ORG_HOOKS, body: { name: "travis", config: { user: "u", token: "t", domain: "ci.example" } }, field: "name" },
    { name: "an unknown event on an organization", path: ORG_HOOKS, body: webhook("https://a.example/11", { events: ["nope"] }), field: "events[0]" },
  ])("refuses $name with 422", async ({ path, body, field }) => {
    const reply = await create(path, body);
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body.message).toBe("Validation Failed");
    expect(fields(reply)).toContain(field);
    expect(reply.body.errors.every((e: { resource: string }) => e.resource === "Hook")).toBe(true);
  });

  it("refuses a second webhook with the same URL (422 already_exists), on a repository and an organization", async () => {
    for (const path of [REPO_HOOKS, ORG_HOOKS]) {
      const url = fresh();
      await createdHook(path, webhook(url));
      const again = await create(path, webhook(url, { events: ["issues"] }));
      expect(again.status).toBe(422);
      expect(again.body.errors).toEqual([expect.objectContaining({ resource: "Hook", field: "config.url", code: "already_exists" })]);
    }
  });

  it("allows the same URL on another repository", async () => {
    const url = fresh();
    await createdHook(REPO_HOOKS, webhook(url));
    await createdHook("/repos/octo-org/hello-world/hooks", webhook(url));
  });
});

describe("the secret", () => {
  const SECRET = "It's a Secret to Everybody";

  it("is never in any response, and is stored sealed", async () => {
    const created = await createdHook(REPO_HOOKS, webhook(fresh(), {}, { secret: SECRET }));
    const id = created.body.id as number;
    const replies = [
      created,
      await call("GET", `${REPO_HOOKS}/${id}`, api.token),
      await call("GET", REPO_HOOKS, api.token),
      await call("PATCH", `${REPO_HOOKS}/${id}`, api.token, { active: false }),
      await call("PATCH", `${REPO_HOOKS}/${id}`, api.token, { config: { url: fresh(), secret: `${SECRET} 2` } }),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(200 + (reply === created ? 1 : 0));
      expect(reply.text).not.toContain("Secret to Everybody");
      expect(reply.text).not.toContain('"secret"');
    }
    const row = (await t.server.db.query<{ secret_sealed: string; config: unknown }>("select secret_sealed, config from hooks where id = $1", [id]))[0]!;
    expect(row.secret_sealed).not.toContain("Secret");
    expect(JSON.stringify(row.config)).not.toContain("Secret");
    expect(row.secret_sealed).toMatch(/^v1:/);
    await loadSecretKey(t.server.db);
    expect(openSecret(row.secret_sealed)).toBe(`${SECRET} 2`);
  });

  it("is kept by an edit that leaves it out, and removed by an empty one", async () => {
    const id = (await createdHook(REPO_HOOKS, webhook(fresh(), {}, { secret: SECRET }))).body.id as number;
    const sealed = async () => (await t.server.db.query<{ secret_sealed: string | null }>("select secret_sealed from hooks where id = $1", [id]))[0]!.secret_sealed;
    const before = await sealed();
    expect((await call("PATCH", `${REPO_HOOKS}/${id}`, api.token, { config: { url: fresh(), content_type: "form" } })).status).toBe(200);
    expect(await sealed()).toBe(before);
    await loadSecretKey(t.server.db);
    expect(openSecret((await sealed())!)).toBe(SECRET);
    expect((await call("PATCH", `${REPO_HOOKS}/${id}`, api.token, { config: { url: fresh(), secret: "" } })).status).toBe(200);
    expect(await sealed()).toBeNull();
  });
});

describe("editing", () => {
  it.each([
    { from: ["push"], patch: { add_events: ["issues"] }, to: ["issues", "push"] },
    { from: ["issues", "push"], patch: { remove_events: ["push"] }, to: ["issues"] },
    { from: ["push"], patch: { remove_events: ["watch"] }, to: ["push"] },
    { from: ["push"], patch: { events: ["watch"], add_events: ["issues"] }, to: ["issues", "watch"] },
    { from: ["push"], patch: { events: ["watch", "fork"], remove_events: ["watch"] }, to: ["fork"] },
    { from: ["push"], patch: { add_events: ["*"] }, to: ["*"] },
    { from: ["push", "issues"], patch: { events: ["issues", "*"] }, to: ["*"] },
    { from: ["*"], patch: { add_events: ["push"] }, to: ["*"] },
    { from: ["*"], patch: { remove_events: ["*"] }, to: [] },
    { from: ["*"], patch: { events: ["push"] }, to: ["push"] },
    { from: ["push"], patch: {}, to: ["push"] },
  ])("$from with $patch → $to", async ({ from, patch, to }) => {
    const id = (await createdHook(REPO_HOOKS, webhook(fresh(), { events: from }))).body.id;
    const reply = await call("PATCH", `${REPO_HOOKS}/${id}`, api.token, patch);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.events).toEqual(to);
    expect((await call("GET", `${REPO_HOOKS}/${id}`, api.token)).body.events).toEqual(to);
  });

  it.each([
    { name: "removing one event from *", from: ["*"], patch: { remove_events: ["push"] }, field: "remove_events" },
    { name: "adding an organization-only event", from: ["push"], patch: { add_events: ["membership"] }, field: "add_events" },
    { name: "setting an organization-only event", from: ["push"], patch: { events: ["repository"] }, field: "events" },
    { name: "an unknown event", from: ["push"], patch: { add_events: ["nope"] }, field: "add_events[0]" },
    { name: "a config without url", from: ["push"], patch: { config: { content_type: "json" } }, field: "config.url" },
    { name: "a config with a bad content_type", from: ["push"], patch: { config: { url: "https://b.example/1", content_type: "yaml" } }, field: "config.content_type" },
    { name: "a config with a bad insecure_ssl", from: ["push"], patch: { config: { url: "https://b.example/2", insecure_ssl: "yes" } }, field: "config.insecure_ssl" },
    { name: "active as a string", from: ["push"], patch: { active: "false" }, field: "active" },
  ])("refuses $name with 422 and changes nothing", async ({ from, patch, field }) => {
    const hook = (await createdHook(REPO_HOOKS, webhook(fresh(), { events: from }))).body;
    const reply = await call("PATCH", `${REPO_HOOKS}/${hook.id}`, api.token, patch);
    expect(reply.status, reply.text).toBe(422);
    expect(fields(reply)).toContain(field);
    // last_response is left out: the ping of the new hook may be delivered meanwhile.
    const { last_response: _before, ...unchanged } = hook;
    const { last_response: _after, ...now } = (await call("GET", `${REPO_HOOKS}/${hook.id}`, api.token)).body;
    expect(now).toEqual(unchanged);
  });

  it("replaces the config, sets active, bumps updated_at and keeps created_at", async () => {
    const hook = (await createdHook(REPO_HOOKS, webhook(fresh(), {}, { content_type: "form", insecure_ssl: "1" }))).body;
    await t.server.db.query("update hooks set created_at = created_at - interval '1 hour', updated_at = updated_at - interval '1 hour' where id = $1", [hook.id]);
    const old = (await call("GET", `${REPO_HOOKS}/${hook.id}`, api.token)).body;
    const url = fresh();
    const reply = await call("PATCH", `${REPO_HOOKS}/${hook.id}`, api.token, { config: { url }, active: false });
    expect(reply.status).toBe(200);
    expect(reply.body.config).toEqual({ url, content_type: "json", insecure_ssl: "0" });
    expect(reply.body.active).toBe(false);
    expect(reply.body.created_at).toBe(old.created_at);
    expect(Date.parse(reply.body.updated_at)).toBeGreaterThan(Date.parse(old.updated_at));
  });

  it("refuses to move a webhook onto another webhook's URL, but allows keeping its own", async () => {
    const taken = fresh();
    await createdHook(ORG_HOOKS, webhook(taken));
    const id = (await createdHook(ORG_HOOKS, webhook(fresh()))).body.id;
    const clash = await call("PATCH", `${ORG_HOOKS}/${id}`, api.token, { config: { url: taken } });
    expect(clash.status).toBe(422);
    expect(clash.body.errors[0]).toMatchObject({ field: "config.url", code: "already_exists" });
    const own = (await call("GET", `${ORG_HOOKS}/${id}`, api.token)).body.config.url;
    expect((await call("PATCH", `${ORG_HOOKS}/${id}`, api.token, { config: { url: own, content_type: "form" } })).status).toBe(200);
  });

  it("edits organization hooks, organization-only events included", async () => {
    const id = (await createdHook(ORG_HOOKS, webhook(fresh()))).body.id;
    const reply = await call("PATCH", `${ORG_HOOKS}/${id}`, api.token, { add_events: ["membership"], remove_events: ["push"] });
    expect(reply.status).toBe(200);
    expect(reply.body.events).toEqual(["membership"]);
  });
});

describe("getting, listing and deleting", () => {
  it("deletes with 204; the hook is gone afterwards", async () => {
    for (const path of [REPO_HOOKS, ORG_HOOKS]) {
      const id = (await createdHook(path, webhook(fresh()))).body.id;
      expect((await call("GET", `${path}/${id}`, api.token)).status).toBe(200);
      const deleted = await call("DELETE", `${path}/${id}`, api.token);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe("");
      for (const method of ["GET", "DELETE"]) expect((await call(method, `${path}/${id}`, api.token)).status).toBe(404);
      expect((await call("PATCH", `${path}/${id}`, api.token, { active: false })).status).toBe(404);
      expect(((await call("GET", path, api.token)).body as { id: number }[]).map((h) => h.id)).not.toContain(id);
    }
  });

  it("does not find a repository's hook under another repository or the organization", async () => {
    const id = (await createdHook(REPO_HOOKS, webhook(fresh()))).body.id;
    expect((await call("GET", `/repos/octo-org/hello-world/hooks/${id}`, api.token)).status).toBe(404);
    expect((await call("GET", `${ORG_HOOKS}/${id}`, api.token)).status).toBe(404);
    expect((await call("DELETE", `${ORG_HOOKS}/${id}`, api.token)).status).toBe(404);
    expect((await call("GET", `${REPO_HOOKS}/${id}`, api.token)).status).toBe(200);
  });

  it.each(["abc", "0", "-1", "1.5", "99999999999999999999", "9007199254740993"])("answers 404 for the hook id %s", async (id) => {
    for (const path of [REPO_HOOKS, ORG_HOOKS]) {
      expect((await call("GET", `${path}/${id}`, api.token)).status).toBe(404);
      expect((await call("PATCH", `${path}/${id}`, api.token, { active: true })).status).toBe(404);
      expect((await call("DELETE", `${path}/${id}`, api.token)).status).toBe(404);
    }
  });

  it("lists 30 a page, in creation order, with Link", async () => {
    const path = "/repos/octocat/secret-plans/hooks";
    const made: number[] = [];
    for (let i = 0; i < MAX_HOOKS_PER_PLACE; i++) made.push((await createdHook(path, webhook(fresh()))).body.id);
    // More than the API lets one create (a database from before the cap may hold them): as rows.
    const repoId = (await ids(t.server.db).repo("octocat/secret-plans")).id;
    for (let i = MAX_HOOKS_PER_PLACE; i < 31; i++) {
      const row = await insertHook(t.server.db, { repoId, orgId: null, name: "web", events: ["push"], active: true, config: { url: fresh(), content_type: "json", insecure_ssl: "0" }, secretSealed: null, appId: null, creatorId: null, now: new Date() });
      made.push(Number(row.id));
    }
    const first = await call("GET", path, api.token);
    expect(first.status).toBe(200);
    expect((first.body as { id: number }[]).map((h) => h.id)).toEqual(made.slice(0, 30));
    const base = `${t.api}${path}`;
    expect(first.headers.get("link")).toBe(`<${base}?page=2>; rel="next", <${base}?page=2>; rel="last"`);
    const second = await call("GET", `${path}?page=2`, api.token);
    expect((second.body as { id: number }[]).map((h) => h.id)).toEqual(made.slice(30));
    expect(second.headers.get("link")).toBe(`<${base}?page=1>; rel="first", <${base}?page=1>; rel="prev"`);
    const beyond = await call("GET", `${path}?page=1000000000000`, api.token);
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual([]);
    expect((await call("GET", `${path}?page=0`, api.token)).status).toBe(422);
  });

  it("sends no Link when one page holds the list", async () => {
    const reply = await call("GET", "/repos/octo-org/internal-tools/hooks", api.token);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("link")).toBeNull();
  });
});
