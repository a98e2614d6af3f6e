/**
 * Hook management on two reference-server instances sharing one real PostgreSQL
 * (TEST_DATABASE_URL, as in postgres.test.ts), where requests really race: concurrent installs of
 * one service make one hook (one 201, the rest 200 with its id), concurrent webhooks with one URL
 * make one hook (the rest 422 `already_exists`), and both instances share one secret key.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { adminUrl, describePostgres, useTwoInstances } from "./postgres-db.ts";
import { client, hookToken, webhook } from "./hooks-fixtures.ts";

describePostgres("hook management on two instances over PostgreSQL", () => {
  const pair = useTwoInstances("sc_hooks");
  let token: string;
  const on = (i: number) => client(() => (i % 2 ? pair.a : pair.b).urls.api);

  beforeAll(async () => {
    token = await hookToken(pair.a.db, "octocat", ["admin:repo_hook", "admin:org_hook"]);
  });

  it("installs a service once under concurrency: one 201, the others update it (200, same id)", async () => {
    const body = { name: "travis", config: { user: "octocat", token: "raced-token", domain: "ci.example" } };
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => on(i)("POST", "/repos/octocat/hello-world/hooks", token, body)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201), JSON.stringify(answers.map((r) => r.text))).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
    const rows = await pair.a.db.query("select 1 from hooks where name = 'travis'");
    expect(rows).toHaveLength(1);
  });

  it("creates one webhook per URL under concurrency; the others get 422 already_exists", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => on(i)("POST", "/orgs/octo-org/hooks", token, webhook("https://raced.example/hook"))));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = answers.filter((r) => r.status === 422);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(r.body.errors[0]).toMatchObject({ field: "config.url", code: "already_exists" });
  });

  it("shares one secret key between the instances, and each serves the other's hooks", async () => {
    const created = await on(0)("POST", "/repos/octocat/hello-world/hooks", token, webhook("https://shared.example/hook", {}, { secret: "shared secret" }));
    expect(created.status).toBe(201);
    const seen = await on(1)("GET", `/repos/octocat/hello-world/hooks/${created.body.id}`, token);
    expect(seen.body).toMatchObject({ id: created.body.id, config: { url: "https://shared.example/hook" } });
    expect(await pair.a.db.query("select 1 from server_keys where name = 'hook-secrets'")).toHaveLength(1);
  });
});
