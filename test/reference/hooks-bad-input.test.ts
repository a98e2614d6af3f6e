/**
 * Hook management under bad or unusual input, over HTTP: every answer is a 4xx in the error shape
 * (never a 5xx), nothing is stored by a refused request, and what a client sends as a secret —
 * credentials written into a URL included — is never echoed back. The common cases (unknown
 * events, config types, malformed ids) are in hooks.test.ts; this file holds the ones an audit
 * found beyond them: webhook URLs whose UTF-8 form is too long for the URL index, URLs with
 * user info, odd bodies and query values. (Organization hooks reached with another
 * application's token, on the delivery endpoints too, are in hooks-access.test.ts.)
 */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_URL_BYTES } from "../../reference/hooks/urls.ts";
import { ORG_HOOKS, REPO_HOOKS, useHookApi, webhook, type HookReply } from "./hooks-fixtures.ts";

const api = useHookApi();
const { t, call } = api;
let counter = 0;
/** A URL no other hook of the file uses; nothing listens there (deliveries fail fast, unseen). */
const fresh = () => `http://127.0.0.1:9/bad-input/${++counter}`;

async function hookCount(): Promise<number> {
  return (await t.server.db.query<{ n: number }>("select count(*)::int as n from hooks"))[0]!.n;
}

function expectInvalid(reply: HookReply, field: string): void {
  expect(reply.status, reply.text).toBe(422);
  expect(reply.body.message).toBe("Validation Failed");
  expect(reply.body.errors).toContainEqual(expect.objectContaining({ resource: "Hook", field, code: "invalid" }));
}

/** `n` characters of CJK text, each 3 bytes in UTF-8, random so that PostgreSQL cannot compress them. */
function cjk(n: number): string {
  let text = "";
  for (let i = 0; i < n; i++) text += String.fromCodePoint(0x4e00 + Math.floor(Math.random() * 20_000));
  return text;
}

