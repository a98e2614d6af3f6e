/**
 * The delivery endpoints over HTTP, with response validation on (harness): a hook's log (list
 * with `Link`, one attempt in detail), redelivery (202, a new attempt with the same guid),
 * pings (204, a `ping` payload that validates), tests (204, the latest push — nothing when the
 * hook does not take push), for repository and organization hooks; and 401/404 for callers who
 * do not administer the hook.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateWebhook } from "../../generated/validators/index.js";
import { DELIVERY_QUEUE, type DeliveryJobData } from "../../reference/deliveries/boss.ts";
import { call } from "./authorizations-client.ts";
import { useServer } from "./harness.ts";
import { startReceiver, type Receiver, type Received } from "./webhook-receiver.ts";
import { ADMIN_TOKEN, auth, createHook, deliveries, eventually, FAST, hookPath, hookToken, simulate, type DeliveryJson, type HookJson } from "./deliveries-fixtures.ts";
import { ceiling } from "../ceilings.ts";

const t = useServer({ adminToken: ADMIN_TOKEN, deliveries: FAST });

let receiver: Receiver;
let octocat: string;
let hubot: string;
let repoHook: HookJson;
let orgHook: HookJson;
let issuesHook: HookJson;

const json = (r: Received) => {
  const text = r.body.toString("utf8");
  return (r.headers["content-type"] === "application/json" ? JSON.parse(text) : JSON.parse(new URLSearchParams(text).get("payload")!)) as Record<string, any>;
};

beforeAll(async () => {
  receiver = await startReceiver();
  octocat = await hookToken(t.server.db, "octocat");
  hubot = await hookToken(t.server.db, "hubot");
  repoHook = await createHook(t.api, octocat, "repos/octocat/hello-world", { config: { url: `${receiver.url}/repo`, secret: "s3cret" }, events: ["push"] });
  orgHook = await createHook(t.api, octocat, "orgs/octo-org", { config: { url: `${receiver.url}/org`, content_type: "form" }, events: ["push"] });
  issuesHook = await createHook(t.api, octocat, "repos/octocat/hello-world", { config: { url: `${receiver.url}/issues` }, events: ["issues"] });
  await receiver.until((r) => r.filter((x) => x.event === "ping").length === 3);
}, ceiling(60_000));
afterAll(() => receiver?.close());


/** What arrived for `hook` (identified by the guid of its deliveries in its own log). */
async function receivedBy(hook: HookJson, event: string): Promise<Received[]> {
  const log = (await deliveries(t.api, octocat, hookPath(hook))).body;
  const guids = new Set(log.map((d) => d.guid));
  return receiver.received.filter((r) => guids.has(r.guid) && r.event === event);
}

async function logOf(hook: HookJson, token = octocat): Promise<DeliveryJson[]> {
  const res = await deliveries(t.api, token, hookPath(hook));
  expect(res.status).toBe(200);
  return res.body;
}

