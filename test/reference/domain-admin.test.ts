/**
 * POST /_admin/simulate/:event (reference/http/admin.ts) on a Fastify instance over real HTTP:
 * the admin token guards it (missing, wrong, near-miss → 401), bad bodies → 422, unknown
 * event/repository → 404, all in the error shape; a good call returns 201 with the events.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../reference/db/database.ts";
import { migrate } from "../../reference/db/migrate.ts";
import { seedDatabase } from "../../reference/seed/load.ts";
import { registerAdmin } from "../../reference/http/admin.ts";
import { validateActivityEvent } from "../../generated/validators/index.js";
import { ceiling } from "../ceilings.ts";

const TOKEN = "admin-token-for-tests-0123456789";
let db: Database;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  db = await openDatabase({});
  await migrate(db);
  await seedDatabase(db, "demo");
  app = Fastify();
  registerAdmin(app, { db, urls: { api: "http://127.0.0.1:3000", auth: "http://127.0.0.1:3001" }, now: () => new Date() }, { token: TOKEN });
  base = await app.listen({ host: "127.0.0.1", port: 0 });
}, ceiling(60_000));
afterAll(async () => {
  await app.close();
  await db.close();
});

const post = (event: string, body: unknown, token: string | null = TOKEN, contentType = "application/json") =>
  fetch(`${base}/_admin/simulate/${event}`, {
    method: "POST",
    headers: { "content-type": contentType, ...(token !== null ? { "x-admin-token": token } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("admin simulate endpoint", () => {
  it("records events and answers 201 with them", async () => {
    const res = await post("push", { repo: "octocat/hello-world", actor: "octocat", count: 2, params: { commits: "2" } });
    expect(res.status).toBe(201);
    const json = (await res.json()) as { events: unknown[]; issue_events: unknown[] };
    expect(json.events).toHaveLength(2);
    for (const e of json.events) expect(validateActivityEvent(e).valid).toBe(true);
    expect((await db.query("select 1 from events")).length).toBe(2);
  });

  it("refuses missing, wrong and near-miss tokens with 401", async () => {
    for (const token of [null, "", "wrong", TOKEN.slice(0, -1), `${TOKEN}x`]) {
      const res = await post("push", {}, token);
      expect(res.status, String(token)).toBe(401);
      expect(await res.json()).toMatchObject({ message: "Bad admin token" });
    }
  });

  it("answers 404 and 422 in the error shape for bad requests", async () => {
    const cases: [string, unknown, number][] = [
      ["nope", {}, 404],
      ["push", { repo: "octocat/missing" }, 404],
      ["push", { actor: "ghost" }, 404],
      ["push", { count: 0 }, 422],
      ["push", { count: 1000 }, 422],
      ["push", { params: { commits: 3 } }, 422],
      ["push", { repo: 5 }, 422],
      ["push", [1, 2], 422],
      ["issues", { params: { action: "closed", number: "abc" } }, 422],
    ];
    for (const [event, body, status] of cases) {
      const res = await post(event, body);
      expect(res.status, `${event} ${JSON.stringify(body)}`).toBe(status);
      const json = (await res.json()) as { message: string; documentation_url: string };
      expect(typeof json.message).toBe("string");
      expect(json.documentation_url).toMatch(/^https:/);
    }
  });

  it("rejects GET and short tokens", async () => {
    expect((await fetch(`${base}/_admin/simulate/push`)).status).toBe(404);
    expect(() => registerAdmin(Fastify(), { db, urls: { api: "", auth: "" }, now: () => new Date() }, { token: "short" })).toThrow();
  });
});