/** Random lower-case letters and digits (incompressible ASCII). */
function ascii(n: number): string {
  return [...randomBytes(n)].map((b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("");
}

describe("config.url too long for the index in UTF-8", () => {
  // 2,000 characters pass a character count of MAX_URL_BYTES (2048), but take ~6,000 bytes:
  // beyond what one entry of the one-URL-per-place unique index can hold (2704 bytes), which made
  // a 500.
  const long = () => `https://receiver.example/${cjk(2000)}`;

  it.each([REPO_HOOKS, ORG_HOOKS])("create on %s: 422 invalid config.url, nothing stored", async (path) => {
    const before = await hookCount();
    const reply = await call("POST", path, api.token, webhook(long()));
    expectInvalid(reply, "config.url");
    expect(await hookCount()).toBe(before);
  });

  it.each([REPO_HOOKS, ORG_HOOKS])("edit on %s: 422 invalid config.url, the hook unchanged", async (path) => {
    const url = fresh();
    const id = (await call("POST", path, api.token, webhook(url))).body.id as number;
    expectInvalid(await call("PATCH", `${path}/${id}`, api.token, { config: { url: long() } }), "config.url");
    expect((await call("GET", `${path}/${id}`, api.token)).body.config.url).toBe(url);
  });

  it(`accepts a URL of exactly MAX_URL_BYTES (${MAX_URL_BYTES}) bytes, multi-byte characters included, and refuses one more`, async () => {
    const prefix = "https://receiver.example/";
    const multi = cjk(300); // 900 bytes
    const exact = `${prefix}${multi}${ascii(MAX_URL_BYTES - prefix.length - 900)}`;
    expect(Buffer.byteLength(exact)).toBe(MAX_URL_BYTES);
    const created = await call("POST", REPO_HOOKS, api.token, webhook(exact));
    expect(created.status, created.text).toBe(201);
    expect(created.body.config.url).toBe(exact);
    expectInvalid(await call("POST", REPO_HOOKS, api.token, webhook(`${exact}x`)), "config.url");
    const plain = `${prefix}${ascii(MAX_URL_BYTES - prefix.length)}`;
    expect((await call("POST", ORG_HOOKS, api.token, webhook(plain))).status).toBe(201);
  });
});

describe("credentials in a URL", () => {
  // The sender drops user info (undici sends no Authorization for it), so such a hook would be
  // delivered to without them, while every hook response and the delivery log showed them.
  it.each([
    ["user and password", "https://deploy:hunter2-secret@receiver.example/hook"],
    ["user only", "https://hunter2-secret@receiver.example/hook"],
    ["empty user, a password", "https://:hunter2-secret@receiver.example/hook"],
  ])("a webhook config.url with %s: 422 on create (repository and organization) and on edit, never echoed", async (_name, url) => {
    const before = await hookCount();
    for (const path of [REPO_HOOKS, ORG_HOOKS]) {
      const reply = await call("POST", path, api.token, webhook(url, {}, { secret: "kept-apart" }));
      expectInvalid(reply, "config.url");
      expect(reply.text).not.toContain("hunter2");
    }
    expect(await hookCount()).toBe(before);
    const id = (await call("POST", REPO_HOOKS, api.token, webhook(fresh()))).body.id as number;
    const edit = await call("PATCH", `${REPO_HOOKS}/${id}`, api.token, { config: { url } });
    expectInvalid(edit, "config.url");
    expect(edit.text).not.toContain("hunter2");
    expect((await call("GET", `${REPO_HOOKS}/${id}`, api.token)).text).not.toContain("hunter2");
  });

  it("a service hook's URL key with credentials: 422 on that key", async () => {
    const reply = await call("POST", "/repos/octocat/secret-plans/hooks", api.token, { name: "chat", config: { webhook_url: "https://bot:hunter2-secret@chat.example/in" } });
    expectInvalid(reply, "config.webhook_url");
    expect(reply.text).not.toContain("hunter2");
  });

  it("travis given a domain URL with credentials: 422 on config.domain", async () => {
    const reply = await call("POST", "/repos/octocat/secret-plans/hooks", api.token, { name: "travis", config: { user: "u", token: "t", domain: "https://u:hunter2-secret@ci.example/" } });
    expectInvalid(reply, "config.domain");
    expect(reply.text).not.toContain("hunter2");
  });

  it("still takes a URL with a port, a query and an @ in its path", async () => {
    const url = `https://receiver.example:8443/in/@team?api.token=${++counter}`;
    const reply = await call("POST", REPO_HOOKS, api.token, webhook(url));
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.config.url).toBe(url);
  });
});

describe("request bodies that are not a hook", () => {
  it.each([
    ["an array", []],
    ["a string", "web"],
    ["a number", 7],
  ])("create or edit with %s: 422, nothing changed", async (_name, body) => {
    const url = fresh();
    const id = (await call("POST", REPO_HOOKS, api.token, webhook(url))).body.id as number;
    const before = await hookCount();
    expect((await call("POST", REPO_HOOKS, api.token, body)).status).toBe(422);
    expect((await call("PATCH", `${REPO_HOOKS}/${id}`, api.token, body)).status).toBe(422);
    expect(await hookCount()).toBe(before);
    expect((await call("GET", `${REPO_HOOKS}/${id}`, api.token)).body.config.url).toBe(url);
  });

  it("an edit with an empty object changes nothing but updated_at", async () => {
    const hook = (await call("POST", REPO_HOOKS, api.token, webhook(fresh(), { events: ["issues"], active: false }, { content_type: "form" }))).body;
    // Back-dated, so that the edit's rewriting of updated_at shows within the second it was created in.
    const past = "2020-01-01T00:00:00Z";
    await t.server.db.query("update hooks set updated_at = $2 where id = $1", [hook.id, past]);
    expect((await call("GET", `${REPO_HOOKS}/${hook.id}`, api.token)).body.updated_at).toBe(past);
    const editedFrom = Math.floor(Date.now() / 1000) * 1000;
    const reply = await call("PATCH", `${REPO_HOOKS}/${hook.id}`, api.token, {});
    expect(reply.status).toBe(200);
    // last_response is the delivery engine's (the creation ping fails meanwhile), not the edit's.
    const { updated_at: updated, last_response: _after, ...rest } = reply.body;
    const { updated_at: _created, last_response: _before, ...unchanged } = hook;
    expect(rest).toEqual(unchanged);
    expect(Date.parse(updated)).toBeGreaterThanOrEqual(editedFrom);
    expect(Date.parse(updated)).toBeLessThanOrEqual(Date.now());
    expect((await call("GET", `${REPO_HOOKS}/${hook.id}`, api.token)).body.updated_at).toBe(updated);
  });

  it.each([
    ["text/plain", 415],
    ["application/x-www-form-urlencoded", 415],
  ])("a body sent as %s: %i in the error shape", async (type, status) => {
    const res = await fetch(`${t.api}${REPO_HOOKS}`, { method: "POST", headers: { Authorization: `token ${api.token}`, "Content-Type": type }, body: JSON.stringify(webhook(fresh())) });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ message: expect.any(String), documentation_url: expect.any(String) });
  });

  it("a body over the limit: 413 in the error shape, nothing stored", async () => {
    const before = await hookCount();
    const res = await fetch(`${t.api}${REPO_HOOKS}`, {
      method: "POST",
      headers: { Authorization: `token ${api.token}`, "Content-Type": "application/json" },
      body: JSON.stringify(webhook(fresh(), { padding: "x".repeat(2_000_000) })),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: "Payload Too Large", documentation_url: expect.any(String) });
    expect(await hookCount()).toBe(before);
  });
});

describe("the delivery endpoints", () => {
  let id: number;
  beforeAll(async () => {
    id = (await call("POST", REPO_HOOKS, api.token, webhook(fresh()))).body.id as number;
  });

  it.each(["0", "-1", "abc", "1.5", "2&page=3"])("answers 422 invalid page for page=%s", async (page) => {
    const reply = await call("GET", `${REPO_HOOKS}/${id}/deliveries?page=${page}`, api.token);
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual([expect.objectContaining({ resource: "HookDelivery", field: "page", code: "invalid" })]);
  });

  it.each(["abc", "0", "-1", "2147483648", "99999999999999999999"])("answers 404 for the delivery id %s (get and redeliver)", async (deliveryId) => {
    expect((await call("GET", `${REPO_HOOKS}/${id}/deliveries/${deliveryId}`, api.token)).status).toBe(404);
    expect((await call("POST", `${REPO_HOOKS}/${id}/deliveries/${deliveryId}/attempts`, api.token)).status).toBe(404);
  });
});
