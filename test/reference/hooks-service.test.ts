/**
 * Service hooks and what the delivery engine builds on. Over HTTP: installing a catalog service
 * (password keys sealed, never served), creating it again updates the one hook (200, same id),
 * config and event checks against the service. Through the database: `matchingHooks` (active,
 * subscribed or `*`, repository and organization hooks, service hooks only for supported
 * events), `hookById`, `setLastResponses`; the delivery formats of `serviceDelivery`; the secret
 * box; and the ping enqueued in the creating transaction (a failing ping creates nothing).
 */
import { createHash, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Context, HookPings } from "../../reference/context.ts";
import { openDatabase, type Queryable } from "../../reference/db/database.ts";
import { migrate } from "../../reference/db/migrate.ts";
import { hookHandlers } from "../../reference/handlers/hooks.ts";
import { serviceDelivery, SERVICES } from "../../reference/hooks/catalog.ts";
import { ensureSecretKey, loadSecretKey, openSecret, parseKey, sealSecret } from "../../reference/hooks/secret-box.ts";
import { findAccountByLogin } from "../../reference/store/accounts.ts";
import { hookById, hookOwner, matchingHooks, setLastResponses } from "../../reference/store/hooks.ts";
import { hookJson } from "../../reference/serialize/hook.ts";
import { ids } from "./feeds-fixtures.ts";
import { fields, REPO_HOOKS, useHookApi, webhook } from "./hooks-fixtures.ts";

const api = useHookApi();
const { t, call } = api;
const TOKEN = "7b3f2c9d1e8a4b6f-travis-token";
let counter = 0;
const fresh = () => `https://service.example/hooks/${++counter}`;

const travis = (config: Record<string, string> = {}, extra: Record<string, unknown> = {}) => ({
  name: "travis",
  config: { user: "octocat", token: TOKEN, domain: "notify.travis.example", ...config },
  ...extra,
});