describe("the delivery log", () => {
  it("lists each hook's ping, with the contract's fields", async () => {
    for (const hook of [repoHook, orgHook, issuesHook]) {
      const log = await eventually(async () => {
        const l = await logOf(hook);
        return l.length === 1 && l;
      });
      expect(log[0]).toMatchObject({ event: "ping", action: null, attempt: 1, redelivery: false, status: "OK", status_code: 200, next_attempt_at: null, url: `${receiver.url}/${hook === repoHook ? "repo" : hook === orgHook ? "org" : "issues"}` });
    }
  });

  it("shows one attempt in detail: the request sent and the answer", async () => {
    const [ping] = await logOf(repoHook);
    const res = await call(t.api, "GET", `${hookPath(repoHook)}/deliveries/${ping!.id}`, { auth: auth(octocat) });
    expect(res.status).toBe(200);
    expect(res.body.request.headers).toMatchObject({ "X-Service-Event": "ping", "X-Service-Delivery": ping!.guid, "Content-Type": "application/json", "X-Hub-Signature-256": expect.stringMatching(/^sha256=/) });
    expect(res.body.request.payload).toMatchObject({ zen: expect.any(String), hook_id: repoHook.id, hook: { id: repoHook.id, url: repoHook.url }, sender: { login: "octocat" }, repository: { full_name: "octocat/hello-world" } });
    expect(res.body.response.payload).toBe("thanks");
    expect(res.body.response.headers["content-type"]).toBe("text/plain");

    const [orgPing] = await logOf(orgHook);
    const form = await call(t.api, "GET", `/orgs/octo-org/hooks/${orgHook.id}/deliveries/${orgPing!.id}`, { auth: auth(octocat) });
    expect(form.status).toBe(200);
    expect(form.body.request.payload).toMatch(/^payload=/);
    const payload = JSON.parse(new URLSearchParams(form.body.request.payload as string).get("payload")!);
    expect(payload).toMatchObject({ hook_id: orgHook.id, organization: { login: "octo-org" } });
    expect(payload).not.toHaveProperty("repository");
    expect(form.body.request.headers).not.toHaveProperty("X-Hub-Signature");
  });

  it("pages by 30, newest first, with Link", async () => {
    await simulate(t.api, "issues", { count: 31 });
    await receiver.until((r) => r.filter((x) => x.event === "issues" && x.answer === "ok").length >= 31);
    const total = await eventually(async () => {
      const [{ n }] = (await t.server.db.query<{ n: number }>("select count(*)::int as n from hook_delivery_attempts where hook_id = $1 and status = 'OK'", [issuesHook.id])) as [{ n: number }];
      return n === 32 && n;
    });
    const first = await deliveries(t.api, octocat, hookPath(issuesHook));
    expect(first.body).toHaveLength(30);
    expect(first.headers.get("link")).toBe(`<${issuesHook.url}/deliveries?page=2>; rel="next", <${issuesHook.url}/deliveries?page=2>; rel="last"`);
    const second = await deliveries(t.api, octocat, hookPath(issuesHook), 2);
    expect(second.headers.get("link")).toBe(`<${issuesHook.url}/deliveries?page=1>; rel="first", <${issuesHook.url}/deliveries?page=1>; rel="prev"`);
    const all = [...first.body, ...second.body];
    expect(all.filter((d) => d.status === "OK")).toHaveLength(total);
    const ids = all.map((d) => d.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all.at(-1)!.event).toBe("ping");
    expect(all.slice(0, -1).every((d) => d.event === "issues" && d.action === "opened")).toBe(true);
  });
});

describe("redelivery", () => {
  it("queues a new attempt with the same guid and body, marked as a redelivery (202)", async () => {
    const [ping] = await logOf(repoHook);
    const before = receiver.received.filter((r) => r.guid === ping!.guid);
    expect(before).toHaveLength(1);
    const res = await call(t.api, "POST", `${hookPath(repoHook)}/deliveries/${ping!.id}/attempts`, { auth: auth(octocat) });
    expect(res.status).toBe(202);
    await receiver.until((r) => r.filter((x) => x.guid === ping!.guid).length === 2);
    const both = receiver.received.filter((r) => r.guid === ping!.guid);
    expect(both[1]!.body.equals(both[0]!.body)).toBe(true);
    expect(both[1]!.headers["x-hub-signature-256"]).toBe(both[0]!.headers["x-hub-signature-256"]);
    const log = await eventually(async () => {
      const l = await logOf(repoHook);
      return l.length === 2 && l;
    });
    expect(log[0]).toMatchObject({ guid: ping!.guid, attempt: 2, redelivery: true, status: "OK", event: "ping" });
  });

  it("works for organization hooks", async () => {
    const [ping] = await logOf(orgHook);
    const res = await call(t.api, "POST", `/orgs/octo-org/hooks/${orgHook.id}/deliveries/${ping!.id}/attempts`, { auth: auth(octocat) });
    expect(res.status).toBe(202);
    const log = await eventually(async () => {
      const l = await logOf(orgHook);
      return l.length === 2 && l;
    });
    expect(log[0]).toMatchObject({ guid: ping!.guid, attempt: 2, redelivery: true });
  });
});

