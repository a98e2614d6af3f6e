/**
 * `diff` on copies of our own contract: every kind of change the issue names, each made by the
 * test on a fresh copy of spec/, compared in both directions (the edit as the new version, and
 * the edit as the old one), so that each rule is seen from the writer's and the reader's side.
 * Plus the two cases where nothing may be reported: the contract against itself, and against a
 * copy changed only cosmetically (descriptions, key order, a schema file moved, the bundle).
 */
import { renameSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffContracts, diffDocuments, loadContract, type Change, type Contract } from "../../diff/index.ts";
import { writePortableBundle } from "../../generators/portable-bundle.ts";
import { copySpec, editOpenApi, editSchema, editText, removeCopies, SPEC } from "./contract-copy.ts";

interface Expected {
  kind: string;
  for: string[];
  operation?: string;
  webhook?: string;
  /** A part of the pointer. */
  pointer?: string;
  message?: RegExp;
  /** For a change of unknown compatibility: whom it may break. */
  mayBreak?: string[];
}

interface Case {
  name: string;
  edit: (spec: string) => void;
  /** base = our contract, head = the edited copy. */
  forward: Expected[];
  /** base = the edited copy, head = our contract. */
  backward: Expected[];
  /** Nothing else may be reported in either direction. */
  only?: boolean;
}