describe("installing a service", () => {
  const path = "/repos/octo-org/hello-world/hooks";

  it("creates it with the service's default events, serving its config without password keys", async () => {
    const reply = await call("POST", path, api.token, travis());
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ name: "travis", events: ["pull_request", "push"], active: true, config: { user: "octocat", domain: "notify.travis.example" } });
    expect(reply.body.config.token).toBeUndefined();
    expect(reply.text).not.toContain(TOKEN);
    const row = (await t.server.db.query<{ config: Record<string, string>; secret_sealed: string | null }>("select config, secret_sealed from hooks where id = $1", [reply.body.id]))[0]!;
    expect(JSON.stringify(row)).not.toContain(TOKEN);
    expect(row.secret_sealed).toBeNull();
    await loadSecretKey(t.server.db);
    expect(openSecret(row.config.token!)).toBe(TOKEN);
  });

  it("updates the one hook when created again (200, same id), keeping a password left out", async () => {
    const first = (await call("GET", path, api.token)).body.find((h: { name: string }) => h.name === "travis");
    const again = await call("POST", path, api.token, { name: "travis", events: ["push", "issue_comment"], config: { user: "hubot", domain: "ci.example" } });
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get("location")).toBeNull();
    expect(again.body).toMatchObject({ id: first.id, events: ["issue_comment", "push"], config: { user: "hubot", domain: "ci.example" } });
    const travisHooks = ((await call("GET", path, api.token)).body as { name: string }[]).filter((h) => h.name === "travis");
    expect(travisHooks).toHaveLength(1);
    const row = (await hookById(t.server.db, first.id))!;
    expect(openSecret(row.config.token!)).toBe(TOKEN);
    // Created again without events: the service's defaults, as a new hook would get.
    const defaults = await call("POST", path, api.token, travis({}, { active: false }));
    expect(defaults.status).toBe(200);
    expect(defaults.body).toMatchObject({ id: first.id, events: ["pull_request", "push"], active: false });
  });

  it("installs one hook per service next to any number of webhooks", async () => {
    const chat = await call("POST", path, api.token, { name: "chat", config: { webhook_url: "https://chat.example/in/1" } });
    expect(chat.status).toBe(201);
    expect(chat.body.events).toEqual(["push"]);
    await call("POST", path, api.token, webhook(fresh()));
    await call("POST", path, api.token, webhook(fresh()));
    const names = ((await call("GET", path, api.token)).body as { name: string }[]).map((h) => h.name).sort();
    expect(names).toEqual(["chat", "travis", "web", "web"]);
  });

  it.each([
    { name: "an unsupported event", body: travis({}, { events: ["push", "issues"] }), field: "events" },
    { name: "the wildcard", body: travis({}, { events: ["*"] }), field: "events" },
    { name: "an organization-only event", body: travis({}, { events: ["membership"] }), field: "events" },
    { name: "a key the service does not have", body: travis({ url: "https://x.example" }), field: "config.url" },
    { name: "a webhook secret", body: travis({ secret: "s" }), field: "config.secret" },
    { name: "a missing required key", body: { name: "travis", config: { user: "octocat", token: TOKEN } }, field: "config.domain" },
    { name: "an empty password (no token at all)", body: { name: "travis", config: { user: "octocat", token: "", domain: "d.example" } }, field: "config.token" },
    { name: "a domain that is neither host nor URL", body: travis({ domain: "not a host/" }), field: "config.domain" },
    { name: "a chat webhook_url that is not http", body: { name: "chat", config: { webhook_url: "mailto:room@chat.example" } }, field: "config.webhook_url" },
    { name: "a boolean that is not 0/1", body: { name: "chat", config: { webhook_url: "https://chat.example/in/2", list_commits: "yes" } }, field: "config.list_commits" },
    { name: "a non-string value", body: { name: "chat", config: { webhook_url: "https://chat.example/in/3", list_commits: 1 } }, field: "config.list_commits" },
  ])("refuses $name with 422", async ({ body, field }) => {
    const reply = await call("POST", "/repos/octocat/secret-plans/hooks", api.token, body);
    expect(reply.status, reply.text).toBe(422);
    expect(fields(reply)).toContain(field);
  });

  it("refuses unsupported events and foreign keys on edit too", async () => {
    const id = (await call("POST", REPO_HOOKS, api.token, travis())).body.id;
    for (const [patch, field] of [
      [{ add_events: ["watch"] }, "add_events"],
      [{ events: ["*"] }, "events"],
      [{ config: { user: "u", domain: "d.example", content_type: "json" } }, "config.content_type"],
    ] as const) {
      const reply = await call("PATCH", `${REPO_HOOKS}/${id}`, api.token, patch);
      expect(reply.status, JSON.stringify(patch)).toBe(422);
      expect(fields(reply)).toContain(field);
    }
    const edited = await call("PATCH", `${REPO_HOOKS}/${id}`, api.token, { remove_events: ["pull_request"], config: { user: "u2", domain: "d2.example" } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ events: ["push"], config: { user: "u2", domain: "d2.example" } });
    expect(openSecret((await hookById(t.server.db, id))!.config.token!)).toBe(TOKEN);
  });

  it("refuses services on organizations", async () => {
    for (const body of [travis(), { name: "chat", config: { webhook_url: "https://chat.example/in/9" } }]) {
      const reply = await call("POST", "/orgs/octo-org/hooks", api.token, body);
      expect(reply.status).toBe(422);
      expect(fields(reply)).toEqual(["name"]);
    }
  });
});

