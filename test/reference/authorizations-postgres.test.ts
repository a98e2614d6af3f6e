/**
 * The non-web flow on two reference-server instances sharing one real PostgreSQL
 * (TEST_DATABASE_URL, as in postgres.test.ts): concurrent creations with one note make exactly
 * one authorization, concurrent get-or-create makes exactly one grant, failed logins count
 * across instances, and a token made on one instance is checked on the other.
 */
import { describe, expect, it } from "vitest";
import { adminUrl, describePostgres, useTwoInstances } from "./postgres-db.ts";
import { MAX_FAILED_LOGINS } from "../../reference/http/basic-auth.ts";
import { basic, DEMO } from "./harness.ts";
import { call, demoApp, hubot, octocat } from "./authorizations-client.ts";

describePostgres("the non-web flow on two instances over PostgreSQL", () => {
  const pair = useTwoInstances("sc_authz");

  it("creates one authorization for concurrent requests with the same note; the others get 422", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call((i % 2 ? pair.a : pair.b).urls.api, "POST", "/authorizations", { auth: octocat, body: { note: "raced" } })),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(7);
    for (const r of answers.filter((x) => x.status === 422)) expect(r.body.errors[0].code).toBe("already_exists");
  });

  it("get-or-create makes one grant under concurrency: one 201, the rest 200 with the same id", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call((i % 2 ? pair.a : pair.b).urls.api, "PUT", `/authorizations/clients/${DEMO.app.clientId}/raced`, { auth: hubot, body: { client_secret: DEMO.app.clientSecret } }),
      ),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(7);
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
  });

  it("checks on one instance a token created on the other", async () => {
    const created = await call(pair.a.urls.api, "PUT", `/authorizations/clients/${DEMO.app.clientId}`, { auth: octocat, body: { client_secret: DEMO.app.clientSecret, scopes: ["repo"] } });
    expect(created.status).toBe(201);
    const checked = await call(pair.b.urls.api, "GET", `/applications/${DEMO.app.clientId}/tokens/${created.body.token}`, { auth: demoApp });
    expect(checked.status).toBe(200);
    expect(checked.body.user.login).toBe("octocat");
  });

  it("counts failed logins across instances", async () => {
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      expect((await call((i % 2 ? pair.a : pair.b).urls.api, "GET", "/authorizations", { auth: basic("defunkt", "wrong") })).status).toBe(401);
    }
    expect((await call(pair.a.urls.api, "GET", "/authorizations", { auth: basic(DEMO.defunkt.login, DEMO.defunkt.password) })).status).toBe(403);
    expect((await call(pair.b.urls.api, "GET", "/authorizations", { auth: basic(DEMO.defunkt.login, DEMO.defunkt.password) })).status).toBe(403);
  });
});