const CASES: Case[] = [
  {
    name: "a required response field removed (User.site_admin)",
    edit: (spec) =>
      editSchema(spec, "user.json", (s) => {
        delete s.properties.site_admin;
        s.required = s.required.filter((r: string) => r !== "site_admin");
      }),
    forward: [
      { kind: "response-property-removed", for: ["clients"], operation: "listPublicEvents", message: /required property site_admin removed/ },
      { kind: "webhook-property-removed", for: ["receivers"], webhook: "push" },
      // Users are also in request-free places only: no request change.
    ],
    backward: [
      { kind: "response-required-property-added", for: ["servers"], operation: "listPublicEvents" },
      { kind: "webhook-required-property-added", for: ["servers"], webhook: "push" },
    ],
  },
  {
    name: "a required response field made optional (User.login)",
    edit: (spec) => editSchema(spec, "user.json", (s) => (s.required = s.required.filter((r: string) => r !== "login"))),
    forward: [
      { kind: "response-property-became-optional", for: ["clients"], operation: "getIssueEvent", pointer: "/properties/login" },
      { kind: "webhook-property-became-optional", for: ["receivers"], webhook: "issues" },
    ],
    backward: [
      { kind: "response-property-became-required", for: ["servers"], operation: "getIssueEvent" },
      { kind: "webhook-property-became-required", for: ["receivers"].map(() => "servers"), webhook: "issues" },
    ],
  },
  {
    name: "a response type widened (User.id integer → integer or string)",
    edit: (spec) => editSchema(spec, "user.json", (s) => (s.properties.id.type = ["integer", "string"])),
    forward: [
      { kind: "response-type-widened", for: ["clients"], operation: "listIssueEventsForRepo" },
      { kind: "webhook-type-widened", for: ["receivers"], webhook: "watch" },
    ],
    backward: [
      { kind: "response-type-narrowed", for: ["servers"], operation: "listIssueEventsForRepo" },
      { kind: "webhook-type-narrowed", for: ["servers"], webhook: "watch" },
    ],
  },
  {
    name: "a response enum value added (issue event kind transferred)",
    edit: (spec) => editSchema(spec, "issue-event-base.json", (s) => s.properties.event.enum.push("transferred")),
    forward: [{ kind: "response-enum-value-added", for: ["clients"], operation: "getIssueEvent", message: /"transferred" added/ }],
    backward: [{ kind: "response-enum-value-removed", for: ["servers"], operation: "getIssueEvent", message: /"transferred" removed/ }],
    only: true,
  },
  {
    name: "a response value made nullable: X → anyOf [X, null] (issue event actor)",
    edit: (spec) =>
      editSchema(spec, "issue-event-base.json", (s) => {
        const { $ref, description } = s.properties.actor;
        s.properties.actor = { description, anyOf: [{ $ref }, { type: "null" }] };
      }),
    forward: [{ kind: "response-branch-added", for: ["clients"], operation: "getIssueEvent", pointer: "/properties/actor/anyOf/1", message: /anyOf alternative \{"type":"null"\} added/ }],
    backward: [{ kind: "response-branch-removed", for: ["servers"], operation: "getIssueEvent" }],
    only: true,
  },
  {
    name: "a new required request body field (hook create: secret_hint)",
    edit: (spec) =>
      editSchema(spec, "hook-create-request.json", (s) => {
        s.properties.secret_hint = { type: "string" };
        s.required.push("secret_hint");
      }),
    forward: [{ kind: "request-required-property-added", for: ["clients"], operation: "createRepoHook" }],
    // Taking a field away from a request changes what clients' requests mean.
    backward: [{ kind: "request-property-removed", for: ["clients"], operation: "createRepoHook" }],
  },
  {
    // Issue 35 called every replaced pattern "unknown"; issue 42 compares their languages:
    // `^[a-z]+$` accepts a subset of `^[a-z0-9][a-z0-9_-]*$`, so it narrows what clients may send.
    name: "a request pattern replaced by a narrower one (hook name): breaks clients; back, servers",
    edit: (spec) => editSchema(spec, "hook-create-request.json", (s) => (s.properties.name.pattern = "^[a-z]+$")),
    forward: [{ kind: "request-pattern-changed", for: ["clients"], operation: "createOrgHook" }],
    backward: [{ kind: "request-pattern-changed", for: ["servers"], operation: "createOrgHook" }],
    only: true,
  },
  {
    name: "a request field restricted to one value (hook active: const true)",
    edit: (spec) => editSchema(spec, "hook-create-request.json", (s) => (s.properties.active = { ...s.properties.active, type: "boolean", const: true })),
    forward: [{ kind: "request-enum-added", for: ["clients"], operation: "createRepoHook", pointer: "/properties/active" }],
    backward: [{ kind: "request-enum-removed", for: ["servers"], operation: "createRepoHook" }],
  },
  {
    name: "an enum value removed from what clients send and servers answer (WebhookEventName watch)",
    edit: (spec) => editSchema(spec, "webhook-event-name.json", (s) => (s.enum = s.enum.filter((e: string) => e !== "watch"))),
    forward: [
      { kind: "request-enum-value-removed", for: ["clients"], operation: "createRepoHook" },
      { kind: "response-enum-value-removed", for: ["servers"], operation: "listRepoHooks" },
    ],
    backward: [
      { kind: "request-enum-value-added", for: ["servers"], operation: "createRepoHook" },
      { kind: "response-enum-value-added", for: ["clients"], operation: "listRepoHooks" },
    ],
  },
  {
    name: "a changed request default (hook events default)",
    edit: (spec) => editSchema(spec, "hook-create-request.json", (s) => (s.properties.events.default = ["*"])),
    forward: [{ kind: "request-default-changed", for: ["clients"], operation: "createRepoHook" }],
    backward: [{ kind: "request-default-changed", for: ["clients"], operation: "createRepoHook" }],
    only: true,
  },
  {
    name: "a new required query parameter",
    edit: (spec) =>
      editOpenApi(spec, (d) => d.paths["/events"].get.parameters.push({ name: "since", in: "query", required: true, schema: { type: "string" } })),
    forward: [{ kind: "request-required-parameter-added", for: ["clients"], operation: "listPublicEvents", pointer: "/paths/~1events/get/parameters/2" }],
    backward: [{ kind: "request-parameter-removed", for: ["clients"], operation: "listPublicEvents" }],
  },
  {
    name: "an optional query parameter made required (feed page)",
    edit: (spec) => editOpenApi(spec, (d) => (d.components.parameters.feedPage.required = true)),
    forward: [{ kind: "request-parameter-became-required", for: ["clients"], operation: "listRepoEvents" }],
    backward: [{ kind: "request-parameter-became-optional", for: ["servers"], operation: "listRepoEvents" }],
  },
  {
    name: "a request parameter's schema narrowed (feed page maximum 10 → 5)",
    edit: (spec) => editOpenApi(spec, (d) => (d.components.parameters.feedPage.schema.maximum = 5)),
    forward: [{ kind: "request-parameter-maximum-changed", for: ["clients"], operation: "listOrgEvents" }],
    backward: [{ kind: "request-parameter-maximum-changed", for: ["servers"], operation: "listOrgEvents" }],
  },
  {
    name: "an operation removed (GET /hooks)",
    edit: (spec) => editOpenApi(spec, (d) => delete d.paths["/hooks"]),
    forward: [{ kind: "operation-removed", for: ["clients"], operation: "listServiceHooks" }],
    backward: [{ kind: "operation-added", for: ["servers"], operation: "listServiceHooks" }],
    only: true,
  },
  {
    name: "an operation moved to another path",
    edit: (spec) =>
      editOpenApi(spec, (d) => {
        d.paths["/service-hooks"] = d.paths["/hooks"];
        delete d.paths["/hooks"];
      }),
    forward: [{ kind: "operation-moved", for: ["clients", "servers"], operation: "listServiceHooks", message: /\/hooks to GET \/service-hooks/ }],
    backward: [{ kind: "operation-moved", for: ["clients", "servers"], operation: "listServiceHooks" }],
  },
  {
    name: "a webhook removed (watch)",
    edit: (spec) => editOpenApi(spec, (d) => delete d.webhooks.watch),
    forward: [{ kind: "webhook-removed", for: ["receivers"], webhook: "watch" }],
    backward: [{ kind: "webhook-added", for: ["servers"], webhook: "watch" }],
    only: true,
  },
  {
    name: "a required delivery header removed (X-Service-Delivery on push)",
    edit: (spec) => editOpenApi(spec, (d) => (d.webhooks.push.post.parameters = d.webhooks.push.post.parameters.filter((p: { $ref?: string }) => p.$ref !== "#/components/parameters/webhookDelivery"))),
    forward: [{ kind: "webhook-parameter-removed", for: ["receivers"], webhook: "push", message: /header X-Service-Delivery removed/ }],
    backward: [{ kind: "webhook-required-parameter-added", for: ["servers"], webhook: "push" }],
  },
  {
    name: "a delivery media type removed (push as a form)",
    edit: (spec) => editOpenApi(spec, (d) => delete d.webhooks.push.post.requestBody.content["application/x-www-form-urlencoded"]),
    forward: [{ kind: "webhook-media-type-removed", for: ["receivers"], webhook: "push" }],
    backward: [{ kind: "webhook-media-type-added", for: ["servers"], webhook: "push" }],
  },
  {
    name: "a success status removed (304 on the public feed)",
    edit: (spec) => editOpenApi(spec, (d) => delete d.paths["/events"].get.responses["304"]),
    forward: [{ kind: "response-status-removed", for: ["servers"], operation: "listPublicEvents" }],
    backward: [{ kind: "response-status-added", for: ["clients"], operation: "listPublicEvents" }],
    only: true,
  },
  {
    name: "an error status removed (422 on the public feed)",
    edit: (spec) => editOpenApi(spec, (d) => delete d.paths["/events"].get.responses["422"]),
    forward: [{ kind: "response-status-removed", for: ["servers"], operation: "listPublicEvents" }],
    backward: [{ kind: "response-error-status-added", for: [], operation: "listPublicEvents" }],
  },
  {
    name: "a declared response header removed (ETag on the feeds)",
    edit: (spec) => editOpenApi(spec, (d) => delete d.components.responses.ActivityEvents.headers.ETag),
    forward: [{ kind: "response-header-removed", for: ["clients"], operation: "listNetworkEvents", message: /header ETag removed/ }],
    backward: [{ kind: "response-required-header-added", for: ["servers"], operation: "listNetworkEvents" }],
    only: true,
  },
  {
    name: "a required response header made optional (X-RateLimit-Remaining)",
    edit: (spec) => editOpenApi(spec, (d) => (d.components.headers["X-RateLimit-Remaining"].required = false)),
    forward: [{ kind: "response-header-became-optional", for: ["clients"], operation: "listRepoHooks" }],
    backward: [{ kind: "response-header-became-required", for: ["servers"], operation: "listRepoHooks" }],
  },
  {
    name: "a response header's schema narrowed (X-Poll-Interval minimum 1 → 60)",
    edit: (spec) => editOpenApi(spec, (d) => (d.components.headers["X-Poll-Interval"].schema.minimum = 60)),
    forward: [{ kind: "response-header-minimum-changed", for: ["servers"], operation: "listPublicEvents" }],
    backward: [{ kind: "response-header-minimum-changed", for: ["clients"], operation: "listPublicEvents" }],
  },
  {
    name: "a response media type removed (the token endpoint's XML)",
    edit: (spec) => editOpenApi(spec, (d) => delete d.paths["/login/oauth/access_token"].post.responses["200"].content["application/xml"]),
    forward: [{ kind: "response-media-type-removed", for: ["clients"], operation: "createAccessToken", message: /application\/xml removed/ }],
    backward: [{ kind: "response-media-type-added", for: ["servers"], operation: "createAccessToken" }],
    only: true,
  },
  {
    name: "a request media type removed (the token request as JSON)",
    edit: (spec) => editOpenApi(spec, (d) => delete d.components.requestBodies.AccessTokenRequest.content["application/json"]),
    forward: [{ kind: "request-media-type-removed", for: ["clients"], operation: "createAccessToken" }],
    backward: [{ kind: "request-media-type-added", for: ["servers"], operation: "createAccessToken" }],
  },
  {
    name: "a security scheme removed (access_token)",
    edit: (spec) => editOpenApi(spec, (d) => delete d.components.securitySchemes.access_token),
    forward: [{ kind: "security-scheme-removed", for: ["clients"], pointer: "#/components/securitySchemes/access_token" }],
    backward: [{ kind: "security-scheme-added", for: ["servers"] }],
  },
  {
    name: "a security scheme's wire form changed (token header name)",
    edit: (spec) => editOpenApi(spec, (d) => (d.components.securitySchemes.token.name = "X-Token")),
    forward: [{ kind: "security-scheme-changed", for: ["clients", "servers"], pointer: "/token/name" }],
    backward: [{ kind: "security-scheme-changed", for: ["clients", "servers"] }],
    only: true,
  },
  {
    name: "an OAuth scope removed (gist)",
    edit: (spec) => editOpenApi(spec, (d) => delete d.components.securitySchemes.oauth2.flows.authorizationCode.scopes.gist),
    forward: [{ kind: "oauth-scope-removed", for: ["clients"], message: /scope gist removed/ }],
    backward: [{ kind: "oauth-scope-added", for: ["servers"] }],
    only: true,
  },
  {
    name: "anonymous access removed from an operation (the public feed)",
    edit: (spec) => editOpenApi(spec, (d) => (d.paths["/events"].get.security = d.paths["/events"].get.security.filter((s: object) => Object.keys(s).length > 0))),
    forward: [{ kind: "anonymous-access-removed", for: ["clients"], operation: "listPublicEvents" }],
    backward: [{ kind: "anonymous-access-added", for: ["servers"], operation: "listPublicEvents" }],
    only: true,
  },
  {
    name: "a scope no longer accepted by an operation (repo on listRepoHooks)",
    edit: (spec) =>
      editOpenApi(spec, (d) => {
        const op = d.paths["/repos/{owner}/{repo}/hooks"].get;
        op.security = op.security.filter((s: Record<string, string[]>) => !Object.values(s).some((scopes) => scopes.includes("repo")));
      }),
    forward: [{ kind: "security-alternative-removed", for: ["clients"], operation: "listRepoHooks", message: /token\[repo\]/ }],
    backward: [{ kind: "security-alternative-added", for: ["servers"], operation: "listRepoHooks" }],
  },
  {
    name: "a decision added to the rule table",
    edit: (spec) => editText(spec, "DECISIONS.md", (t) => t.replace(/^- \[D-VERSIONING\]/m, "- [D-DIFF-TEST-NEW] **A new decision** — Every answer carries `X-Test: 1`.\n- [D-VERSIONING]")),
    forward: [{ kind: "rule-added", for: [], message: /D-DIFF-TEST-NEW added/ }],
    backward: [{ kind: "rule-removed", for: [], message: /D-DIFF-TEST-NEW removed/ }],
  },
  {
    name: "a seed rule reworded (S-FEED-HEADERS), judged by server cases",
    edit: (spec) => editText(spec, "seed-rules.yaml", (t) => t.replace("Feed responses carry Link (rel next and last), ETag,", "Feed responses carry Link (rel next, last and first), ETag,")),
    forward: [{ kind: "rule-changed", for: ["servers"], message: /S-FEED-HEADERS changed/ }],
    backward: [{ kind: "rule-changed", for: ["servers"] }],
  },
];