describe("serviceDelivery", () => {
  const payload = {
    ref: "refs/heads/main",
    compare: "https://service.example/octocat/hello-world/compare/a...b",
    commits: [
      { id: "6dcb09b5b57875f334f61aebed695e2e4193db5e", message: "Fix all the bugs\n\nDetails.", author: { name: "The Octocat" } },
      { id: "7dcb09b5b57875f334f61aebed695e2e4193db5e", message: "Add tests", author: { name: "Hubot" } },
    ],
    repository: { full_name: "octocat/hello-world" },
    sender: { login: "octocat" },
  };

  it("posts the standard payload to travis as a form, authenticated by sha256(user + token)", async () => {
    await ensureSecretKey(t.server.db);
    const config = { user: "octocat", token: sealSecret(TOKEN), domain: "notify.travis.example" };
    const request = serviceDelivery("travis", config, "push", payload)!;
    expect(request.url).toBe("https://notify.travis.example/");
    expect(request.contentType).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(request.body);
    expect(JSON.parse(form.get("payload")!)).toEqual(payload);
    expect(form.get("user")).toBe("octocat");
    expect(form.get("authorization")).toBe(createHash("sha256").update(`octocat${TOKEN}`).digest("hex"));
    expect(request.body).not.toContain(TOKEN);
    expect(serviceDelivery("travis", { ...config, domain: "http://127.0.0.1:9/ci" }, "pull_request", payload)!.url).toBe("http://127.0.0.1:9/ci");
  });

  it("posts one line of text to a chat room as JSON", () => {
    const config = { webhook_url: "https://chat.example/in/1", channel: "#dev" };
    const request = serviceDelivery("chat", config, "push", payload)!;
    expect(request).toMatchObject({ url: "https://chat.example/in/1", contentType: "application/json" });
    expect(JSON.parse(request.body)).toEqual({ text: `[octocat/hello-world] octocat pushed 2 commits to main ${payload.compare}`, channel: "#dev" });
    const listed = JSON.parse(serviceDelivery("chat", { ...config, list_commits: "1" }, "push", payload)!.body) as { text: string };
    expect(listed.text.split("\n")).toEqual([`[octocat/hello-world] octocat pushed 2 commits to main ${payload.compare}`, "6dcb09b Fix all the bugs - The Octocat", "7dcb09b Add tests - Hubot"]);
    const issue = JSON.parse(
      serviceDelivery("chat", { webhook_url: "https://chat.example/in/1" }, "issues", {
        action: "opened",
        issue: { number: 3, title: "Broken", html_url: "https://service.example/octocat/hello-world/issues/3" },
        repository: { full_name: "octocat/hello-world" },
        sender: { login: "hubot" },
      })!.body,
    );
    expect(issue).toEqual({ text: "[octocat/hello-world] hubot opened issue #3: Broken https://service.example/octocat/hello-world/issues/3" });
    expect(JSON.parse(serviceDelivery("chat", config, "ping", { zen: "Keep it simple.", hook_id: 1, repository: { full_name: "octocat/hello-world" } })!.body).text).toContain("Keep it simple.");
  });

  it.each([
    { name: "travis", event: "ping" },
    { name: "travis", event: "issues" },
    { name: "chat", event: "watch" },
    { name: "chat", event: "membership" },
    { name: "web", event: "push" },
    { name: "jenkins", event: "push" },
  ])("takes no $event for $name", ({ name, event }) => {
    expect(serviceDelivery(name, { webhook_url: "https://chat.example/x", user: "u", token: "t", domain: "d.example" }, event, payload)).toBeUndefined();
  });

  it("documents each service: a name, a title, defaults within its supported events", () => {
    expect(SERVICES.map((s) => s.name)).toEqual(["chat", "travis"]);
    for (const s of SERVICES) for (const e of s.events) expect(s.supported_events).toContain(e);
  });
});

