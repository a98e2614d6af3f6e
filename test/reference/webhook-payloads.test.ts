/**
 * Webhook payloads built from domain activity (reference/webhooks/payloads.ts), on a real server's
 * database with the demo seed: every domain action that records an activity event is run with a
 * listener that builds the webhook payload inside the action's transaction, and each payload must
 * validate against the contract, name the actor as `sender`, carry `repository` / `organization`
 * as the schema and seed require, mirror the activity payload (all but push), and show the state
 * the action left behind. Issue-only actions must produce no webhook at all.
 */
import { describe, expect, it } from "vitest";
import { useServer } from "./harness.ts";
import { ACTION_NAMES, runAction, type Listener, type Recorded } from "../../reference/domain/index.ts";
import { ISSUE_ONLY_KINDS } from "../../reference/domain/actions/issue-kinds.ts";
import {
  ORG_ONLY_EVENTS,
  WEBHOOK_EVENTS,
  webhookOrganization,
  webhookPayload,
  webhookRepository,
  webhookSender,
  type WebhookPayload,
} from "../../reference/webhooks/payloads.ts";
import { validateSchema, validateWebhook, webhookEvents } from "../../generated/validators/index.js";

const t = useServer();
const ZERO = "0".repeat(40);

type Activity = Extract<Recorded, { kind: "activity" }>;
/** Payload trees, read field by field in the checks. */
type J = Record<string, any>;
interface Captured {
  recorded: Activity;
  hook: WebhookPayload;
  p: J;
  activity: J;
}

/** Shared between cases: numbers and SHAs earlier actions produced. */
const state: Record<string, string> = {};
/** Every webhook event whose payload validated, for the coverage check. */
const validated = new Set<string>();

const one = (rows: { id: number }[]) => Number(rows[0]!.id);
const accountId = async (login: string) => one(await t.server.db.query<{ id: number }>("select id from accounts where login = $1", [login]));
const repoId = async (full: string) => {
  const [owner, name] = full.split("/");
  return one(await t.server.db.query<{ id: number }>("select r.id from repositories r join accounts o on o.id = r.owner_id where o.login = $1 and r.name = $2", [owner, name]));
};
const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** Runs an action with a listener that builds the webhook payload in its transaction, then checks what holds for every payload. */
async function run(action: string, params: Record<string, string>, repo: string, actor: string): Promise<Captured[]> {
  const captured: { recorded: Activity; hook: WebhookPayload | undefined }[] = [];
  const capture: Listener = async (tx, r) => {
    if (r.kind === "activity") captured.push({ recorded: r, hook: await webhookPayload(tx, t.server.urls, r) });
  };
  await runAction({ db: t.server.db, urls: t.server.urls, now: () => new Date(), listeners: [capture] }, action, { repo, actor, params });
  return captured.map(({ recorded, hook }) => {
    expect(hook, `${recorded.type} has a webhook`).toBeDefined();
    const { event, payload } = hook!;
    expect(`${event.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase())}Event`).toBe(recorded.type);
    const v = validateWebhook(event, payload);
    expect(v.valid, `${action} → ${event}: ${JSON.stringify(v.valid ? [] : v.errors, null, 1)}\n${JSON.stringify(payload)}`).toBe(true);
    validated.add(event);
    const p = payload as J;
    const body = recorded.body as J;
    expect(p.sender.login).toBe(actor);
    expect(p.sender.id).toBe(recorded.actorId);
    // Where it happened: the activity event's repo (membership: the organization only).
    if (event === "membership") {
      expect(p).not.toHaveProperty("repository");
      expect(hook!.repoId).toBeNull();
    } else {
      expect(p.repository.full_name).toBe(body.repo.name);
      expect(p.repository.id).toBe(recorded.repoId);
      expect(hook!.repoId).toBe(recorded.repoId);
    }
    if (body.org) {
      expect(p.organization).toMatchObject({ login: body.org.login, id: body.org.id });
      expect(hook!.orgId).toBe(body.org.id);
    } else {
      expect(p).not.toHaveProperty("organization");
      expect(hook!.orgId).toBeNull();
    }
    expect(hook!.action).toBe(typeof p.action === "string" ? p.action : null);
    // Every payload but push mirrors the activity payload field for field.
    if (event !== "push") for (const [key, value] of Object.entries(body.payload as J)) expect(p[key], `${event}.${key}`).toEqual(value);
    return { recorded, hook: hook!, p, activity: body.payload as J };
  });
}