describe("pings", () => {
  it.each([
    ["repository", () => repoHook, "repository"],
    ["organization", () => orgHook, "organization"],
  ] as const)("a %s hook's ping (204) arrives with a new guid and validates", async (_kind, hook, place) => {
    const before = new Set((await receivedBy(hook(), "ping")).map((r) => r.guid));
    const res = await call(t.api, "POST", `${hookPath(hook())}/pings`, { auth: auth(octocat) });
    expect(res.status).toBe(204);
    const fresh = await eventually(async () => (await receivedBy(hook(), "ping")).find((r) => !before.has(r.guid)));
    const payload = json(fresh);
    const valid = validateWebhook("ping", payload);
    expect(valid.valid ? [] : valid.errors).toEqual([]);
    expect(payload).toMatchObject({ hook_id: hook().id, hook: { id: hook().id }, sender: { login: "octocat" } });
    expect(payload).toHaveProperty(place);
  });

  it("are never stored in the activity feeds", async () => {
    const res = await call<{ type: string }[]>(t.api, "GET", "/repos/octocat/hello-world/events", { auth: auth(octocat) });
    expect(res.status).toBe(200);
    expect(res.body.map((e) => e.type)).not.toContain("PingEvent");
    const rows = await t.server.db.query("select 1 from events where type not like '%Event' or type = 'PingEvent'");
    expect(rows).toEqual([]);
  });
});

describe("tests (the latest push)", () => {
  it("sends nothing while the repository has no push, then the latest push", async () => {
    expect((await call(t.api, "POST", `${hookPath(repoHook)}/tests`, { auth: auth(octocat) })).status).toBe(204);
    await new Promise((r) => setTimeout(r, 400));
    expect(await receivedBy(repoHook, "push")).toEqual([]);

    const { events } = await simulate(t.api, "push", { params: { message: "the latest push" } });
    const first = await eventually(async () => (await receivedBy(repoHook, "push"))[0]);
    expect((await call(t.api, "POST", `${hookPath(repoHook)}/tests`, { auth: auth(octocat) })).status).toBe(204);
    const [, again] = await eventually(async () => {
      const pushes = await receivedBy(repoHook, "push");
      return pushes.length === 2 && pushes;
    });
    expect(again!.guid).not.toBe(first.guid);
    const payload = json(again!);
    expect(validateWebhook("push", payload).valid).toBe(true);
    expect(payload.after).toBe(json(first).after);
    expect(payload.head_commit.message).toBe("the latest push");
    expect(events[0]!.type).toBe("PushEvent");
  });

  it("sends every commit of a push longer than the feed's 20", async () => {
    const before = (await receivedBy(repoHook, "push")).length;
    await simulate(t.api, "push", { params: { commits: "23", message: "long push" } });
    await eventually(async () => (await receivedBy(repoHook, "push")).length === before + 1);
    expect((await call(t.api, "POST", `${hookPath(repoHook)}/tests`, { auth: auth(octocat) })).status).toBe(204);
    const pushes = await eventually(async () => {
      const all = await receivedBy(repoHook, "push");
      return all.length === before + 2 && all;
    });
    const [live, test] = pushes.slice(before).map(json) as [ReturnType<typeof json>, ReturnType<typeof json>];
    expect(live.commits).toHaveLength(23);
    expect(test.commits).toEqual(live.commits);
    expect(validateWebhook("push", test).valid).toBe(true);
  });

  it("answers 204 and sends nothing to a hook not subscribed to push", async () => {
    const before = receiver.received.length;
    expect((await call(t.api, "POST", `${hookPath(issuesHook)}/tests`, { auth: auth(octocat) })).status).toBe(204);
    await new Promise((r) => setTimeout(r, 400));
    expect(receiver.received.slice(before).filter((r) => r.event === "push")).toEqual([]);
    expect((await logOf(issuesHook)).filter((d) => d.event === "push")).toEqual([]);
  });
});

