/**
 * The broken variants of the reference server (reference/faults.ts): each fault, switched on,
 * really changes what the server does — shown by the same probe against a correct server and a
 * server with every fault, side by side. That a correct server is unchanged is what every other
 * test of the reference shows.
 */
import { createHmac } from "node:crypto";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULTS, faultSet, reserializedBody, UnknownFaultError, PAST_300_EVENTS } from "../../reference/faults.ts";
import { resolveRedirectUri } from "../../reference/oauth/redirect-uri.ts";
import { FEED_MAX_EVENTS } from "../../reference/feeds/queries.ts";
import { DEMO, useServer, type TestServer } from "./harness.ts";
import { insertEvents, tokenFor } from "./feeds-fixtures.ts";
import { createHook } from "./deliveries-fixtures.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

const DELIVERIES = { schedule: { attempts: 2, baseDelayMs: 50 }, timeoutMs: 2000, pollIntervalMs: 100 };
const correct = useServer({ deliveries: DELIVERIES });
const broken = useServer({ deliveries: DELIVERIES, faults: [...FAULTS] });
const servers: [string, TestServer][] = [
  ["correct", correct],
  ["broken", broken],
];

/** The probe's result on the correct server and on the broken one. */
async function both<T>(probe: (t: TestServer) => Promise<T>): Promise<{ correct: T; broken: T }> {
  return { correct: await probe(correct), broken: await probe(broken) };
}