interface Case {
  name: string;
  action: string;
  params?: Record<string, string> | (() => Record<string, string>);
  repo?: string;
  actor?: string;
  /** The webhook events the action's activity records become, in order. */
  events: string[];
  check?: (c: Captured[]) => void | Promise<void>;
}

const CASES: Case[] = [
  {
    name: "push: a new branch (before all zeros) with three commits",
    action: "push",
    params: { ref: "webhooks", commits: "3" },
    events: ["push"],
    check: ([c]) => {
      const { p, activity } = c!;
      expect(p).toMatchObject({ ref: "refs/heads/webhooks", before: ZERO, after: activity.head, created: true, deleted: false, forced: false, base_ref: null });
      expect(p.commits.map((x: J) => x.id)).toEqual(activity.commits.map((x: J) => x.sha));
      expect(p.commits.map((x: J) => x.message)).toEqual(activity.commits.map((x: J) => x.message));
      expect(p.head_commit.id).toBe(activity.head);
      expect(p.commits[0]).toMatchObject({ author: { name: "The Octocat", email: "octocat@service.example", username: "octocat" }, timestamp: c!.recorded.body.created_at, url: `${t.auth}/octocat/hello-world/commit/${p.commits[0].id}` });
      expect(p.compare).toBe(`${t.auth}/octocat/hello-world/commit/${activity.head.slice(0, 12)}`);
      expect(p.pusher).toEqual({ name: "octocat", email: "octocat@service.example" });
      // The push form of the repository, as this push left it.
      expect(p.repository).toMatchObject({ owner: { name: "octocat", email: "octocat@service.example" }, url: `${t.auth}/octocat/hello-world`, master_branch: "main" });
      expect(p.repository.pushed_at).toBe(epoch(c!.recorded.body.created_at as string));
      expect(Number.isInteger(p.repository.created_at)).toBe(true);
      expect(p.repository).not.toHaveProperty("organization");
      state.pushHead = activity.head;
    },
  },
  {
    name: "push: onto the same branch, before = the previous head",
    action: "push",
    params: { ref: "webhooks", message: "Tidy up" },
    events: ["push"],
    check: ([c]) => {
      expect(c!.p).toMatchObject({ before: state.pushHead, after: c!.activity.head, created: false, commits: [{ message: "Tidy up" }] });
      expect(c!.p.compare).toBe(`${t.auth}/octocat/hello-world/compare/${state.pushHead!.slice(0, 12)}...${c!.activity.head.slice(0, 12)}`);
    },
  },
  {
    name: "push: 25 commits — the feed shows the last 20, the webhook all 25",
    action: "push",
    params: { commits: "25" },
    events: ["push"],
    check: ([c]) => {
      expect(c!.activity.size).toBe(25);
      expect(c!.activity.commits).toHaveLength(20);
      expect(c!.p.commits).toHaveLength(25);
      expect(c!.p.commits.slice(-20).map((x: J) => x.id)).toEqual(c!.activity.commits.map((x: J) => x.sha));
      expect(c!.p.head_commit.id).toBe(c!.p.after);
    },
  },
  {
    name: "push: an organization's repository names the organization twice (payload and repository)",
    action: "push",
    repo: "octo-org/hello-world",
    actor: "hubot",
    events: ["push"],
    check: ([c]) => {
      expect(c!.p.repository).toMatchObject({ organization: "octo-org", owner: { name: "octo-org", email: null } });
      expect(c!.p.organization.login).toBe("octo-org");
      expect(c!.p.pusher.name).toBe("hubot");
    },
  },
  {
    name: "issues opened: the repository's open issue count includes it",
    action: "issues",
    params: { title: "Webhook me", body: "cc @hubot" },
    events: ["issues"],
    check: async ([c]) => {
      expect(c!.p).toMatchObject({ action: "opened", issue: { title: "Webhook me", state: "open" } });
      const [{ n }] = (await t.server.db.query<{ n: number }>("select count(*)::int as n from issues where repo_id = $1 and state = 'open'", [c!.recorded.repoId])) as [{ n: number }];
      expect(c!.p.repository.open_issues_count).toBe(n);
      state.issue = String(c!.p.issue.number);
    },
  },
  ...(
    [
      ["assigned", { assignee: "hubot" }, (p: J) => expect(p.assignee.login).toBe("hubot")],
      ["unassigned", {}, (p: J) => expect(p.assignee.login).toBe("hubot")],
      ["labeled", { label: "bug" }, (p: J) => expect([p.label.name, p.issue.labels.map((l: J) => l.name)]).toEqual(["bug", ["bug"]])],
      ["unlabeled", { label: "bug" }, (p: J) => expect([p.label.name, p.issue.labels]).toEqual(["bug", []])],
      ["closed", {}, (p: J) => expect(p.issue.state).toBe("closed")],
      ["reopened", {}, (p: J) => expect(p.issue.state).toBe("open")],
    ] as const
  ).map(([action, extra, check]): Case => ({
    name: `issues ${action}`,
    action: "issues",
    params: () => ({ action, number: state.issue!, ...extra }),
    events: ["issues"],
    check: ([c]) => {
      expect(c!.p.action).toBe(action);
      expect(String(c!.p.issue.number)).toBe(state.issue);
      check(c!.p);
    },
  })),
  {
    name: "push: 'Fixes #N' is a push and an issues closed",
    action: "push",
    params: () => ({ message: `Fixes #${state.issue}` }),
    events: ["push", "issues"],
    check: ([push, closed]) => {
      expect(push!.p.commits[0].message).toBe(`Fixes #${state.issue}`);
      expect(closed!.p).toMatchObject({ action: "closed", issue: { number: Number(state.issue), state: "closed" } });
    },
  },
  {
    name: "issue_comment by another user",
    action: "issue_comment",
    params: { number: "1", body: "Seen it too" },
    actor: "hubot",
    events: ["issue_comment"],
    check: ([c]) => expect(c!.p).toMatchObject({ action: "created", issue: { number: 1 }, comment: { body: "Seen it too", user: { login: "hubot" } } }),
  },
  {
    name: "pull_request opened",
    action: "pull_request",
    params: { title: "Add webhooks" },
    events: ["pull_request"],
    check: ([c]) => {
      expect(c!.p).toMatchObject({ action: "opened", pull_request: { state: "open", merged: false, title: "Add webhooks" } });
      expect(c!.p.number).toBe(c!.p.pull_request.number);
      state.pull = String(c!.p.number);
    },
  },
  {
    name: "issues labeled on a pull request is pull_request labeled",
    action: "issues",
    params: () => ({ action: "labeled", number: state.pull!, label: "enhancement" }),
    events: ["pull_request"],
    check: ([c]) => expect(c!.p).toMatchObject({ action: "labeled", label: { name: "enhancement" }, number: Number(state.pull) }),
  },
  {
    name: "issues assigned on a pull request is pull_request assigned",
    action: "issues",
    params: () => ({ action: "assigned", number: state.pull! }),
    events: ["pull_request"],
    check: ([c]) => expect(c!.p).toMatchObject({ action: "assigned", assignee: { login: "octocat" } }),
  },
  {
    name: "pull_request_review_comment",
    action: "pull_request_review_comment",
    params: () => ({ number: state.pull!, body: "nit" }),
    actor: "hubot",
    events: ["pull_request_review_comment"],
    check: ([c]) => expect(c!.p).toMatchObject({ action: "created", comment: { body: "nit", user: { login: "hubot" } }, pull_request: { number: Number(state.pull) } }),
  },
  {
    name: "pull_request closed",
    action: "pull_request",
    params: () => ({ action: "closed", number: state.pull! }),
    events: ["pull_request"],
    check: ([c]) => expect(c!.p).toMatchObject({ action: "closed", pull_request: { state: "closed", merged: false } }),
  },
  {
    name: "pull_request reopened",
    action: "pull_request",
    params: () => ({ action: "reopened", number: state.pull! }),
    events: ["pull_request"],
    check: ([c]) => expect(c!.p).toMatchObject({ action: "reopened", pull_request: { state: "open" } }),
  },
  {
    name: "pull_request merged: closed with merged true",
    action: "pull_request",
    params: () => ({ action: "merged", number: state.pull! }),
    events: ["pull_request"],
    check: ([c]) => expect(c!.p).toMatchObject({ action: "closed", pull_request: { state: "closed", merged: true, merged_by: { login: "octocat" } } }),
  },
  {
    name: "commit_comment on a line",
    action: "commit_comment",
    params: { path: "README.md", line: "3", body: "Typo" },
    events: ["commit_comment"],
    check: ([c]) => expect(c!.p.comment).toMatchObject({ path: "README.md", line: 3, body: "Typo" }),
  },
  {
    name: "commit_comment on a whole commit",
    action: "commit_comment",
    events: ["commit_comment"],
    check: ([c]) => expect(c!.p.comment).toMatchObject({ path: null, position: null, line: null }),
  },
  { name: "status", action: "status", params: { state: "failure", context: "ci" }, events: ["status"], check: ([c]) => expect(c!.p).toMatchObject({ state: "failure", context: "ci", sha: c!.activity.sha }) },
  {
    name: "deployment",
    action: "deployment",
    params: { environment: "staging" },
    events: ["deployment"],
    check: ([c]) => {
      expect(c!.p.deployment.environment).toBe("staging");
      state.deployment = String(c!.p.deployment.id);
    },
  },
  {
    name: "deployment_status of that deployment",
    action: "deployment_status",
    params: { state: "success" },
    events: ["deployment_status"],
    check: ([c]) => expect([c!.p.deployment_status.state, String(c!.p.deployment.id)]).toEqual(["success", state.deployment]),
  },
  { name: "page_build errored", action: "page_build", params: { status: "errored" }, events: ["page_build"], check: ([c]) => expect(c!.p.build).toMatchObject({ status: "errored", error: { message: "Page build failed." } }) },
  { name: "release", action: "release", params: { tag: "v9.0.0", name: "Nine" }, events: ["release"], check: ([c]) => expect(c!.p).toMatchObject({ action: "published", release: { tag_name: "v9.0.0", name: "Nine" } }) },
  { name: "gollum", action: "gollum", params: { page: "Web Hooks", action: "created" }, events: ["gollum"], check: ([c]) => expect(c!.p.pages[0]).toMatchObject({ title: "Web Hooks", page_name: "Web-Hooks", action: "created" }) },
  { name: "create a branch", action: "create", params: { ref: "topic-hooks" }, events: ["create"], check: ([c]) => expect(c!.p).toMatchObject({ ref: "topic-hooks", ref_type: "branch", master_branch: "main" }) },
  { name: "create a tag", action: "create", params: { ref_type: "tag", ref: "v9.9.9" }, events: ["create"], check: ([c]) => expect(c!.p).toMatchObject({ ref: "v9.9.9", ref_type: "tag" }) },
  { name: "delete a branch", action: "delete", params: { ref: "topic-hooks" }, events: ["delete"], check: ([c]) => expect(c!.p).toMatchObject({ ref: "topic-hooks", ref_type: "branch" }) },
  {
    name: "watch: the repository counts the new watcher",
    action: "watch",
    actor: "monalisa",
    events: ["watch"],
    check: async ([c]) => {
      expect(c!.p.action).toBe("started");
      const [{ n }] = (await t.server.db.query<{ n: number }>("select count(*)::int as n from watches where repo_id = $1", [c!.recorded.repoId])) as [{ n: number }];
      expect(c!.p.repository.watchers_count).toBe(n);
    },
  },
  {
    name: "fork: repository is the original, forkee the new fork",
    action: "fork",
    actor: "monalisa",
    events: ["fork"],
    check: ([c]) => {
      expect(c!.p.repository.full_name).toBe("octocat/hello-world");
      expect(c!.p.forkee).toMatchObject({ full_name: "monalisa/hello-world", fork: true });
      expect(c!.p.repository.forks_count).toBeGreaterThanOrEqual(2);
    },
  },
  { name: "member on a user's repository", action: "member", params: { user: "monalisa" }, events: ["member"], check: ([c]) => expect(c!.p).toMatchObject({ action: "added", member: { login: "monalisa" } }) },
  {
    name: "public: the repository is shown public already",
    action: "public",
    repo: "octocat/secret-plans",
    events: ["public"],
    check: ([c]) => {
      expect(c!.p.repository.private).toBe(false);
      expect(Object.keys(c!.p).sort()).toEqual(["repository", "sender"]);
    },
  },
  { name: "public: an organization's repository", action: "public", repo: "octo-org/internal-tools", actor: "hubot", events: ["public"], check: ([c]) => expect(c!.p.repository.private).toBe(false) },
  {
    name: "repository in an organization: create, then repository (organization hooks only)",
    action: "repository",
    params: { name: "hooked" },
    repo: "octo-org/hello-world",
    events: ["create", "repository"],
    check: async ([create, repository]) => {
      const id = await repoId("octo-org/hooked");
      expect(create!.p).toMatchObject({ ref: null, ref_type: "repository", repository: { id, full_name: "octo-org/hooked" } });
      expect(repository!.p).toMatchObject({ action: "created", repository: { id, full_name: "octo-org/hooked", private: false }, organization: { login: "octo-org" } });
      expect([repository!.hook.repoId, repository!.hook.orgId]).toEqual([id, await accountId("octo-org")]);
    },
  },
  { name: "repository of a user: create only", action: "repository", params: { name: "solo-hooked" }, events: ["create"] },
  {
    name: "team_add",
    action: "team_add",
    params: { team: "Hookers" },
    repo: "octo-org/hello-world",
    events: ["team_add"],
    check: ([c]) => expect(c!.p).toMatchObject({ team: { slug: "hookers" }, repository: { full_name: "octo-org/hello-world" }, organization: { login: "octo-org" } }),
  },
  ...(["added", "removed"] as const).map(
    (action): Case => ({
      name: `membership ${action}: organization only, no repository`,
      action: "membership",
      params: { user: "defunkt", team: "Hookers", action },
      repo: "octo-org/hello-world",
      events: ["membership"],
      check: async ([c]) => {
        expect(c!.p).toMatchObject({ action, scope: "team", member: { login: "defunkt" }, team: { slug: "hookers" }, organization: { login: "octo-org" } });
        expect([c!.hook.repoId, c!.hook.orgId]).toEqual([null, await accountId("octo-org")]);
      },
    }),
  ),
  // Issue events without an activity event of their own: no webhook.
  ...[...ISSUE_ONLY_KINDS, "head_ref_deleted", "head_ref_restored"].map(
    (kind): Case => ({
      name: `${kind}: no webhook`,
      action: kind,
      params: () => ({ number: kind.startsWith("head_ref") ? state.pull! : state.issue!, ...(kind === "renamed" ? { title: "Renamed" } : {}) }),
      events: [],
    }),
  ),
];

