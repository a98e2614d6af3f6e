/**
 * The spec must describe everything the seed names (and what DESIGN.md adds for the seed's
 * "not shown" parts). This list is written from the seed by hand, independently of the spec,
 * so removing an operation, a webhook, a scope or a feed header from the spec fails here.
 */
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { decodeXml } from "./wire-example.ts";
import { wireText } from "../../cli/wire-examples.ts";
import { readSchemaFiles } from "../../generators/schema-files.ts";

const root = join(import.meta.dirname, "../..");
const schemaFile = (path: string): unknown => JSON.parse(readFileSync(join(root, "spec/schemas", path), "utf8"));
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

interface MediaType {
  schema: { $ref?: string; [k: string]: unknown };
  example?: unknown;
  examples?: Record<string, { $ref?: string; value?: unknown }>;
}

interface Operation {
  operationId?: string;
  servers?: { url: string }[];
  parameters?: { $ref?: string; name?: string; in?: string }[];
  security?: Record<string, string[]>[];
  requestBody?: { $ref?: string; content?: Record<string, MediaType> };
  responses: Record<string, { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, MediaType>; [k: string]: unknown }>;
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
    expect(headerNames(op, "304")).toEqual(expect.arrayContaining(["etag", "x-poll-interval", "x-ratelimit-limit", "x-ratelimit-remaining"]));
    expect(deref(op.responses["304"]!).content, "304 has no body").toBeUndefined();
    expect(op.responses["422"], "page beyond 10 → 422").toBeDefined();
    expect(paramNames(op, "header")).toContain("if-none-match");
    const page = (op.parameters ?? []).map((p) => deref(p) as { name: string; in: string; schema: { minimum: number; maximum: number } }).find((p) => p.in === "query" && p.name === "page");
    expect(page?.schema, "page 1..10").toMatchObject({ minimum: 1, maximum: 10 });
    expect(paramNames(op, "query"), "per_page is unsupported").not.toContain("per_page");
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
    for (const h of ["x-service-event", "x-service-delivery", "x-hub-signature", "x-hub-signature-256", "user-agent", "content-type"]) {
      expect(headers, `${event} lacks ${h}`).toContain(h);
    }
    const eventHeader = (post!.parameters ?? []).map((p) => deref(p) as { name: string; schema: { const?: string } }).find((p) => p.name === "X-Service-Event");
    expect(eventHeader?.schema.const, "X-Service-Event names the event").toBe(event);
    const body = deref((post as unknown as { requestBody: { content: Record<string, MediaType> } }).requestBody);
    expect(Object.keys(body.content).sort()).toEqual(["application/json", "application/x-www-form-urlencoded"]);
    // The same payload schema, as the JSON body and as the JSON inside the form field `payload`.
    const file = `schemas/webhooks/${event}.json`;
    expect(body.content["application/json"]!.schema.$ref).toBe(file);
    const form = body.content["application/x-www-form-urlencoded"]!.schema as { required: string[]; properties: { payload: { contentMediaType: string; contentSchema: { $ref: string } } } };
    expect(form.required).toEqual(["payload"]);
    expect(form.properties.payload.contentMediaType).toBe("application/json");
    expect(form.properties.payload.contentSchema.$ref).toBe(file);
  });

  it("documents `*` as the wildcard among the subscribable event names", () => {
    const names = schemaFile("webhook-event-name.json") as { enum: string[]; description: string };
    expect([...names.enum].sort()).toEqual(["*", ...WEBHOOK_EVENTS].sort());
    expect(names.description).toMatch(/`\*` is the wildcard: it matches all current and future events, and adding it replaces all other/);
  });

  it("has no webhook the seed does not name", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENTS, "ping"].sort());
  });
});

