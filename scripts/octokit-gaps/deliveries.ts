/**
 * The deliveries the reference server actually sends, one for every event and action it can
 * send: a real server (in-memory PGlite, demo data, no history) with a `*` hook on a user's
 * repository and one on an organization, a local receiver, and every domain action made to
 * happen through the admin endpoint, each once (a few twice, where the payload's shape differs:
 * a branch and a tag, a pull request closed and merged, a repository's `create`). What is
 * returned is what arrived on the wire — the JSON bodies as the receiver read them — so the
 * cross-check judges the bytes a receiver gets, not a builder's in-memory value.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { startServer } from "../../reference/server.ts";

export interface Delivery {
  /** `X-Service-Event`. */
  event: string;
  /** The payload's `action`, or null for an event without one. */
  action: string | null;
  /** What was done to provoke it (`push`, `issues action=closed`, `ping (organization hook)`…). */
  scenario: string;
  payload: Record<string, unknown>;
}

const ADMIN_TOKEN = "octokit-gaps-admin-token-0123456789";
const DEMO = { login: "octocat", password: "octocat-demo-password", clientId: "demo-client-id-0001", clientSecret: "demo-client-secret-0001-keep-it-private" };
const REPO = "octocat/hello-world";
const ORG = "octo-org";
const ORG_REPO = "octo-org/hello-world";

interface Step {
  event: string;
  params?: Record<string, string> | ((n: Numbers) => Record<string, string>);
  repo?: string;
  actor?: string;
  /** How many deliveries it makes (to the two hooks together). */
  expect: number;
}

/** Numbers earlier steps made (the issue, the pull request), read from the admin endpoint's answer. */
interface Numbers {
  issue?: number;
  pull?: number;
}

/** One step per event and action the reference sends (reference/domain ACTIONS). */
const STEPS: Step[] = [
  { event: "push", params: { commits: "2" }, expect: 1 },
  { event: "create", params: { ref: "gaps-branch" }, expect: 1 },
  { event: "create", params: { ref_type: "tag", ref: "v0.0.1-gaps" }, expect: 1 },
  { event: "delete", params: { ref: "gaps-branch" }, expect: 1 },
  { event: "delete", params: { ref_type: "tag", ref: "v0.0.1-gaps" }, expect: 1 },
  { event: "watch", actor: "monalisa", expect: 1 },
  { event: "fork", actor: "monalisa", expect: 1 },
  { event: "issues", params: { title: "Octokit gaps" }, expect: 1 },
  // No delivery of its own (an issue event only), but every later one carries the issue's milestone.
  { event: "milestoned", params: (n) => ({ number: String(n.issue) }), expect: 0 },
  ...(["assigned", "unassigned", "labeled", "unlabeled", "closed", "reopened"] as const).map(
    (action): Step => ({ event: "issues", params: (n) => ({ action, number: String(n.issue), ...(action.endsWith("assigned") ? { assignee: "hubot" } : {}), ...(action.endsWith("labeled") ? { label: "bug" } : {}) }), expect: 1 }),
  ),
  { event: "issue_comment", params: (n) => ({ number: String(n.issue) }), expect: 1 },
  { event: "pull_request", params: { title: "Octokit gaps" }, expect: 1 },
  ...(["assigned", "unassigned", "labeled", "unlabeled", "synchronize", "closed", "reopened", "merged"] as const).map(
    (action): Step => ({ event: "pull_request", params: (n) => ({ action, number: String(n.pull), ...(action.endsWith("assigned") ? { assignee: "hubot" } : {}), ...(action.endsWith("labeled") ? { label: "enhancement" } : {}) }), expect: 1 }),
  ),
  { event: "pull_request_review_comment", params: (n) => ({ number: String(n.pull) }), actor: "hubot", expect: 1 },
  { event: "commit_comment", params: { path: "README.md", line: "3" }, expect: 1 },
  { event: "status", params: { state: "success" }, expect: 1 },
  { event: "deployment", expect: 1 },
  { event: "deployment_status", params: { state: "success" }, expect: 1 },
  { event: "page_build", expect: 1 },
  { event: "release", expect: 1 },
  { event: "gollum", expect: 1 },
  { event: "member", params: { user: "monalisa" }, expect: 1 },
  // The organization's side: its hook gets these (a private repository made public, a new one, a team).
  { event: "public", repo: "octo-org/internal-tools", actor: "hubot", expect: 1 },
  { event: "repository", params: { name: "octokit-gaps" }, repo: ORG_REPO, expect: 2 },
  { event: "team_add", params: { team: "Gaps" }, repo: ORG_REPO, expect: 1 },
  { event: "membership", params: { user: "defunkt", team: "Gaps" }, repo: ORG_REPO, expect: 1 },
  { event: "membership", params: { user: "defunkt", team: "Gaps", action: "removed" }, repo: ORG_REPO, expect: 1 },
];