describe("webhook payloads from domain actions", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const params = typeof c.params === "function" ? c.params() : (c.params ?? {});
      const captured = await run(c.action, params, c.repo ?? "octocat/hello-world", c.actor ?? "octocat");
      expect(captured.map((x) => x.hook.event)).toEqual(c.events);
      await c.check?.(captured);
    });
  }

  it("covers every domain action and every webhook event of the contract", () => {
    expect([...new Set(CASES.map((c) => c.action))].sort()).toEqual(ACTION_NAMES);
    expect([...validated].sort()).toEqual([...WEBHOOK_EVENTS]);
    expect([...WEBHOOK_EVENTS]).toEqual(webhookEvents.filter((e) => e !== "ping").sort());
  });

  it("organization-only events are membership and repository", () => {
    expect([...ORG_ONLY_EVENTS].sort()).toEqual(["membership", "repository"]);
  });
});

describe("webhook payload building blocks", () => {
  it("repository, organization and sender validate as Repository, Organization and User", async () => {
    const cases = [
      ["Repository", await webhookRepository(t.server.db, t.server.urls, await repoId("octo-org/hello-world"))],
      ["Repository", await webhookRepository(t.server.db, t.server.urls, await repoId("defunkt/hello-world"))],
      ["Organization", await webhookOrganization(t.server.db, t.server.urls, await accountId("octo-org"))],
      ["User", await webhookSender(t.server.db, t.server.urls, await accountId("hubot"))],
    ] as const;
    for (const [schema, value] of cases) {
      const v = validateSchema(schema, value);
      expect(v.valid, `${schema}: ${JSON.stringify(v.valid ? [] : v.errors)}`).toBe(true);
    }
    expect(cases[0][1]).toMatchObject({ full_name: "octo-org/hello-world", owner: { login: "octo-org", type: "Organization" } });
    expect(cases[1][1]).toMatchObject({ full_name: "defunkt/hello-world", fork: true });
    expect(cases[2][1]).toMatchObject({ login: "octo-org", url: `${t.api}/orgs/octo-org` });
    expect(cases[3][1]).toMatchObject({ login: "hubot", type: "User" });
  });

  it("activity types without a webhook give undefined", async () => {
    const recorded: Activity = { kind: "activity", id: 1, type: "PingEvent", repoId: await repoId("octocat/hello-world"), actorId: await accountId("octocat"), public: true, body: {} };
    expect(await webhookPayload(t.server.db, t.server.urls, recorded)).toBeUndefined();
    expect(await webhookPayload(t.server.db, t.server.urls, { ...recorded, type: "FollowEvent" })).toBeUndefined();
  });
});