describe("matchingHooks, hookById and setLastResponses", () => {
  let repoId: number;
  let orgRepoId: number;
  let orgId: number;
  const made: Record<string, number> = {};

  beforeAll(async () => {
    const db = t.server.db;
    repoId = (await ids(db).repo("octocat/hello-world")).id;
    orgRepoId = (await ids(db).repo("octo-org/internal-tools")).id;
    orgId = await ids(db).account("octo-org");
    await db.query("delete from hooks");
    const mk = async (key: string, path: string, body: unknown) => {
      const reply = await call("POST", path, api.token, body);
      expect(reply.status, reply.text).toBe(201);
      made[key] = reply.body.id;
    };
    const orgRepo = "/repos/octo-org/internal-tools/hooks";
    await mk("push", REPO_HOOKS, webhook(fresh()));
    await mk("all", REPO_HOOKS, webhook(fresh(), { events: ["*"] }));
    await mk("issues", REPO_HOOKS, webhook(fresh(), { events: ["issues"] }));
    await mk("inactive", REPO_HOOKS, webhook(fresh(), { events: ["*"], active: false }));
    await mk("travis", REPO_HOOKS, travis({}, { events: ["push"] }));
    await mk("chat", REPO_HOOKS, { name: "chat", events: ["issues", "push"], config: { webhook_url: "https://chat.example/in/5" } });
    await mk("orgRepoPush", orgRepo, webhook(fresh()));
    await mk("orgPush", "/orgs/octo-org/hooks", webhook(fresh()));
    await mk("orgMembership", "/orgs/octo-org/hooks", webhook(fresh(), { events: ["membership"] }));
    // A service hook subscribed beyond its service (not possible through the API): still filtered out.
    const row = (
      await db.query<{ id: number }>(
        "insert into hooks (repo_id, name, events, config) values ($1, 'travis', '{*}', '{\"user\": \"u\"}'::jsonb) on conflict do nothing returning id::int as id",
        [orgRepoId],
      )
    )[0]!;
    made.orgRepoTravisAll = row.id;
  });

  const match = async (event: string, repo: number | null, org: number | null) =>
    (await matchingHooks(t.server.db, { event, repoId: repo, orgId: org })).map((h) => Object.entries(made).find(([, id]) => id === h.id)?.[0]);

  it.each([
    { event: "push", target: "repo", expected: ["push", "all", "travis", "chat"] },
    { event: "issues", target: "repo", expected: ["all", "issues", "chat"] },
    { event: "watch", target: "repo", expected: ["all"] },
    { event: "push", target: "orgRepo", expected: ["orgRepoPush", "orgPush", "orgRepoTravisAll"] },
    // travis is subscribed to `*`, but does not support issues.
    { event: "issues", target: "orgRepo", expected: [] },
    { event: "membership", target: "org", expected: ["orgMembership"] },
    { event: "push", target: "none", expected: [] },
  ])("$event on $target → $expected", async ({ event, target, expected }) => {
    const [repo, org] = target === "repo" ? [repoId, null] : target === "orgRepo" ? [orgRepoId, orgId] : target === "org" ? [null, orgId] : [null, null];
    expect(await match(event, repo, org)).toEqual(expected);
  });

  it("finds a hook by id wherever it is installed", async () => {
    const row = (await hookById(t.server.db, made.orgPush!))!;
    expect(row).toMatchObject({ id: made.orgPush, org_id: orgId, repo_id: null, name: "web", events: ["push"], active: true, secret_sealed: null });
    expect(await hookById(t.server.db, 987654321)).toBeUndefined();
    expect(await hookById(t.server.db, 0)).toBeUndefined();
  });

  it("records the last response, which the API then serves, like hookJson of the row", async () => {
    // Inserted directly: a hook made through the API gets a ping, whose outcome would race this one.
    const id = (
      await t.server.db.query<{ id: number }>(
        `insert into hooks (repo_id, name, events, config) values ($1, 'web', '{push}', $2::jsonb) returning id::int as id`,
        [repoId, JSON.stringify({ url: fresh(), content_type: "json", insecure_ssl: "0" })],
      )
    )[0]!.id;
    await setLastResponses(t.server.db, new Map([[id, { code: 500, status: "Invalid HTTP Response: 500", message: "Internal Server Error" }]]));
    const served = await call("GET", `${REPO_HOOKS}/${id}`, api.token);
    expect(served.body.last_response).toEqual({ code: 500, status: "Invalid HTTP Response: 500", message: "Internal Server Error" });
    const row = (await hookById(t.server.db, id))!;
    expect(hookJson(row, { api: t.api, auth: t.auth }, (await hookOwner(t.server.db, row))!)).toEqual(served.body);
    const orgRow = (await hookById(t.server.db, made.orgPush!))!;
    expect(await hookOwner(t.server.db, orgRow)).toEqual({ kind: "org", login: "octo-org" });
  });
});