/** The seed's scope table, word for word; `repo` spells out the seed's "The same for …". */
const SCOPE_GRANTS: Record<string, string> = {
  user: "Read/write access to profile info only; includes user:email and user:follow.",
  "user:email": "Read access to the user's e-mail addresses.",
  "user:follow": "Follow and unfollow other users.",
  public_repo: "Read/write access to code, commit statuses and deployment statuses of public repositories and organizations.",
  repo: "Read/write access to code, commit statuses and deployment statuses of public and private repositories and organizations.",
  repo_deployment: "Access to deployment statuses of public and private repositories, without code access.",
  "repo:status": "Read/write access to commit statuses of public and private repositories, without code access.",
  delete_repo: "Delete repositories the user can administer.",
  notifications: "Read access to the user's notifications (repo also provides it).",
  gist: "Write access to gists.",
  "read:repo_hook": "Read and ping hooks in public or private repositories.",
  "write:repo_hook": "Read, write and ping hooks in public or private repositories.",
  "admin:repo_hook": "Read, write, ping and delete hooks in public or private repositories.",
  "admin:org_hook":
    "Read, write, ping and delete organization hooks. OAuth tokens only on hooks created by the OAuth application; personal access tokens only on hooks created by a user.",
  "read:org": "Read-only access to organization, teams and membership.",
  "write:org": "Publicize and unpublicize organization membership.",
  "admin:org": "Fully manage organization, teams and memberships.",
  "read:public_key": "List and view details for public keys.",
  "write:public_key": "Create, list and view details for public keys.",
  "admin:public_key": "Fully manage public keys.",
};

describe("security schemes of the seed's Authentication section", () => {
  const schemes = doc.components.securitySchemes as unknown as Record<string, Record<string, unknown>>;

  it("token in the Authorization header, token in the access_token query parameter, Basic", () => {
    expect(schemes.token).toMatchObject({ type: "apiKey", in: "header", name: "Authorization" });
    expect(schemes.token!.description).toMatch(/`token <ACCESS_TOKEN>`/);
    expect(schemes.access_token).toMatchObject({ type: "apiKey", in: "query", name: "access_token" });
    expect(schemes.basic).toMatchObject({ type: "http", scheme: "basic" });
    expect(schemes.basic!.description).toMatch(/X-Service-OTP/);
  });

  it("oauth2 authorizationCode on the web host's authorize and token URLs, with the seed's scope descriptions", () => {
    const flow = (schemes.oauth2 as { flows: { authorizationCode: { authorizationUrl: string; tokenUrl: string; scopes: Record<string, string> } } }).flows.authorizationCode;
    expect(flow.authorizationUrl).toMatch(/\/login\/oauth\/authorize$/);
    expect(flow.tokenUrl).toMatch(/\/login\/oauth\/access_token$/);
    expect(flow.scopes).toEqual(SCOPE_GRANTS);
    // The 21st row of the seed's table, "(no scope)", is the empty list, described on the scheme.
    expect(schemes.oauth2!.description).toMatch(/no scope.*read-only access to public information/s);
  });

  it("the Scope schema lists the same names and descriptions", () => {
    const scope = schemaFile("scope.json") as { enum: string[]; description: string };
    expect([...scope.enum].sort()).toEqual(Object.keys(SCOPE_GRANTS).sort());
    for (const [name, grant] of Object.entries(SCOPE_GRANTS)) expect(scope.description).toContain(`- \`${name}\`: ${grant}`);
  });
});

/** Every operation, with its path, method and whether it is served on the web host. */
const ALL_OPERATIONS = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
    .map(([method, op]) => ({ key: `${method} ${path}`, op, web: (op.servers ?? []).some((s) => s.url === "{auth_url}") })),
);

describe("two servers: the API host, and the web host on the OAuth operations only", () => {
  it("has the API host as the document's server", () => {
    expect((doc as unknown as { servers: { url: string }[] }).servers.map((s) => s.url)).toEqual(["{base_url}"]);
  });
  it("overrides the server on exactly the three web-host operations", () => {
    expect(ALL_OPERATIONS.filter((o) => o.op.servers).map((o) => o.key).sort()).toEqual([...AUTH_HOST].sort());
  });
});