describe("the fault switch", () => {
  it("carries nothing when no fault is named", () => {
    expect(faultSet(undefined)).toBeUndefined();
    expect(faultSet([])).toBeUndefined();
    expect([...faultSet(["etag-ignored", "ping-missing"])!]).toEqual(["etag-ignored", "ping-missing"]);
  });

  it("refuses an unknown fault, naming the known ones", () => {
    expect(() => faultSet(["etag-ignored", "slow"])).toThrow(UnknownFaultError);
    expect(() => faultSet(["slow"])).toThrow(/known: etag-ignored, redirect-prefix/);
  });

  it("serve --fault refuses an unknown name with a usage error (exit 2)", () => {
    const run = spawnSync(process.execPath, ["bin/service-contract.js", "serve", "--port", "0", "--auth-port", "0", "--fault", "slow"], { encoding: "utf8", timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/unknown fault "slow"/);
  });

  it("serve --help does not advertise --fault", () => {
    const run = spawnSync(process.execPath, ["bin/service-contract.js", "serve", "--help"], { encoding: "utf8", timeout: 30_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).not.toMatch(/--fault/);
  });
});

describe("etag-ignored", () => {
  it("answers a matching If-None-Match with 200 instead of 304, also when repeated", async () => {
    const statuses = await both(async (t) => {
      const first = await fetch(`${t.api}/events`);
      const etag = first.headers.get("etag")!;
      await first.arrayBuffer();
      const out: number[] = [];
      // Twice: the second request is the one the polling shortcut would answer.
      for (let i = 0; i < 2; i++) {
        const again = await fetch(`${t.api}/events`, { headers: { "If-None-Match": etag } });
        await again.arrayBuffer();
        out.push(again.status);
      }
      return out;
    });
    expect(statuses).toEqual({ correct: [304, 304], broken: [200, 200] });
  });
});

describe("redirect-prefix", () => {
  const callback = DEMO.app.callback;

  it("accepts a path that only begins with the callback's, and still refuses another host", () => {
    const faults = faultSet(["redirect-prefix"]);
    expect(resolveRedirectUri(callback, `${callback}x`).ok).toBe(false);
    expect(resolveRedirectUri(callback, `${callback}x`, faults).ok).toBe(true);
    expect(resolveRedirectUri(callback, `${callback}/sub`, faults).ok).toBe(true);
    expect(resolveRedirectUri(callback, "http://evil.example/callback", faults).ok).toBe(false);
  });

  it("lets the authorize page go on with redirect_uri=<callback>x instead of redirecting with redirect_uri_mismatch", async () => {
    const answers = await both(async (t) => {
      const query = new URLSearchParams({ client_id: DEMO.app.clientId, redirect_uri: `${callback}x`, state: "s" });
      const res = await fetch(`${t.auth}/login/oauth/authorize?${query}`, { redirect: "manual" });
      await res.arrayBuffer();
      return { status: res.status, error: new URL(res.headers.get("location") ?? "http://none/").searchParams.get("error") };
    });
    expect(answers.correct).toEqual({ status: 302, error: "redirect_uri_mismatch" });
    expect(answers.broken).toEqual({ status: 200, error: null });
  });
});

describe("pagination-past-300 and private-leak (feeds)", () => {
  beforeAll(async () => {
    for (const [, t] of servers) {
      await insertEvents(t.server.db, { actor: "octocat", repo: "octocat/hello-world", count: 340 }, t.api);
      await insertEvents(t.server.db, { actor: "octocat", repo: "octocat/secret-plans", count: 2 }, t.api);
    }
  }, 60_000);

  async function walk(t: TestServer): Promise<{ pages: number; events: number }> {
    let url: string | undefined = `${t.api}/events`;
    let pages = 0;
    let events = 0;
    while (url) {
      const res: Response = await fetch(url);
      expect(res.status).toBe(200);
      events += ((await res.json()) as unknown[]).length;
      pages++;
      url = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
    }
    return { pages, events };
  }

  it("serves 11 pages and 330 events where the correct server stops at 10 and 300", async () => {
    expect(await both(walk)).toEqual({ correct: { pages: 10, events: FEED_MAX_EVENTS }, broken: { pages: 11, events: PAST_300_EVENTS } });
  });

  it("answers page=11 with events instead of 422", async () => {
    const answers = await both(async (t) => {
      const res = await fetch(`${t.api}/events?page=11`);
      const body = (await res.json()) as unknown;
      return { status: res.status, events: Array.isArray(body) ? body.length : undefined };
    });
    expect(answers).toEqual({ correct: { status: 422, events: undefined }, broken: { status: 200, events: PAST_300_EVENTS - FEED_MAX_EVENTS } });
  });

  it("still refuses other bad pages", async () => {
    const statuses = await both(async (t) => {
      const out: number[] = [];
      for (const page of ["12", "0", "abc"]) out.push((await fetch(`${t.api}/events?page=${page}`)).status);
      return out;
    });
    expect(statuses).toEqual({ correct: [422, 422, 422], broken: [422, 422, 422] });
  });

  it("private-leak: shows a private repository's feed and its private events to an anonymous caller", async () => {
    const answers = await both(async (t) => {
      const res = await fetch(`${t.api}/repos/octocat/secret-plans/events`);
      const body = (await res.json()) as { public?: boolean }[] | { message: string };
      return { status: res.status, private: Array.isArray(body) ? body.filter((e) => e.public === false).length : 0 };
    });
    expect(answers.correct).toEqual({ status: 404, private: 0 });
    expect(answers.broken.status).toBe(200);
    expect(answers.broken.private).toBeGreaterThanOrEqual(2);
  });

  it("private-leak: the public timeline stays public", async () => {
    const res = await fetch(`${broken.api}/events`);
    expect(((await res.json()) as { public: boolean }[]).every((e) => e.public)).toBe(true);
  });
});

describe("webhooks: ping-missing and signature-reserialized", () => {
  const receivers: Record<string, Receiver> = {};
  const hooks: Record<string, { id: number; token: string }> = {};
  const SECRET = "faults-test-secret";

  beforeAll(async () => {
    for (const [name, t] of servers) {
      receivers[name] = await startReceiver();
      const token = await tokenFor(t.server.db, "octocat", ["admin:repo_hook", "repo"]);
      const hook = await createHook(t.api, token, "repos/octocat/hello-world", { config: { url: receivers[name]!.url, secret: SECRET, content_type: "json" } });
      hooks[name] = { id: hook.id, token };
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(Object.values(receivers).map((r) => r.close()));
  });

  async function ping(name: "correct" | "broken"): Promise<void> {
    const t = name === "correct" ? correct : broken;
    const res = await fetch(`${t.api}/repos/octocat/hello-world/hooks/${hooks[name]!.id}/pings`, { method: "POST", headers: { authorization: `token ${hooks[name]!.token}` } });
    expect(res.status).toBe(204);
  }

  it("ping-missing: creating a hook sends no ping", async () => {
    await receivers.correct!.until((r) => r.some((x) => x.event === "ping"));
    // The ping endpoint still works: its delivery arriving shows anything enqueued at creation would have too.
    await ping("broken");
    await receivers.broken!.until((r) => r.some((x) => x.event === "ping"));
    await new Promise((r) => setTimeout(r, 300));
    expect(receivers.correct!.received.filter((x) => x.event === "ping")).toHaveLength(1);
    expect(receivers.broken!.received.filter((x) => x.event === "ping")).toHaveLength(1);
  });

  it("signature-reserialized: signs the payload re-serialized, not the bytes sent", async () => {
    await ping("correct");
    await receivers.correct!.until((r) => r.filter((x) => x.event === "ping").length >= 2);
    for (const [name, receiver] of Object.entries(receivers)) {
      const delivery = receiver.received.filter((x) => x.event === "ping").at(-1)!;
      const overBytes = `sha256=${createHmac("sha256", SECRET).update(delivery.body).digest("hex")}`;
      const overReserialized = `sha256=${createHmac("sha256", SECRET).update(reserializedBody(delivery.body)).digest("hex")}`;
      const sha1 = `sha1=${createHmac("sha1", SECRET).update(name === "correct" ? delivery.body : reserializedBody(delivery.body)).digest("hex")}`;
      expect(overBytes, "the compact body differs from its re-serialization").not.toBe(overReserialized);
      expect(delivery.headers["x-hub-signature-256"], name).toBe(name === "correct" ? overBytes : overReserialized);
      expect(delivery.headers["x-hub-signature"], name).toBe(sha1);
    }
  });

  it("re-serializes a form body's payload field the same way", () => {
    const payload = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 });
    const form = new URLSearchParams({ payload }).toString();
    expect(new URLSearchParams(reserializedBody(form)).get("payload")).toBe(JSON.stringify(JSON.parse(payload), null, 2));
    expect(reserializedBody("not json")).toBe("not json");
  });
});