describe("access", () => {
  const cases: [string, "GET" | "POST", () => string][] = [
    ["list", "GET", () => `${hookPath(repoHook)}/deliveries`],
    ["get", "GET", () => `${hookPath(repoHook)}/deliveries/1`],
    ["redeliver", "POST", () => `${hookPath(repoHook)}/deliveries/1/attempts`],
    ["ping", "POST", () => `${hookPath(repoHook)}/pings`],
    ["test", "POST", () => `${hookPath(repoHook)}/tests`],
    ["org list", "GET", () => `${hookPath(orgHook)}/deliveries`],
    ["org get", "GET", () => `${hookPath(orgHook)}/deliveries/1`],
    ["org redeliver", "POST", () => `${hookPath(orgHook)}/deliveries/1/attempts`],
    ["org ping", "POST", () => `${hookPath(orgHook)}/pings`],
  ];

  it.each(cases)("%s: 404 for a user who does not administer the hook's repository or organization", async (_name, method, path) => {
    const res = await call(t.api, method, path(), { auth: auth(hubot) });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Not Found", documentation_url: expect.any(String) });
  });

  it.each(cases)("%s: 401 without a token", async (_name, method, path) => {
    expect((await call(t.api, method, path())).status).toBe(401);
  });

  it("404 for an unknown hook, an unknown attempt, and another hook's attempt", async () => {
    const [otherAttempt] = await logOf(issuesHook);
    for (const [method, path] of [
      ["GET", `/repos/octocat/hello-world/hooks/999999/deliveries`],
      ["POST", `/repos/octocat/hello-world/hooks/999999/pings`],
      ["GET", `${hookPath(repoHook)}/deliveries/999999`],
      ["POST", `${hookPath(repoHook)}/deliveries/999999/attempts`],
      ["GET", `${hookPath(repoHook)}/deliveries/${otherAttempt!.id}`],
      ["POST", `${hookPath(repoHook)}/deliveries/${otherAttempt!.id}/attempts`],
      ["GET", `/orgs/octo-org/hooks/${repoHook.id}/deliveries`],
      ["GET", `/repos/octocat/hello-world/hooks/${orgHook.id}/deliveries`],
    ] as const) {
      expect((await call(t.api, method, path, { auth: auth(octocat) })).status, `${method} ${path}`).toBe(404);
    }
  });

  it("a deleted hook's log is gone", async () => {
    const receiver2 = await startReceiver();
    try {
      const hook = await createHook(t.api, octocat, "repos/octocat/hello-world", { config: { url: receiver2.url }, events: ["watch"] });
      await eventually(async () => (await logOf(hook)).length === 1);
      expect((await call(t.api, "DELETE", hookPath(hook), { auth: auth(octocat) })).status).toBe(204);
      expect((await deliveries(t.api, octocat, hookPath(hook))).status).toBe(404);
      expect(await t.server.db.query("select 1 from hook_deliveries where hook_id = $1", [hook.id])).toEqual([]);
    } finally {
      await receiver2.close();
    }
  });
});

describe("a job queued before migration 009 (payload in the job's data, no delivery row yet)", () => {
  it("is still delivered, signed, and logged under its guid", async () => {
    const guid = "0d5e1c9a-7b43-4f1e-9a0e-2c3b4d5e6f70";
    const payload = JSON.stringify({ zen: "Old jobs still count.", hook_id: repoHook.id, hook: { id: repoHook.id } });
    // What queue.ts used to send: the delivery travels in the job; its row is written with the first attempt.
    await t.server.db.query("insert into pgboss.job (name, data) values ($1, $2::jsonb)", [
      DELIVERY_QUEUE,
      JSON.stringify({ guid, try: 1, redelivery: false, first: { hook: repoHook.id, event: "ping", action: null, payload } } satisfies DeliveryJobData),
    ]);
    const arrived = await eventually(async () => receiver.received.find((r) => r.guid === guid));
    expect(arrived.body.toString("utf8")).toBe(payload);
    expect(arrived.headers["x-service-event"]).toBe("ping");
    expect(arrived.headers["x-hub-signature-256"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    const logged = await eventually(async () => (await logOf(repoHook)).find((d) => d.guid === guid));
    expect(logged).toMatchObject({ event: "ping", status: "OK", redelivery: false });
  });
});