function matching(changes: Change[], e: Expected): Change[] {
  return changes.filter(
    (c) =>
      c.kind === e.kind &&
      (e.operation === undefined || c.operation === e.operation) &&
      (e.webhook === undefined || c.webhook === e.webhook) &&
      (e.pointer === undefined || c.pointer.includes(e.pointer)) &&
      (e.message === undefined || e.message.test(c.message)),
  );
}

function expectFound(changes: Change[], list: Expected[]): void {
  for (const e of list) {
    const found = matching(changes, e);
    expect(found.length, `${JSON.stringify(e)} among:\n${changes.map((c) => `${c.kind} ${c.operation ?? c.webhook ?? ""} ${c.for} ${c.message}`).join("\n")}`).toBeGreaterThan(0);
    for (const c of found) {
      expect(c.for).toEqual(e.for);
      expect(c.breaking).toBe(e.for.length > 0);
      expect(c.mayBreak).toEqual(e.mayBreak);
      expect(c.pointer.startsWith("#/") || /^(seed-rules\.yaml#\/\d+|DECISIONS\.md:\d+)$/.test(c.pointer)).toBe(true);
    }
  }
}

describe("diff on edited copies of our contract", () => {
  let ours: Contract;
  beforeAll(() => {
    ours = loadContract(SPEC);
  });
  afterAll(removeCopies);

  it.each(CASES.map((c) => [c.name, c] as const))("%s — both directions", async (_name, c) => {
    const spec = copySpec();
    c.edit(spec);
    const edited = loadContract(spec);
    const forward = await diffContracts(ours, edited);
    expectFound(forward.changes, c.forward);
    const backward = await diffContracts(edited, ours);
    expectFound(backward.changes, c.backward);
    if (c.only) {
      expect(forward.changes.filter((x) => !c.forward.some((e) => e.kind === x.kind))).toEqual([]);
      expect(backward.changes.filter((x) => !c.backward.some((e) => e.kind === x.kind))).toEqual([]);
    }
  });

  it("reports the same change once per operation or webhook it reaches, with where it is written", async () => {
    const spec = copySpec();
    editSchema(spec, "user.json", (s) => delete s.properties.gravatar_id.type);
    const { changes } = await diffContracts(ours, loadContract(spec));
    const widened = changes.filter((c) => c.kind === "webhook-type-widened" && c.webhook === "push" && c.pointer.includes("application~1json"));
    // push carries users in several places (sender, pusher…): one change for the webhook, at the first place.
    expect(widened.map((c) => c.source)).toEqual(["schemas/user.json#/properties/gravatar_id"]);
    expect(changes.every((c) => c.source === "schemas/user.json#/properties/gravatar_id")).toBe(true);
  });

  it("finds nothing between our contract and itself", async () => {
    const { changes, notes } = await diffContracts(ours, loadContract(copySpec()));
    expect(changes).toEqual([]);
    expect(notes).toEqual([]);
  });

  it("finds nothing after cosmetic edits: descriptions, key order, a schema file moved, a rule rewrapped", async () => {
    const spec = copySpec();
    editOpenApi(spec, (d) => {
      d.info.description = "Reworded.";
      d.paths["/events"].get.description = "Reworded, and longer than before.";
      d.components.headers.ETag.description = "Another wording.";
      // Key order: the paths in reverse, and an operation's keys reversed.
      d.paths = Object.fromEntries(Object.entries(d.paths).reverse());
      const op = d.paths["/events"].get;
      d.paths["/events"].get = Object.fromEntries(Object.entries(op).reverse());
    });
    editSchema(spec, "user.json", (s) => {
      s.description = "A user, reworded.";
      s.properties.login.description = "The login, reworded.";
      s.properties = Object.fromEntries(Object.entries(s.properties).reverse());
    });
    // label.json moves to schemas/moved/, and every $ref to it follows.
    renameSync(join(spec, "schemas/label.json"), join(spec, "schemas/label-moved.json"));
    editText(spec, "schemas/activity-payloads/issues.json", (t) => t.replace('"../label.json"', '"../label-moved.json"'));
    editText(spec, "schemas/activity-payloads/pull_request.json", (t) => t.replace('"../label.json"', '"../label-moved.json"'));
    editText(spec, "schemas/issue.json", (t) => t.replace('"label.json"', '"label-moved.json"'));
    editText(spec, "openapi.yaml", (t) => t.replace("schemas/label.json", "schemas/label-moved.json"));
    editText(spec, "DECISIONS.md", (t) => t.replace("- [D-VERSIONING] **Versioning** (seed: not shown) — One version, v3, with no version in the path. Clients may send", "- [D-VERSIONING] **Versioning** (seed: not shown) — One version, v3, with no version in the path.\n  Clients may send"));
    const { changes } = await diffContracts(ours, loadContract(spec));
    expect(changes).toEqual([]);
  });

  it("finds nothing between our contract and its single-file bundle (every $ref moved), and notes the missing rule table", async () => {
    const bundle = await writePortableBundle(join(SPEC, "openapi.yaml"));
    const result = await diffContracts(ours, loadContract(bundle));
    expect(result.changes).toEqual([]);
    expect(result.notes).toEqual([expect.stringMatching(/rule table was not compared: the head has no seed-rules.yaml/)]);
  });

  it("an edit inside a nullable anyOf branch is compared with the branch, not reported as a new composition", async () => {
    const spec = copySpec();
    // Issue.milestone is anyOf [Milestone, null]: a field removed from Milestone is a field removed.
    editSchema(spec, "milestone.json", (s) => delete s.properties.due_on);
    const changes = diffDocuments(ours, loadContract(spec));
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.every((c) => /property-removed$/.test(c.kind) && c.source === "schemas/milestone.json#/properties/due_on")).toBe(true);
  });
});