describe("rate-limit and scope headers on every API response", () => {
  const api = ALL_OPERATIONS.filter((o) => !o.web);
  it.each(api.flatMap((o) => Object.keys(o.op.responses).map((status) => [`${o.key} ${status}`, o.op, status] as const)))(
    "%s",
    (_label, op, status) => {
      const headers = headerNames(op, status);
      expect(headers).toEqual(expect.arrayContaining(["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]));
      // Token-authenticated answers say which scopes the token has and which the action checks.
      const takesToken = (op.security ?? []).some((r) => "token" in r);
      if (takesToken && status.startsWith("2")) expect(headers).toEqual(expect.arrayContaining(["x-oauth-scopes", "x-accepted-oauth-scopes"]));
    },
  );
});

describe("the OAuth web flow endpoints", () => {
  it("authorize takes client_id (required), redirect_uri, scope and state (and, beyond the seed, the optional PKCE pair)", () => {
    const op = operation("get /login/oauth/authorize")!;
    const params = (op.parameters ?? []).map((p) => deref(p) as { name: string; in: string; required?: boolean; description: string });
    expect(params.filter((p) => p.in === "query").map((p) => [p.name, p.required ?? false])).toEqual([
      ["client_id", true],
      ["redirect_uri", false],
      ["scope", false],
      ["state", false],
      // Beyond the seed (DECISIONS: PKCE).
      ["code_challenge", false],
      ["code_challenge_method", false],
    ]);
    // The seed: "Comma-separated scopes"; DESIGN: input may be comma- or space-separated.
    expect(params.find((p) => p.name === "scope")!.description).toMatch(/commas.*spaces are accepted/s);
  });

  it("authorize answers 302 with code and state, or with error, error_description, error_uri and state; HTML pages otherwise", () => {
    const op = operation("get /login/oauth/authorize")!;
    const redirect = op.responses["302"]!;
    expect(Object.keys(redirect.headers ?? {})).toContain("Location");
    const [success, failure] = (redirect["x-location-query"] as { oneOf: [{ required: string[]; properties: Record<string, unknown> }, { $ref: string }] }).oneOf;
    expect(success.required).toEqual(["code"]);
    expect(Object.keys(success.properties).sort()).toEqual(["code", "state"]);
    expect(failure.$ref).toBe("#/components/schemas/OauthAuthorizeError");
    const error = schemaFile("oauth-authorize-error.json") as { required: string[]; properties: { error: { enum: string[] } } & Record<string, unknown> };
    expect(error.required).toEqual(["error", "error_description", "error_uri"]);
    expect(Object.keys(error.properties)).toContain("state");
    // The seed's three, and invalid_request beyond it (DECISIONS: NUL in state, PKCE).
    expect(error.properties.error.enum.sort()).toEqual(["access_denied", "application_suspended", "invalid_request", "redirect_uri_mismatch"]);
    for (const status of ["200", "404"]) expect(Object.keys(op.responses[status]!.content ?? {})).toEqual(["text/html"]);
  });

  it("access_token takes client_id, client_secret, code and redirect_uri (and, beyond the seed, code_verifier), form-encoded or JSON", () => {
    const op = operation("post /login/oauth/access_token")!;
    const body = deref(op.requestBody!);
    expect(Object.keys(body.content ?? {}).sort()).toEqual(["application/json", "application/x-www-form-urlencoded"]);
    const request = schemaFile("access-token-request.json") as { properties: Record<string, unknown> };
    expect(Object.keys(request.properties).sort()).toEqual(["client_id", "client_secret", "code", "code_verifier", "redirect_uri"]);
  });

  it("access_token answers in form, JSON and XML by Accept, each with the token and the three error bodies", () => {
    const ok = operation("post /login/oauth/access_token")!.responses["200"]!;
    expect(Object.keys(ok.content ?? {}).sort()).toEqual(["application/json", "application/x-www-form-urlencoded", "application/xml"]);
    for (const [type, media] of Object.entries(ok.content!)) {
      const refs = (media.schema.oneOf as { $ref: string }[]).map((s) => s.$ref);
      expect(refs, type).toEqual(["#/components/schemas/AccessTokenResponse", "#/components/schemas/OauthTokenError"]);
      const examples = Object.values(media.examples ?? {}).map((e) => deref(e) as { value: unknown; description?: string });
      // Every example is the data (D-SPEC-NO-ID: what every tool checks against the schema); a form
      // or XML one names its exact wire text in its description, which is what the mock sends.
      for (const e of examples) {
        expect(typeof e.value, type).toBe("object");
        if (type !== "application/json") expect(e.description, type).toBe(`On the wire: \`${String(wireText(type, media.schema, e.value))}\``);
      }
      const values = examples.map((e) => e.value as Record<string, string>);
      expect(values.map((v) => v.error ?? v.token_type).sort(), type).toEqual(["bad_verification_code", "bearer", "incorrect_client_credentials", "redirect_uri_mismatch"]);
    }
    // The seed: XML root element OAuth with child elements token_type, scope, access_token.
    const xmlMedia = ok.content!["application/xml"]!;
    for (const e of Object.values(xmlMedia.examples ?? {})) {
      const decoded = decodeXml(String(wireText("application/xml", xmlMedia.schema, (deref(e) as { value: unknown }).value)));
      expect(decoded.root).toBe("OAuth");
      if ("token_type" in decoded.fields) expect(decoded.order).toEqual(["token_type", "scope", "access_token"]);
    }
    const xml = ok.content!["application/xml"]!.schema.oneOf as { xml: { name: string } }[];
    expect(xml.map((s) => s.xml.name)).toEqual(["OAuth", "OAuth"]);
    // Errors come with status 200 (DESIGN), so there is no other status but the 431 the HTTP
    // layer writes before any request is read (spec/DECISIONS.md, "Status codes of token errors").
    expect(Object.keys(operation("post /login/oauth/access_token")!.responses)).toEqual(["200", "431"]);
  });

  it("the review page is an HTML page", () => {
    const op = operation("get /settings/connections/applications/{client_id}")!;
    expect(Object.keys(op.responses["200"]!.content ?? {})).toEqual(["text/html"]);
  });
});

describe("the non-web flow: Basic authentication, two-factor, add_scopes and note", () => {
  const authorizations = ALL_OPERATIONS.filter((o) => o.key.split(" ")[1]!.startsWith("/authorizations"));
  it.each(authorizations.map((o) => [o.key, o.op] as const))("%s", (_key, op) => {
    expect(op.security).toEqual([{ basic: [] }]);
    expect(paramNames(op, "header")).toContain("x-service-otp");
    expect(headerNames(op, "401")).toContain("x-service-otp");
  });

  it("the application endpoints take Basic authentication of the client credentials", () => {
    const apps = ALL_OPERATIONS.filter((o) => o.key.split(" ")[1]!.startsWith("/applications"));
    expect(apps.length).toBe(4);
    for (const o of apps) expect(o.op.security, o.key).toEqual([{ basic: [] }]);
  });

  it("creation takes scopes and note; update takes add_scopes", () => {
    const create = schemaFile("authorization-create-request.json") as { properties: Record<string, unknown> };
    expect(Object.keys(create.properties)).toEqual(expect.arrayContaining(["scopes", "note"]));
    const update = schemaFile("authorization-update-request.json") as { properties: Record<string, { type?: string; items?: unknown }> };
    expect(Object.keys(update.properties)).toEqual(expect.arrayContaining(["scopes", "add_scopes", "remove_scopes", "note"]));
    expect(update.properties.add_scopes!.type).toBe("array");
  });
});

const ISSUE_EVENT_KINDS = [
  "closed", "reopened", "subscribed", "merged", "referenced", "mentioned", "assigned", "unassigned",
  "labeled", "unlabeled", "milestoned", "demilestoned", "renamed", "locked", "unlocked",
  "head_ref_deleted", "head_ref_restored",
];

describe("issue events: the 17 kinds, and issue present or absent by endpoint", () => {
  it("lists the seed's 17 kinds", () => {
    const base = schemaFile("issue-event-base.json") as { properties: { event: { enum: string[] } } };
    expect(base.properties.event.enum).toEqual(ISSUE_EVENT_KINDS);
  });

  it.each([
    ["/repos/{owner}/{repo}/issues/{issue_number}/events", "IssueEvent"],
    ["/repos/{owner}/{repo}/issues/events", "IssueEventWithIssue"],
    ["/repos/{owner}/{repo}/issues/events/{event_id}", "IssueEventWithIssue"],
  ])("%s answers %s", (path, schema) => {
    const media = deref(operation(`get ${path}`)!.responses["200"]!).content!["application/json"]!;
    const ref = (media.schema.items as { $ref?: string } | undefined)?.$ref ?? media.schema.$ref;
    expect(ref).toBe(`#/components/schemas/${schema}`);
  });
});

/** Webhook events whose payload has an `action`, with the actions the seed's table lists. */
const ACTIONS: Record<string, string[]> = {
  issues: ["assigned", "unassigned", "labeled", "unlabeled", "opened", "closed", "reopened"],
  pull_request: ["assigned", "unassigned", "labeled", "unlabeled", "opened", "closed", "reopened", "synchronize"],
  issue_comment: ["created"],
  pull_request_review_comment: ["created"],
  member: ["added"],
  membership: ["added", "removed"],
  release: ["published"],
  repository: ["created"],
  watch: ["started"],
};

describe("webhook payloads: actions as the seed lists them, plus sender and where it happened", () => {
  it.each(WEBHOOK_EVENTS.map((e) => [e] as const))("%s", (event) => {
    const payload = schemaFile(`webhooks/${event}.json`) as { required: string[]; properties: Record<string, unknown>; allOf?: { $ref: string }[] };
    expect(payload.required).toContain("sender");
    expect(payload.required.some((f) => f === "repository" || f === "organization")).toBe(true);
    const activity = schemaFile(`activity-payloads/${event}.json`) as { properties?: { action?: { enum?: string[] } } };
    const actions = ACTIONS[event];
    if (actions) {
      expect(payload.required).toContain("action");
      expect(activity.properties?.action?.enum).toEqual(actions);
      if (event !== "push") expect(payload.allOf?.[0]?.$ref, "the webhook payload mirrors the activity payload").toBe(`../activity-payloads/${event}.json`);
    } else {
      expect(payload.required).not.toContain("action");
    }
  });
});

describe("activity events: discriminated by type, one payload schema per event type", () => {
  it("is a oneOf over one schema per webhook event, each with its own type and payload", () => {
    const event = schemaFile("activity-event.json") as { discriminator?: unknown; oneOf: { $ref: string }[] };
    // No OpenAPI discriminator in the file (its implied mapping would be the file names); our Ajv
    // gets one in memory, inferred from the variants' `type` constants (generators/discriminators.ts).
    expect(event.discriminator).toBeUndefined();
    const loaded = readSchemaFiles(join(root, "spec/schemas")).find((f) => f.name === "activity-event")!;
    expect(loaded.schema.discriminator).toEqual({ propertyName: "type" });
    expect(event.oneOf.map((v) => v.$ref).sort()).toEqual(WEBHOOK_EVENTS.map((e) => `activity/${e}.json`).sort());
    for (const e of WEBHOOK_EVENTS) {
      const variant = schemaFile(`activity/${e}.json`) as { properties: { type: { const: string }; payload: { $ref: string } } };
      const pascal = e.split("_").map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
      expect(variant.properties.type.const).toBe(`${pascal}Event`);
      expect(variant.properties.payload.$ref).toBe(`../activity-payloads/${e}.json`);
    }
  });
});

/** The success statuses of every operation (DESIGN: hooks, deliveries, non-web flow); the rest answer 200. */
const SUCCESS: Record<string, string[]> = {
  [`post ${repoHook}`]: ["200", "201"], // 200: a service hook of that name existed and was updated
  [`post ${orgHook}`]: ["201"],
  [`delete ${repoHook}/{hook_id}`]: ["204"],
  [`delete ${orgHook}/{hook_id}`]: ["204"],
  [`post ${repoHook}/{hook_id}/tests`]: ["204"],
  [`post ${repoHook}/{hook_id}/pings`]: ["204"],
  [`post ${orgHook}/{hook_id}/pings`]: ["204"],
  [`post ${repoHook}/{hook_id}/deliveries/{delivery_id}/attempts`]: ["202"],
  [`post ${orgHook}/{hook_id}/deliveries/{delivery_id}/attempts`]: ["202"],
  "post /authorizations": ["201"],
  "delete /authorizations/{authorization_id}": ["204"],
  "put /authorizations/clients/{client_id}": ["200", "201"],
  "put /authorizations/clients/{client_id}/{fingerprint}": ["200", "201"],
  "delete /applications/{client_id}/tokens/{access_token}": ["204"],
  "delete /applications/{client_id}/grants/{access_token}": ["204"],
  "get /login/oauth/authorize": ["200", "302"],
  ...Object.fromEntries(FEEDS.map((p) => [`get ${p}`, ["200", "304"]])),
};

describe("success statuses", () => {
  it.each(ALL_OPERATIONS.map((o) => [o.key, o.op] as const))("%s", (key, op) => {
    const ok = Object.keys(op.responses).filter((s) => /^[23]/.test(s)).sort();
    expect(ok).toEqual(SUCCESS[key] ?? ["200"]);
    if (ok.includes("201")) expect(headerNames(op, "201"), "a created resource names its URL").toContain("location");
    if (ok.includes("204")) expect(deref(op.responses["204"]!).content, "204 has no body").toBeUndefined();
  });

  it("paginates the issue event lists with page, and not the single event", () => {
    expect(paramNames(operation(`get ${ISSUE_EVENTS[0]}`)!, "query")).toEqual(["page"]);
    expect(paramNames(operation(`get ${ISSUE_EVENTS[1]}`)!, "query")).toEqual(["page"]);
    expect(paramNames(operation(`get ${ISSUE_EVENTS[2]}`)!, "query")).toEqual([]);
  });
});

/** The schema files the contract must have (issue 2's list), one resource each. */
const SCHEMA_FILES = [
  "user", "actor", "organization", "event-org", "event-repo", "repository", "issue", "label", "milestone",
  "pull-request", "commit-comment", "issue-comment", "pull-request-review-comment", "commit", "release",
  "deployment", "deployment-status", "page-build", "activity-payloads/status", "team", "hook", "hook-config",
  "hook-delivery", "hook-delivery-detail", "webhooks/ping", "access-token-response", "oauth-authorize-error",
  "oauth-token-error", "authorization", "error", "validation-error", "service-hook", "scope", "webhook-event-name",
  "activity-event", "issue-event", "issue-event-with-issue",
  ...WEBHOOK_EVENTS.flatMap((e) => [`activity/${e}`, `activity-payloads/${e}`, `webhooks/${e}`]),
];

describe("schema files", () => {
  it.each(SCHEMA_FILES)("spec/schemas/%s.json exists, is referenced from components.schemas", (name) => {
    const schema = schemaFile(`${name}.json`) as { title: string };
    const component = (doc.components as unknown as { schemas: Record<string, { $ref: string }> }).schemas[schema.title];
    expect(component?.$ref, `components.schemas.${schema.title}`).toBe(`schemas/${name}.json`);
  });
});

describe("scopes: security requirements, x-accepted-scopes and 403 agree", () => {
  const tokenOps = ALL_OPERATIONS.filter((o) => (o.op.security ?? []).some((r) => "token" in r));
  it.each(tokenOps.map((o) => [o.key, o.op] as const))("%s", (_key, op) => {
    const accepted = (op as unknown as { "x-accepted-scopes": string[] })["x-accepted-scopes"];
    expect(accepted, "x-accepted-scopes (the X-Accepted-OAuth-Scopes value) is sorted").toEqual([...accepted].sort());
    for (const scope of accepted) expect(Object.keys(SCOPE_GRANTS), scope).toContain(scope);
    const anonymous = op.security!.some((r) => Object.keys(r).length === 0);
    if (anonymous) {
      // Anyone may call it; the scopes only widen what is seen (private repositories with repo).
      expect(op.security!.filter((r) => Object.keys(r).length > 0)).toEqual([{ token: [] }, { access_token: [] }, { oauth2: [] }]);
      return;
    }
    // Only a token with one of the accepted scopes may call it: one alternative per scheme and scope
    // (OpenAPI ANDs the scopes inside one requirement), and a token without them gets 403.
    const asSet = (reqs: Record<string, string[]>[]): string[] => reqs.map((r) => JSON.stringify(r)).sort();
    expect(asSet(op.security!)).toEqual(asSet(["token", "access_token", "oauth2"].flatMap((scheme) => accepted.map((s) => ({ [scheme]: [s] })))));
    expect(op.responses["403"]?.$ref, "403 covers a missing scope").toBe("#/components/responses/Forbidden");
  });
});

/** The fields the seed's Resources section names, which every payload must carry. */
const SEED_FIELDS: Record<string, string[]> = {
  "activity-event-base": ["id", "type", "public", "payload", "repo", "actor", "created_at"],
  "event-repo": ["id", "name", "url"],
  actor: ["id", "login", "gravatar_id", "avatar_url", "url"],
  "event-org": ["id", "login", "gravatar_id", "url", "avatar_url"],
  user: [
    "login", "id", "avatar_url", "gravatar_id", "url", "html_url", "followers_url", "following_url", "gists_url",
    "starred_url", "subscriptions_url", "organizations_url", "repos_url", "events_url", "received_events_url", "type", "site_admin",
  ],
  "issue-event-base": ["id", "url", "actor", "event", "created_at"],
  issue: ["id", "url", "html_url", "number", "state", "title", "body", "user", "assignee", "labels", "milestone", "comments", "closed_at", "created_at", "updated_at"],
  label: ["url", "name", "color"],
  milestone: ["url", "number", "state", "title", "description", "creator", "open_issues", "closed_issues", "created_at", "updated_at", "closed_at", "due_on"],
  "access-token-response": ["access_token", "scope", "token_type"],
  "oauth-token-error": ["error", "error_description", "error_uri"],
  "webhooks/ping": ["zen", "hook_id", "hook"],
};

describe("the fields the seed names are required", () => {
  it.each(Object.entries(SEED_FIELDS))("%s", (name, fields) => {
    const schema = schemaFile(`${name}.json`) as { required: string[]; properties: Record<string, unknown> };
    expect(schema.required).toEqual(expect.arrayContaining(fields));
    for (const f of fields) expect(Object.keys(schema.properties), f).toContain(f);
  });
});

describe("delivery signatures (DESIGN: X-Hub-Signature sha1, X-Hub-Signature-256 sha256)", () => {
  const params = doc.components.parameters as Record<string, { name: string; description: string; schema: { pattern: string } }>;
  it("documents a test vector that is the HMAC-SHA256 it claims", () => {
    const expected = "sha256=" + createHmac("sha256", "It's a Secret to Everybody").update("Hello, World!").digest("hex");
    expect(expected).toBe("sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17");
    expect(params.webhookSignature256!.description).toContain(expected);
    expect(new RegExp(params.webhookSignature256!.schema.pattern).test(expected)).toBe(true);
  });
  it("describes X-Hub-Signature as sha1= and a hex HMAC-SHA1 of the exact body", () => {
    const sha1 = "sha1=" + createHmac("sha1", "It's a Secret to Everybody").update("Hello, World!").digest("hex");
    expect(params.webhookSignature!.name).toBe("X-Hub-Signature");
    expect(params.webhookSignature!.description).toMatch(/HMAC-SHA1 of the exact body bytes/);
    expect(new RegExp(params.webhookSignature!.schema.pattern).test(sha1)).toBe(true);
    expect(new RegExp(params.webhookSignature!.schema.pattern).test(sha1.toUpperCase())).toBe(false);
  });
});
