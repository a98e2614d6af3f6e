/**
 * Hook management under bad or unusual input, over HTTP: every answer is a 4xx in the error shape
 * (never a 5xx), nothing is stored by a refused request, and what a client sends as a secret —
 * credentials written into a URL included — is never echoed back. The common cases (unknown
 * events, config types, malformed ids) are in hooks.test.ts; this file holds the ones an audit
 * found beyond them: webhook URLs whose UTF-8 form is too long for the URL index, URLs with
 * user info, odd bodies and query values, and organization hooks reached with another
 * application's token through the delivery endpoints.
 */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createApplication, findApplication } from "../../reference/store/applications.ts";
import { DEMO, useServer } from "./harness.ts";
import { client, hookToken, webhook, type HookReply } from "./hooks-fixtures.ts";

const t = useServer();
const call = client(() => t.api);
let token: string;
const REPO = "/repos/octocat/hello-world/hooks";
const ORG = "/orgs/octo-org/hooks";
let counter = 0;
/** A URL no other hook of the file uses; nothing listens there (deliveries fail fast, unseen). */
const fresh = () => `http://127.0.0.1:9/bad-input/${++counter}`;

beforeAll(async () => {
  token = await hookToken(t.server.db, "octocat", ["admin:repo_hook", "admin:org_hook"]);
});

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
  // 2,000 characters pass a character count of 2048, but take ~6,000 bytes: beyond what one
  // entry of the one-URL-per-place unique index can hold (2704 bytes), which made a 500.
  const long = () => `https://receiver.example/${cjk(2000)}`;

  it.each([REPO, ORG])("create on %s: 422 invalid config.url, nothing stored", async (path) => {
    const before = await hookCount();
    const reply = await call("POST", path, token, webhook(long()));
    expectInvalid(reply, "config.url");
    expect(await hookCount()).toBe(before);
  });

  it.each([REPO, ORG])("edit on %s: 422 invalid config.url, the hook unchanged", async (path) => {
    const url = fresh();
    const id = (await call("POST", path, token, webhook(url))).body.id as number;
    expectInvalid(await call("PATCH", `${path}/${id}`, token, { config: { url: long() } }), "config.url");
    expect((await call("GET", `${path}/${id}`, token)).body.config.url).toBe(url);
  });

  it("accepts a URL of exactly 2048 bytes, multi-byte characters included, and refuses 2049", async () => {
    const prefix = "https://receiver.example/";
    const multi = cjk(300); // 900 bytes
    const exact = `${prefix}${multi}${ascii(2048 - prefix.length - 900)}`;
    expect(Buffer.byteLength(exact)).toBe(2048);
    const created = await call("POST", REPO, token, webhook(exact));
    expect(created.status, created.text).toBe(201);
    expect(created.body.config.url).toBe(exact);
    expectInvalid(await call("POST", REPO, token, webhook(`${exact}x`)), "config.url");
    const plain = `${prefix}${ascii(2048 - prefix.length)}`;
    expect((await call("POST", ORG, token, webhook(plain))).status).toBe(201);
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
    for (const path of [REPO, ORG]) {
      const reply = await call("POST", path, token, webhook(url, {}, { secret: "kept-apart" }));
      expectInvalid(reply, "config.url");
      expect(reply.text).not.toContain("hunter2");
    }
    expect(await hookCount()).toBe(before);
    const id = (await call("POST", REPO, token, webhook(fresh()))).body.id as number;
    const edit = await call("PATCH", `${REPO}/${id}`, token, { config: { url } });
    expectInvalid(edit, "config.url");
    expect(edit.text).not.toContain("hunter2");
    expect((await call("GET", `${REPO}/${id}`, token)).text).not.toContain("hunter2");
  });

  it("a service hook's URL key with credentials: 422 on that key", async () => {
    const reply = await call("POST", "/repos/octocat/secret-plans/hooks", token, { name: "chat", config: { webhook_url: "https://bot:hunter2-secret@chat.example/in" } });
    expectInvalid(reply, "config.webhook_url");
    expect(reply.text).not.toContain("hunter2");
  });

  it("travis given a domain URL with credentials: 422 on config.domain", async () => {
    const reply = await call("POST", "/repos/octocat/secret-plans/hooks", token, { name: "travis", config: { user: "u", token: "t", domain: "https://u:hunter2-secret@ci.example/" } });
    expectInvalid(reply, "config.domain");
    expect(reply.text).not.toContain("hunter2");
  });

  it("still takes a URL with a port, a query and an @ in its path", async () => {
    const url = `https://receiver.example:8443/in/@team?token=${++counter}`;
    const reply = await call("POST", REPO, token, webhook(url));
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
    const id = (await call("POST", REPO, token, webhook(url))).body.id as number;
    const before = await hookCount();
    expect((await call("POST", REPO, token, body)).status).toBe(422);
    expect((await call("PATCH", `${REPO}/${id}`, token, body)).status).toBe(422);
    expect(await hookCount()).toBe(before);
    expect((await call("GET", `${REPO}/${id}`, token)).body.config.url).toBe(url);
  });

  it("an edit with an empty object changes nothing but updated_at", async () => {
    const hook = (await call("POST", REPO, token, webhook(fresh(), { events: ["issues"], active: false }, { content_type: "form" }))).body;
    const reply = await call("PATCH", `${REPO}/${hook.id}`, token, {});
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ events: ["issues"], active: false, config: hook.config });
  });

  it.each([
    ["text/plain", 415],
    ["application/x-www-form-urlencoded", 415],
  ])("a body sent as %s: %i in the error shape", async (type, status) => {
    const res = await fetch(`${t.api}${REPO}`, { method: "POST", headers: { Authorization: `token ${token}`, "Content-Type": type }, body: JSON.stringify(webhook(fresh())) });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ message: expect.any(String), documentation_url: expect.any(String) });
  });

  it("a body over the limit: 413 in the error shape, nothing stored", async () => {
    const before = await hookCount();
    const res = await fetch(`${t.api}${REPO}`, {
      method: "POST",
      headers: { Authorization: `token ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(webhook(fresh(), { padding: "x".repeat(2_000_000) })),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: "Payload Too Large", documentation_url: expect.any(String) });
    expect(await hookCount()).toBe(before);
  });
});

describe("the delivery endpoints", () => {
  it.each(["0", "-1", "abc", "1.5", "2&page=3"])("answers 422 invalid page for page=%s", async (page) => {
    const id = (await call("POST", REPO, token, webhook(fresh()))).body.id as number;
    const reply = await call("GET", `${REPO}/${id}/deliveries?page=${page}`, token);
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual([expect.objectContaining({ resource: "HookDelivery", field: "page", code: "invalid" })]);
  });

  it.each(["abc", "0", "-1", "2147483648", "99999999999999999999"])("answers 404 for the delivery id %s (get and redeliver)", async (deliveryId) => {
    const id = (await call("POST", REPO, token, webhook(fresh()))).body.id as number;
    expect((await call("GET", `${REPO}/${id}/deliveries/${deliveryId}`, token)).status).toBe(404);
    expect((await call("POST", `${REPO}/${id}/deliveries/${deliveryId}/attempts`, token)).status).toBe(404);
  });

  it("answers 404 to another application's token on an organization hook's pings, log and redelivery", async () => {
    const demoApp = (await findApplication(t.server.db, DEMO.app.clientId))!.id;
    const other = (await createApplication(t.server.db, { clientId: "bad-input-app", clientSecret: "bad-input-secret", name: "Other", url: "https://other.example", callbackUrl: "https://other.example/cb" })).id;
    const mine = await hookToken(t.server.db, "octocat", ["admin:org_hook"], demoApp);
    const theirs = await hookToken(t.server.db, "octocat", ["admin:org_hook"], other);
    const id = (await call("POST", ORG, mine, webhook(fresh()))).body.id as number;
    // The creation ping is logged once its first attempt has been made.
    let ping: { id: number } | undefined;
    for (let i = 0; i < 100 && !ping; i++) {
      ping = ((await call("GET", `${ORG}/${id}/deliveries`, mine)).body as { id: number }[])[0];
      if (!ping) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ping).toBeDefined();
    for (const [method, path] of [
      ["POST", `${ORG}/${id}/pings`],
      ["GET", `${ORG}/${id}/deliveries`],
      ["GET", `${ORG}/${id}/deliveries/${ping!.id}`],
      ["POST", `${ORG}/${id}/deliveries/${ping!.id}/attempts`],
    ] as const) {
      const reply = await call(method, path, theirs);
      expect(reply.status, `${method} ${path}`).toBe(404);
      expect(reply.body).toEqual({ message: "Not Found", documentation_url: expect.any(String) });
      expect((await call(method, path, mine)).status, `${method} ${path}`).toBeLessThan(300);
    }
  });
});