async function receiver(): Promise<{ url: string; bodies: { event: string; body: string }[]; close: () => Promise<void> }> {
  const bodies: { event: string; body: string }[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      bodies.push({ event: String(req.headers["x-service-event"] ?? ""), body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, bodies, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function call(url: string, init: RequestInit & { json?: unknown }): Promise<any> {
  const res = await fetch(url, { ...init, headers: { "content-type": "application/json", ...(init.headers as Record<string, string>) }, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Waits until `count` bodies have arrived; fails after `timeoutMs` (deliveries are queued jobs). */
async function arrived(bodies: unknown[], count: number, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (bodies.length < count) {
    if (Date.now() > deadline) throw new Error(`${what}: ${bodies.length} of ${count} deliveries arrived within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every delivery, in the order sent. `timeoutMs` bounds the wait for each step's deliveries. */
export async function collectDeliveries(timeoutMs = 30_000): Promise<Delivery[]> {
  const hook = await receiver();
  const server = await startServer({ port: 0, authPort: 0, seed: "demo", history: false, adminToken: ADMIN_TOKEN, hookEgress: "local" });
  const out: Delivery[] = [];
  try {
    const api = server.urls.api;
    const basic = `Basic ${Buffer.from(`${DEMO.login}:${DEMO.password}`).toString("base64")}`;
    const { token } = await call(`${api}/authorizations/clients/${DEMO.clientId}/octokit-gaps`, {
      method: "PUT",
      headers: { authorization: basic },
      json: { client_secret: DEMO.clientSecret, scopes: ["admin:repo_hook", "admin:org_hook"] },
    });
    const auth = { authorization: `token ${token}` };
    const scenarios: string[] = [];
    const take = async (scenario: string, count: number) => {
      await arrived(hook.bodies, out.length + count, scenario, timeoutMs);
      // A step's deliveries may arrive in either order: sorted, so the table never depends on it.
      const arrivedNow = hook.bodies.slice(out.length, out.length + count).sort((a, b) => (a.event < b.event ? -1 : a.event > b.event ? 1 : 0));
      for (const { event, body } of arrivedNow) {
        const payload = JSON.parse(body) as Record<string, unknown>;
        out.push({ event, action: typeof payload.action === "string" ? payload.action : null, scenario, payload });
      }
      scenarios.push(scenario);
    };
    // Each hook is pinged once, when it is created.
    const config = { url: hook.url, content_type: "json" };
    await call(`${api}/repos/${REPO}/hooks`, { method: "POST", headers: auth, json: { name: "web", config, events: ["*"] } });
    await take("ping (repository hook)", 1);
    await call(`${api}/orgs/${ORG}/hooks`, { method: "POST", headers: auth, json: { name: "web", config, events: ["*"] } });
    await take("ping (organization hook)", 1);

    const numbers: Numbers = {};
    for (const step of STEPS) {
      const params = typeof step.params === "function" ? step.params(numbers) : (step.params ?? {});
      const result = await call(`${api}/_admin/simulate/${step.event}`, {
        method: "POST",
        headers: { "x-admin-token": ADMIN_TOKEN },
        json: { repo: step.repo ?? REPO, actor: step.actor ?? "octocat", params },
      });
      const first = (result.events as { payload?: { issue?: { number?: number }; number?: number } }[])[0]?.payload;
      if (step.event === "issues" && params.action === undefined) numbers.issue = first?.issue?.number;
      if (step.event === "pull_request" && params.action === undefined) numbers.pull = first?.number;
      const label = [step.event, ...Object.entries(params).map(([k, v]) => `${k}=${v}`)].join(" ");
      await take(label, step.expect);
    }
    // Nothing more than counted: a step that made more deliveries than it said would be misread.
    await new Promise((r) => setTimeout(r, 200));
    if (hook.bodies.length !== out.length) throw new Error(`${hook.bodies.length - out.length} unexpected deliveries after ${scenarios.at(-1)}`);
    return out;
  } finally {
    await server.close();
    await hook.close();
  }
}
