/**
 * The API host's cross-cutting rules over real HTTP: token authentication in both forms, 401
 * `Bad credentials`, scope enforcement, rate-limit and scope headers on every response, and the
 * anonymous limit running out into a 403 in the error shape.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../repo-root.ts";
import { findAccountByLogin } from "../../reference/store/accounts.ts";
import { createAuthorization } from "../../reference/store/authorizations.ts";
import type { Scope } from "../../reference/auth/scopes.ts";
import { loadOperationPolicies } from "../../reference/http/operation-policy.ts";
import { routes } from "../../generated/server/index.ts";
import { DEMO, useServer, type TestServer } from "./harness.ts";

const t = useServer();

async function tokenFor(server: TestServer, login: string, scopes: Scope[]): Promise<string> {
  const user = await findAccountByLogin(server.server.db, login);
  return (await createAuthorization(server.server.db, { userId: user!.id, appId: null, scopes, via: "api" })).token;
}

function rateHeaders(res: Response): [string | null, string | null, string | null] {
  return [res.headers.get("x-ratelimit-limit"), res.headers.get("x-ratelimit-remaining"), res.headers.get("x-ratelimit-reset")];
}

describe("token authentication", () => {
  it.each([
    ["Authorization: token", (tok: string) => ({ headers: { Authorization: `token ${tok}` } })],
    ["Authorization: bearer", (tok: string) => ({ headers: { Authorization: `Bearer ${tok}` } })],
  ])("accepts %s and reports the token's scopes", async (_name, init) => {
    const token = await tokenFor(t, "octocat", ["repo", "user"]);
    const res = await fetch(`${t.api}/repos/octocat/hello-world/hooks`, init(token));
    expect(res.status).not.toBe(401);
    expect(res.headers.get("x-oauth-scopes")).toBe("repo, user");
    expect(res.headers.get("x-accepted-oauth-scopes")).toContain("read:repo_hook");
    expect(res.headers.get("x-ratelimit-limit")).toBe("5000");
  });

  it("accepts the access_token query parameter", async () => {
    const token = await tokenFor(t, "octocat", ["repo"]);
    const res = await fetch(`${t.api}/repos/octocat/hello-world/hooks?access_token=${token}`);
    expect(res.status).not.toBe(401);
    expect(res.headers.get("x-oauth-scopes")).toBe("repo");
  });

  it.each([
    ["an unknown token", { Authorization: "token 0000000000000000000000000000000000000000" }, ""],
    ["an unknown token in the query", {}, "?access_token=nope"],
    ["a malformed Authorization header", { Authorization: "tokenX" }, ""],
    ["an unknown scheme", { Authorization: "Digest abc" }, ""],
    ["a token in both header and query", { Authorization: "token abc" }, "?access_token=abc"],
    ["the query parameter twice", {}, "?access_token=a&access_token=b"],
    ["an empty access_token", {}, "?access_token="],
    ["an empty token in the header", { Authorization: "token " }, ""],
  ])("answers 401 Bad credentials to %s, even where anonymous access is allowed", async (_name, headers, query) => {
    const res = await fetch(`${t.api}/events${query}`, { headers });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: "Bad credentials", documentation_url: expect.any(String) });
    expect(rateHeaders(res).every((h) => h !== null)).toBe(true);
  });

  // DECISIONS, "Basic where an operation does not take it": the header is not read there.
  it.each([
    ["right credentials", `Basic ${Buffer.from(`${DEMO.octocat.login}:${DEMO.octocat.password}`).toString("base64")}`],
    ["garbage", "Basic !!!"],
  ])("reads Basic (%s) only where the operation takes it: anonymous on a feed, 401 where a token is needed", async (_name, authorization) => {
    const feed = await fetch(`${t.api}/events`, { headers: { authorization } });
    expect(feed.status).toBe(200);
    expect(feed.headers.get("x-ratelimit-limit")).toBe("60");
    expect(feed.headers.get("x-oauth-scopes")).toBeNull();
    await feed.arrayBuffer();
    const hooks = await fetch(`${t.api}/repos/octocat/hello-world/hooks`, { headers: { authorization } });
    expect(hooks.status).toBe(401);
    expect(await hooks.json()).toEqual({ message: "Requires authentication", documentation_url: expect.any(String) });
  });

  it("refuses a token without an accepted scope with 403 naming the scopes", async () => {
    const token = await tokenFor(t, "octocat", ["gist"]);
    const res = await fetch(`${t.api}/repos/octocat/hello-world/hooks`, { headers: { Authorization: `token ${token}` } });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { message: string };
    expect(body.message).toMatch(/read:repo_hook/);
    expect(res.headers.get("x-accepted-oauth-scopes")).toMatch(/read:repo_hook/);
    expect(res.headers.get("x-oauth-scopes")).toBe("gist");
  });
});

describe("rate-limit headers", () => {
  it.each(["/events", "/no/such/path", "/repos/octocat/hello-world/hooks"])("are on every API response (%s)", async (path) => {
    const res = await fetch(`${t.api}${path}`);
    const [limit, remaining, reset] = rateHeaders(res);
    expect(limit).toBe("60");
    expect(Number(remaining)).toBeGreaterThanOrEqual(0);
    expect(Number(reset)).toBeGreaterThan(Date.now() / 1000);
    expect(Number(reset)).toBeLessThanOrEqual(Date.now() / 1000 + 3601);
  });

  it("are not on the /docs pages, which are outside the contract", async () => {
    const res = await fetch(`${t.api}/docs/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("an over-long path parameter is refused in the error shape, not Fastify's", async () => {
    const res = await fetch(`${t.api}/repos/octocat/${"r".repeat(3000)}/events`);
    expect(res.status).toBe(414);
    expect(await res.json()).toEqual({ message: "URI Too Long", documentation_url: expect.any(String) });
  });

  it("a malformed URL is a 400 in the error shape on the API host", async () => {
    const res = await fetch(`${t.api}/repos/octocat/%FF/events`, { headers: { accept: "text/html" } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: "Bad Request", documentation_url: expect.any(String) });
  });

  it("a malformed URL on the web host is an HTML page for a browser, the error shape for anything else", async () => {
    const browser = await fetch(`${t.auth}/settings/connections/applications/%FF`, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect(browser.status).toBe(400);
    expect(browser.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(browser.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await browser.text()).toMatch(/<h1>Bad Request<\/h1>/);
    const client = await fetch(`${t.auth}/login/oauth/%FF`, { headers: { accept: "application/json" } });
    expect(client.status).toBe(400);
    expect(await client.json()).toEqual({ message: "Bad Request", documentation_url: expect.any(String) });
  });

  it("an unknown path is a 404 in the error shape", async () => {
    const res = await fetch(`${t.api}/no/such/path`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ message: expect.any(String), documentation_url: expect.any(String) });
  });
});

describe("the anonymous limit", () => {
  const own = useServer({ seed: "none" });

  it("counts down from 60 per address and then answers 403 in the error shape", async () => {
    let last: Response | undefined;
    const seen: number[] = [];
    for (let i = 0; i < 60; i++) {
      last = await fetch(`${own.api}/events`);
      seen.push(Number(last.headers.get("x-ratelimit-remaining")));
      await last.arrayBuffer();
    }
    expect(seen[0]).toBe(59);
    expect(seen.at(-1)).toBe(0);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    const refused = await fetch(`${own.api}/events`);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(((await refused.json()) as { message: string }).message).toMatch(/rate limit exceeded/);
  });
});

describe("the operation policies", () => {
  it("are what the spec says, operation by operation (read from the generated route table, not the YAML)", () => {
    // The spec read directly, as the reference did before the route table carried security.
    const doc = parse(readFileSync(join(repoRoot, "spec/openapi.yaml"), "utf8")) as { paths: Record<string, Record<string, { operationId?: string; security?: Record<string, unknown>[]; "x-accepted-scopes"?: string[] }>> };
    const expected = new Map<string, unknown>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of ["get", "put", "post", "delete", "patch"]) {
        const op = item[method];
        if (!op) continue;
        const security = op.security ?? [];
        const schemes = security.flatMap((r) => Object.keys(r));
        expected.set(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ":$1")}`, {
          operationId: op.operationId,
          acceptedScopes: (op["x-accepted-scopes"] ?? []).slice().sort(),
          anonymous: security.length === 0 || security.some((r) => Object.keys(r).length === 0),
          basic: schemes.includes("basic"),
          token: schemes.some((s) => s === "token" || s === "access_token" || s === "oauth2"),
        });
      }
    }
    expect(new Map(loadOperationPolicies())).toEqual(expected);
    // Each kind is there, so the comparison above compares something.
    const all = [...loadOperationPolicies().values()];
    for (const kind of ["anonymous", "basic", "token"] as const) expect(all.some((p) => p[kind]), kind).toBe(true);
    expect(all.some((p) => p.acceptedScopes.length > 1)).toBe(true);
  });
});

describe("every operation of the API host, with a token", () => {
  const policies = loadOperationPolicies();
  const VALUES: Record<string, string> = { owner: "octocat", repo: "hello-world", org: "octo-org", username: "octocat", issue_number: "1", hook_id: "999999", event_id: "999999", delivery_id: "999999", authorization_id: "999999", client_id: DEMO.app.clientId, access_token: "0".repeat(40), fingerprint: "fp" };
  const tokenRoutes = routes.filter((r) => r.host === "api" && policies.get(`${r.method} ${r.url}`)?.token);
  const path = (template: string) => template.replace(/\{([^}]+)\}/g, (_m, name: string) => VALUES[name] ?? "x");
  const request = (method: string, template: string, token: string) =>
    fetch(`${t.api}${path(template)}`, {
      method,
      headers: { Authorization: `token ${token}`, ...(method === "POST" || method === "PATCH" ? { "Content-Type": "application/json" } : {}) },
      body: method === "POST" || method === "PATCH" ? "{}" : undefined,
    });

  it("covers the token operations of the contract", () => {
    expect(tokenRoutes.length).toBeGreaterThan(25);
  });

  it.each(tokenRoutes.map((r) => [r.operationId, r.method, r.path] as const))(
    "%s (%s %s): X-OAuth-Scopes and X-Accepted-OAuth-Scopes on the answer, whatever its status",
    async (_id, method, template) => {
      const token = await tokenFor(t, "octocat", ["repo", "user"]);
      const res = await request(method, template, token);
      await res.arrayBuffer();
      expect(res.status, "a 4xx or success, never a 5xx").toBeLessThan(500);
      expect(res.headers.get("x-oauth-scopes")).toBe("repo, user");
      const policy = policies.get(`${method} ${template.replace(/\{([^}]+)\}/g, ":$1")}`)!;
      expect(res.headers.get("x-accepted-oauth-scopes")).toBe(policy.acceptedScopes.join(", "));
    },
  );

  const scoped = tokenRoutes.filter((r) => {
    const policy = policies.get(`${r.method} ${r.url}`)!;
    return !policy.anonymous && policy.acceptedScopes.length > 0 && !policy.acceptedScopes.includes("notifications");
  });

  it.each(scoped.map((r) => [r.operationId, r.method, r.path] as const))(
    "%s (%s %s): a token without an accepted scope gets 403 naming them, before anything else",
    async (_id, method, template) => {
      const token = await tokenFor(t, "octocat", ["notifications"]);
      const res = await request(method, template, token);
      expect(res.status).toBe(403);
      const body = (await res.json()) as { message: string; documentation_url: string };
      const policy = policies.get(`${method} ${template.replace(/\{([^}]+)\}/g, ":$1")}`)!;
      for (const scope of policy.acceptedScopes) expect(body.message).toContain(scope);
      expect(body.documentation_url).toEqual(expect.any(String));
    },
  );
});