describe("the secret box", () => {
  it("parses 32-byte keys in hex and base64 only", () => {
    const bytes = Buffer.alloc(32, 7);
    expect(parseKey(bytes.toString("hex"))).toEqual(bytes);
    expect(parseKey(bytes.toString("base64"))).toEqual(bytes);
    expect(parseKey(bytes.toString("base64url"))).toEqual(bytes);
    for (const bad of ["", "abc", Buffer.alloc(16).toString("hex"), Buffer.alloc(31).toString("base64"), "z".repeat(64)]) expect(parseKey(bad)).toBeUndefined();
  });

  it("seals with a fresh IV each time, opens what it sealed, and refuses tampering", async () => {
    await ensureSecretKey(t.server.db);
    const a = sealSecret("s3cret");
    const b = sealSecret("s3cret");
    expect(a).not.toBe(b);
    expect(openSecret(a)).toBe("s3cret");
    expect(openSecret(sealSecret(""))).toBe("");
    const bytes = Buffer.from(a.slice(3), "base64");
    bytes[bytes.length - 1]! ^= 1;
    expect(() => openSecret(`v1:${bytes.toString("base64")}`)).toThrow();
    expect(() => openSecret("s3cret")).toThrow();
  });

  it("keeps its key in server_keys, shared by every instance on the database", async () => {
    const rows = await t.server.db.query<{ key: string }>("select key from server_keys where name = 'hook-secrets'");
    expect(rows).toHaveLength(1);
    expect(Buffer.from(rows[0]!.key, "base64")).toHaveLength(32);
  });

  it("gives a second database in this process the key it seals with, and refuses one that holds another key", async () => {
    // One process, two servers (as the test suite runs): the second database must hold the key
    // its secrets are sealed with, or a restarted server could not open them.
    await ensureSecretKey(t.server.db);
    const ours = (await t.server.db.query<{ key: string }>("select key from server_keys"))[0]!.key;
    const other = await openDatabase({});
    const foreign = await openDatabase({});
    try {
      await migrate(other);
      await ensureSecretKey(other);
      expect(await other.query("select name, key from server_keys")).toEqual([{ name: "hook-secrets", key: ours }]);
      await migrate(foreign);
      await foreign.query("insert into server_keys (name, key) values ('hook-secrets', $1)", [randomBytes(32).toString("base64")]);
      await expect(ensureSecretKey(foreign)).rejects.toThrow(/already seals secrets with another database's key/);
      // Still sealing with the first key: what this process sealed before still opens.
      expect(openSecret(sealSecret("s3cret"))).toBe("s3cret");
    } finally {
      await other.close();
      await foreign.close();
    }
  });
});

describe("the ping of a new hook", () => {
  type Ping = { hookId: number; senderId: number | null; inTransaction: boolean };

  async function run(pings: HookPings, body: unknown, path = { owner: "octocat", repo: "hello-world" }) {
    const user = (await findAccountByLogin(t.server.db, "octocat"))!;
    const ctx: Context = { db: t.server.db, urls: { api: t.api, auth: t.auth }, now: () => new Date(), pings };
    const raw = { request: { viewer: { user, scopes: ["admin:repo_hook"], authorization: { app_id: null } } } };
    return hookHandlers(ctx).createRepoHook!({ params: path, body, raw } as never);
  }

  it("is enqueued in the creating transaction, for webhooks and new service hooks, not for re-creations", async () => {
    const calls: Ping[] = [];
    const pings: HookPings = {
      async ping(tx: Queryable, hookId, senderId) {
        // Inside the transaction the new row is visible through `tx`.
        const seen = await tx.query("select 1 from hooks where id = $1", [hookId]);
        calls.push({ hookId, senderId, inTransaction: seen.length === 1 });
      },
    };
    const web = await run(pings, webhook(fresh()));
    expect(web.status).toBe(201);
    const octocatId = (await findAccountByLogin(t.server.db, "octocat"))!.id;
    expect(calls).toEqual([{ hookId: (web.body as { id: number }).id, senderId: octocatId, inTransaction: true }]);
    const chat = { name: "chat", config: { webhook_url: "https://chat.example/in/77" } };
    const created = await run(pings, chat, { owner: "octocat", repo: "secret-plans" });
    expect(created.status).toBe(201);
    expect(calls).toHaveLength(2);
    expect((await run(pings, chat, { owner: "octocat", repo: "secret-plans" })).status).toBe(200);
    expect(calls).toHaveLength(2);
  });

  it("creates nothing when the ping cannot be enqueued", async () => {
    const url = fresh();
    const failing: HookPings = {
      async ping() {
        throw new Error("queue unavailable");
      },
    };
    await expect(run(failing, webhook(url))).rejects.toThrow("queue unavailable");
    expect(await t.server.db.query("select 1 from hooks where config->>'url' = $1", [url])).toEqual([]);
  });
});
