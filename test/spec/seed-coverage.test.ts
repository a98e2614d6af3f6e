/**
 * The spec must describe everything the seed names (and what DESIGN.md adds for the seed's
 * "not shown" parts). This list is written from the seed by hand, independently of the spec,
 * so removing an operation, a webhook, a scope or a feed header from the spec fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const doc = parse(readFileSync(join(root, "spec/openapi.yaml"), "utf8")) as {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post?: Operation }>;
  components: {
    securitySchemes: Record<string, { type: string; flows?: { authorizationCode?: { scopes: Record<string, string> } } }>;
    parameters?: Record<string, unknown>;
    headers?: Record<string, unknown>;
    responses?: Record<string, unknown>;
  };
};

interface Operation {
  operationId?: string;
  servers?: { url: string }[];
  parameters?: { $ref?: string; name?: string; in?: string }[];
  responses: Record<string, { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
}

const FEEDS = [
  "/events",
  "/repos/{owner}/{repo}/events",
  "/networks/{owner}/{repo}/events",
  "/orgs/{org}/events",
  "/users/{username}/received_events",
  "/users/{username}/received_events/public",
  "/users/{username}/events",
  "/users/{username}/events/public",
  "/users/{username}/events/orgs/{org}",
];

const ISSUE_EVENTS = [
  "/repos/{owner}/{repo}/issues/{issue_number}/events",
  "/repos/{owner}/{repo}/issues/events",
  "/repos/{owner}/{repo}/issues/events/{event_id}",
];

const AUTH_HOST = [
  "get /login/oauth/authorize",
  "post /login/oauth/access_token",
  "get /settings/connections/applications/{client_id}",
];

const repoHook = "/repos/{owner}/{repo}/hooks";
const orgHook = "/orgs/{org}/hooks";
const OPERATIONS = [
  ...FEEDS.map((p) => `get ${p}`),
  ...ISSUE_EVENTS.map((p) => `get ${p}`),
  "get /hooks",
  ...AUTH_HOST,
  ...[repoHook, orgHook].flatMap((base) => [
    `get ${base}`,
    `post ${base}`,
    `get ${base}/{hook_id}`,
    `patch ${base}/{hook_id}`,
    `delete ${base}/{hook_id}`,
    `post ${base}/{hook_id}/pings`,
    `get ${base}/{hook_id}/deliveries`,
    `get ${base}/{hook_id}/deliveries/{delivery_id}`,
    `post ${base}/{hook_id}/deliveries/{delivery_id}/attempts`,
  ]),
  `post ${repoHook}/{hook_id}/tests`,
  "get /authorizations",
  "post /authorizations",
  "get /authorizations/{authorization_id}",
  "patch /authorizations/{authorization_id}",
  "delete /authorizations/{authorization_id}",
  "put /authorizations/clients/{client_id}",
  "put /authorizations/clients/{client_id}/{fingerprint}",
  "get /applications/{client_id}/tokens/{access_token}",
  "post /applications/{client_id}/tokens/{access_token}",
  "delete /applications/{client_id}/tokens/{access_token}",
];

const WEBHOOK_EVENTS = [
  "commit_comment", "create", "delete", "deployment", "deployment_status", "fork", "gollum",
  "issue_comment", "issues", "member", "membership", "page_build", "public",
  "pull_request_review_comment", "pull_request", "push", "repository", "release", "status",
  "team_add", "watch",
];

const SCOPES = [
  "user", "user:email", "user:follow", "public_repo", "repo", "repo_deployment", "repo:status",
  "delete_repo", "notifications", "gist", "read:repo_hook", "write:repo_hook", "admin:repo_hook",
  "admin:org_hook", "read:org", "write:org", "admin:org", "read:public_key", "write:public_key",
  "admin:public_key",
];

function operation(key: string): Operation | undefined {
  const [method, path] = key.split(" ") as [string, string];
  return doc.paths?.[path]?.[method];
}

/** Follows a local `$ref` (`#/components/...`) so checks see what the reference stands for. */
function deref<T>(node: T | { $ref?: string }): T {
  const ref = (node as { $ref?: string }).$ref;
  if (!ref?.startsWith("#/")) return node as T;
  const target = ref.slice(2).split("/").reduce<unknown>((n, k) => (n as Record<string, unknown>)?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
  return deref(target as T);
}

function headerNames(op: Operation, status: string): string[] {
  const response = op.responses[status];
  return response ? Object.keys(deref(response).headers ?? {}).map((h) => h.toLowerCase()) : [];
}

function paramNames(op: Operation, where: string): string[] {
  return (op.parameters ?? []).map((p) => deref(p) as { name: string; in: string }).filter((p) => p.in === where).map((p) => p.name.toLowerCase());
}

describe("every operation the seed and DESIGN.md name", () => {
  it.each(OPERATIONS)("%s", (key) => {
    const op = operation(key);
    expect(op, `spec/openapi.yaml lacks ${key}`).toBeDefined();
    expect(op!.operationId).toMatch(/^[a-z][A-Za-z]+$/);
  });

  it("lists every scope of the seed in the oauth2 flow", () => {
    const oauth = Object.values(doc.components.securitySchemes).find((s) => s.type === "oauth2");
    const scopes = Object.keys(oauth?.flows?.authorizationCode?.scopes ?? {});
    expect(scopes.sort()).toEqual([...SCOPES].sort());
  });
});

describe("OAuth operations are on the web host", () => {
  it.each(AUTH_HOST)("%s", (key) => {
    expect(operation(key)?.servers?.map((s) => s.url)).toContain("{auth_url}");
  });
});

describe("activity feeds: polling headers, 304, page", () => {
  it.each(FEEDS)("%s", (path) => {
    const op = operation(`get ${path}`)!;
    expect(headerNames(op, "200")).toEqual(
      expect.arrayContaining(["link", "etag", "x-poll-interval", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]),
    );
    expect(headerNames(op, "304")).toContain("etag");
    expect(op.responses["422"], "page beyond 10 → 422").toBeDefined();
    expect(paramNames(op, "header")).toContain("if-none-match");
    expect(paramNames(op, "query")).toContain("page");
  });
});

describe("issue events: Link and rate-limit headers", () => {
  it.each(ISSUE_EVENTS.slice(0, 2))("%s", (path) => {
    const op = operation(`get ${path}`)!;
    expect(headerNames(op, "200")).toEqual(expect.arrayContaining(["link", "x-ratelimit-limit", "x-ratelimit-remaining"]));
    expect(op.responses["404"]).toBeDefined();
  });
});

describe("webhooks: one entry per event of the seed's table, plus ping", () => {
  it.each([...WEBHOOK_EVENTS, "ping"])("%s", (event) => {
    const post = doc.webhooks?.[event]?.post;
    expect(post, `webhooks.${event}.post`).toBeDefined();
    const headers = paramNames(post!, "header");
    for (const h of ["x-service-event", "x-service-delivery", "x-hub-signature", "x-hub-signature-256", "user-agent"]) {
      expect(headers, `${event} lacks ${h}`).toContain(h);
    }
    const body = deref((post as unknown as { requestBody: { content: Record<string, unknown> } }).requestBody);
    expect(Object.keys(body.content).sort()).toEqual(["application/json", "application/x-www-form-urlencoded"]);
  });

  it("has no webhook the seed does not name", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENTS, "ping"].sort());
  });
});
