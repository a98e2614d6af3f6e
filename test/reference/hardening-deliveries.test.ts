/**
 * Issue 23, the points about hooks and deliveries, over HTTP against a real server (PGlite) and
 * real receivers on loopback:
 * 5. a repository or an organization holds at most 20 hooks; one receiver that never answers
 *    (or one owner's many hooks) cannot take every delivery slot: another owner's delivery is
 *    sent while all of the slow receiver's attempts are still waiting for it;
 * 6. the delivery log redacts what is derived from a service secret (travis' `authorization`
 *    digest) and a secret URL (chat's `webhook_url`), while the receivers get the real values;
 * 9. an endless answer is read no further than the 64 KB the log keeps: the attempt ends OK
 *    instead of running into its time-out.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../reference/auth/secrets.ts";
import { MAX_HOOKS_PER_PLACE } from "../../reference/handlers/hooks-manage.ts";
import { ADMIN_TOKEN, eventually, FAST, simulate } from "./deliveries-fixtures.ts";
import { hookToken, useHookApi, webhook } from "./hooks-fixtures.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

/** A receiver that takes requests and never answers; counts how many are open and how many the sender gave up. */
async function silentReceiver(): Promise<{ url: string; open: () => number; maxOpen: () => number; closed: () => number; close: () => Promise<void> }> {
  const held = new Set<ServerResponse>();
  let maxOpen = 0;
  let closed = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    held.add(res);
    maxOpen = Math.max(maxOpen, held.size);
    res.on("close", () => {
      held.delete(res);
      closed++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    open: () => held.size,
    maxOpen: () => maxOpen,
    closed: () => closed,
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("5. at most 20 hooks on a repository or an organization", () => {
  const api = useHookApi({ deliveries: { enabled: false } });

  it("refuses the 21st hook with a 422 naming the limit, web or service, and takes one again after a delete", async () => {
    expect(MAX_HOOKS_PER_PLACE).toBe(20);
    const path = "/repos/octocat/hello-world/hooks";
    const ids: number[] = [];
    for (let i = 0; i < MAX_HOOKS_PER_PLACE; i++) {
      const reply = await api.call("POST", path, api.token, webhook(`http://127.0.0.1:9/cap/${i}`));
      expect(reply.status, `hook ${i + 1}`).toBe(201);
      ids.push(reply.body.id);
    }
    for (const body of [webhook("http://127.0.0.1:9/cap/over"), { name: "chat", config: { webhook_url: "http://127.0.0.1:9/chat" } }]) {
      const over = await api.call("POST", path, api.token, body);
      expect(over.status).toBe(422);
      expect(over.body).toMatchObject({ message: "Validation Failed", errors: [{ resource: "Hook", code: "custom", message: expect.stringMatching(/at most 20 hooks/) }] });
    }
    expect((await api.call("DELETE", `${path}/${ids[0]}`, api.token)).status).toBe(204);
    expect((await api.call("POST", path, api.token, webhook("http://127.0.0.1:9/cap/again"))).status).toBe(201);
    const count = await api.t.server.db.query<{ n: number }>("select count(*)::int as n from hooks h join repositories r on r.id = h.repo_id join accounts o on o.id = r.owner_id where o.login = 'octocat' and r.name = 'hello-world'");
    expect(count[0]!.n).toBe(MAX_HOOKS_PER_PLACE);
  });

  it("counts an organization's hooks the same way, concurrent creations included", async () => {
    const replies = await Promise.all(Array.from({ length: MAX_HOOKS_PER_PLACE + 5 }, (_, i) => api.call("POST", "/orgs/octo-org/hooks", api.token, webhook(`http://127.0.0.1:9/org-cap/${i}`))));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_HOOKS_PER_PLACE);
    expect(statuses.filter((s) => s === 422)).toHaveLength(5);
  });
});

describe("5. one slow receiver does not hold up another owner's deliveries", () => {
  // Concurrency 16 (the default: 16 slots per receiver and per owner, 4 more kept for others);
  // attempts time out after 5 s, far longer than a delivery takes here.
  const api = useHookApi({ adminToken: ADMIN_TOKEN, deliveries: { ...FAST, timeoutMs: 5000, expireInSeconds: 30 } });
  let slow: Awaited<ReturnType<typeof silentReceiver>>;
  let fast: Receiver;
  let slowClosedAtArrival: number | undefined;
  let slowMaxOpenAtArrival: number | undefined;
  beforeAll(async () => {
    slow = await silentReceiver();
    fast = await startReceiver({
      // Called as the delivery arrives: how many attempts at the silent receiver had ended by then.
      fault: ({ event }) => {
        if (event === "push" && slowClosedAtArrival === undefined) {
          slowClosedAtArrival = slow.closed();
          // Exact while none has ended (later, a new attempt may open before the old socket's close is seen).
          slowMaxOpenAtArrival = slow.maxOpen();
        }
        return undefined;
      },
    });
  });
  afterAll(async () => {
    await slow?.close();
    await fast?.close();
  });

  it("sends defunkt's push while all 40 of octocat's deliveries to a silent receiver still wait", async () => {
    // 40 hooks of octocat (20 per repository, the cap), created at the answering receiver so that
    // their pings are answered, then pointed at the silent one.
    const created: string[] = [];
    for (const repo of ["hello-world", "secret-plans"]) {
      for (let i = 0; i < 20; i++) {
        const reply = await api.call("POST", `/repos/octocat/${repo}/hooks`, api.token, webhook(`${fast.url}/${repo}/${i}`, { events: ["push"] }));
        expect(reply.status).toBe(201);
        created.push(`/repos/octocat/${repo}/hooks/${reply.body.id}`);
      }
    }
    const defunkt = await hookToken(api.t.server.db, "defunkt", ["admin:repo_hook"]);
    const other = await api.call("POST", "/repos/defunkt/hello-world/hooks", defunkt, webhook(fast.url));
    expect(other.status).toBe(201);
    await fast.until((r) => r.filter((x) => x.event === "ping").length === 41, 30_000);
    for (const [i, path] of created.entries()) {
      expect((await api.call("PATCH", path, api.token, { config: { url: `${slow.url}/${i}` } })).status).toBe(200);
    }

    await simulate(api.t.api, "push", { repo: "octocat/hello-world" });
    await simulate(api.t.api, "push", { repo: "octocat/secret-plans" });
    // The silent receiver holds as many attempts as one receiver may: the worker does not give it more.
    await eventually(async () => slow.open() >= 16, 15_000, "16 attempts held by the silent receiver");
    expect(slow.closed(), "no attempt at the silent receiver has timed out yet").toBe(0);

    await simulate(api.t.api, "push", { repo: "defunkt/hello-world", actor: "defunkt" });
    await fast.until((r) => r.some((x) => x.event === "push"), 15_000);
    expect(slowClosedAtArrival, "defunkt's push arrived before any slow attempt ended").toBe(0);
    expect(slowMaxOpenAtArrival, "one receiver holds at most its 16 slots, of 20").toBe(16);
  });
});

describe("6 and 9. the delivery log hides secrets; an endless answer is cut at 64 KB", () => {
  const api = useHookApi({ adminToken: ADMIN_TOKEN, deliveries: FAST });
  let receiver: Receiver;
  let endless: Server;
  let endlessUrl = "";
  beforeAll(async () => {
    receiver = await startReceiver();
    endless = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        // An answer that never ends (200 MB and more): written as fast as the sender reads.
        const more = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once("drain", more);
        };
        more();
      });
    });
    await new Promise<void>((resolve) => endless.listen(0, "127.0.0.1", resolve));
    endlessUrl = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/endless`;
  });
  afterAll(async () => {
    await receiver?.close();
    endless?.closeAllConnections();
    await new Promise<void>((resolve) => (endless ? endless.close(() => resolve()) : resolve()));
  });

  it("shows neither travis' authorization digest nor chat's webhook URL, though the receivers got them", async () => {
    const base = new URL(receiver.url);
    const travisToken = "travis-token-never-shown-4f2a";
    const chatPath = "/services/T000/B000/very-secret-path";
    const travis = await api.call("POST", "/repos/octocat/hello-world/hooks", api.token, { name: "travis", events: ["push"], config: { user: "octocat", token: travisToken, domain: `${base.origin}/travis` } });
    const chat = await api.call("POST", "/repos/octocat/hello-world/hooks", api.token, { name: "chat", config: { webhook_url: `${base.origin}${chatPath}` } });
    expect([travis.status, chat.status]).toEqual([201, 201]);
    await simulate(api.t.api, "push", { repo: "octocat/hello-world" });

    const digest = sha256Hex(`octocat${travisToken}`);
    await receiver.until((r) => r.some((x) => x.body.toString().includes(`authorization=${digest}`)) && r.some((x) => x.headers["content-type"] === "application/json" && x.event === "push"));

    for (const hook of [travis.body, chat.body]) {
      const path = `/repos/octocat/hello-world/hooks/${hook.id}/deliveries`;
      const list = await eventually(async () => {
        const reply = await api.call("GET", path, api.token);
        return reply.body.length > 0 && reply;
      });
      const text = list.text;
      for (const item of list.body as { id: number }[]) {
        const detail = await api.call("GET", `${path}/${item.id}`, api.token);
        expect(detail.status).toBe(200);
        const all = text + detail.text;
        expect(all).not.toContain(digest);
        expect(all).not.toContain(travisToken);
        expect(all).not.toContain(chatPath);
        if (hook.name === "travis") expect(detail.body.request.payload).toMatch(/&authorization=\*{8}$/);
        if (hook.name === "chat") expect(detail.body.url).toBe(`${base.origin}/********`);
      }
    }
  });

  it("ends an attempt whose receiver answers without end once 64 KB are read", async () => {
    const hook = await api.call("POST", "/repos/octo-org/hello-world/hooks", api.token, webhook(endlessUrl, { events: ["push"] }));
    expect(hook.status).toBe(201);
    await simulate(api.t.api, "push", { repo: "octo-org/hello-world" });
    const path = `/repos/octo-org/hello-world/hooks/${hook.body.id}/deliveries`;
    const first = await eventually(async () => {
      const list = (await api.call("GET", path, api.token)).body as { id: number; event: string; status: string }[];
      return list.find((d) => d.event === "push");
    }, 20_000, "the push attempt");
    expect(first.status, "read to 64 KB and stopped, not timed out").toBe("OK");
    const detail = await api.call("GET", `${path}/${first.id}`, api.token);
    expect(Buffer.byteLength(detail.body.response.payload)).toBe(64 * 1024);
  });
});
