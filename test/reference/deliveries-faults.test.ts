/**
 * Fault injection against local receivers: each answers 500, holds its answer past the time-out,
 * resets the connection, or redirects, for the first two arrivals of a push delivery. Every push
 * arrives in the end (same X-Service-Delivery each time), and every attempt is in the hook's
 * log with its status, as the API serves it. Also: a receiver that never recovers exhausts the
 * schedule, and a payload over the size limit is logged as a failure and never sent.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./authorizations-client.ts";
import { useServer } from "./harness.ts";
import { startReceiver, type Fault, type Receiver } from "./webhook-receiver.ts";
import { ADMIN_TOKEN, auth, createHook, deliveries, eventually, FAST, hookPath, hookToken, simulate, type DeliveryJson, type HookJson } from "./deliveries-fixtures.ts";
import { ceiling } from "../ceilings.ts";

const FAULTS: { fault: Fault; status: string; code: number; response: string | null }[] = [
  { fault: "500", status: "Invalid HTTP Response: 500", code: 500, response: "receiver broke" },
  { fault: "timeout", status: "timed out", code: 0, response: null },
  { fault: "reset", status: "connection reset", code: 0, response: null },
  { fault: "redirect", status: "Invalid HTTP Response: 302", code: 302, response: null },
];

describe("faults for the first two attempts", () => {
  const t = useServer({ adminToken: ADMIN_TOKEN, deliveries: FAST });
  const receivers = new Map<Fault, Receiver>();
  const hooks = new Map<Fault, HookJson>();
  let token: string;

  beforeAll(async () => {
    token = await hookToken(t.server.db, "octocat");
    for (const { fault } of FAULTS) {
      const receiver = await startReceiver({ holdMs: 3000, fault: ({ event, arrival }) => (event === "push" && arrival <= 2 ? fault : undefined) });
      receivers.set(fault, receiver);
      hooks.set(fault, await createHook(t.api, token, "repos/octocat/hello-world", { config: { url: receiver.url }, events: ["push"] }));
    }
    await simulate(t.api, "push");
    for (const receiver of receivers.values()) await receiver.until((r) => r.some((x) => x.event === "push" && x.answer === "ok"));
  }, ceiling(60_000));
  afterAll(async () => {
    for (const r of receivers.values()) await r.close();
  });

  it.each(FAULTS)("$fault: the third attempt arrives, with the same guid", ({ fault }) => {
    const pushes = receivers.get(fault)!.received.filter((r) => r.event === "push");
    expect(pushes.map((r) => r.answer)).toEqual([fault, fault, "ok"]);
    expect(new Set(pushes.map((r) => r.guid)).size).toBe(1);
    // Backoff: ~50 ms then ~100 ms (±20%), plus the time the failed attempts took.
    expect(pushes[1]!.at - pushes[0]!.at).toBeGreaterThanOrEqual(35);
    expect(pushes[2]!.at - pushes[1]!.at).toBeGreaterThanOrEqual(75);
    expect(pushes.map((r) => r.body.toString("utf8"))).toEqual(Array(3).fill(pushes[0]!.body.toString("utf8")));
  });

  it.each(FAULTS)("$fault: each attempt is logged, newest first", async ({ fault, status, code, response }) => {
    const hook = hooks.get(fault)!;
    const log = await eventually(async () => {
      const res = await deliveries(t.api, token, hookPath(hook));
      const pushes = res.body.filter((d) => d.event === "push");
      return pushes.length === 3 && pushes;
    });
    const guid = receivers.get(fault)!.received.find((r) => r.event === "push")!.guid;
    expect(log.map((d) => [d.attempt, d.status, d.status_code, d.redelivery, d.guid])).toEqual([
      [3, "OK", 200, false, guid],
      [2, status, code, false, guid],
      [1, status, code, false, guid],
    ]);
    expect(log[0]!.next_attempt_at).toBeNull();
    for (const failed of log.slice(1)) {
      expect(Date.parse(failed.next_attempt_at!)).toBeGreaterThanOrEqual(Date.parse(failed.delivered_at));
      expect(failed.url).toBe(receivers.get(fault)!.url);
    }
    if (fault === "timeout") expect(log[1]!.duration).toBeGreaterThanOrEqual(1.45);

    const detail = await call(t.api, "GET", `${hookPath(hook)}/deliveries/${log[2]!.id}`, { auth: auth(token) });
    expect(detail.status).toBe(200);
    expect(detail.body.request.headers["X-Service-Delivery"]).toBe(guid);
    expect(detail.body.request.headers["X-Service-Event"]).toBe("push");
    expect(detail.body.request.payload).toMatchObject({ ref: "refs/heads/main" });
    expect(detail.body.response.payload).toBe(response);
    if (code === 0) expect(detail.body.response.headers).toEqual({});
    if (fault === "redirect") expect(detail.body.response.headers.location).toBe("http://127.0.0.1:1/elsewhere");
  });

  it.each(FAULTS)("$fault: last_response is active again after the success", async ({ fault }) => {
    const res = await call<HookJson>(t.api, "GET", hookPath(hooks.get(fault)!), { auth: auth(token) });
    expect(res.body.last_response).toEqual({ code: 200, status: "active", message: "OK" });
  });

  it("a receiver that never recovers: the whole schedule, then no more retries", async () => {
    const receiver = await startReceiver({ fault: ({ event }) => (event === "issues" ? "500" : undefined) });
    try {
      const hook = await createHook(t.api, token, "repos/octocat/hello-world", { config: { url: receiver.url }, events: ["issues"] });
      await simulate(t.api, "issues");
      const log = await eventually(async () => {
        const res = await deliveries(t.api, token, hookPath(hook));
        const issues = res.body.filter((d) => d.event === "issues");
        return issues.length === 5 && issues;
      });
      expect(log.map((d) => d.attempt)).toEqual([5, 4, 3, 2, 1]);
      expect(log.map((d) => d.next_attempt_at === null)).toEqual([true, false, false, false, false]);
      expect(log.every((d: DeliveryJson) => d.status === "Invalid HTTP Response: 500" && d.action === "opened")).toBe(true);
      await new Promise((r) => setTimeout(r, 1000));
      expect(receiver.received.filter((r) => r.event === "issues")).toHaveLength(5);
      const res = await call<HookJson>(t.api, "GET", hookPath(hook), { auth: auth(token) });
      expect(res.body.last_response).toEqual({ code: 500, status: "Invalid HTTP Response: 500", message: "Invalid HTTP Response: 500" });
    } finally {
      await receiver.close();
    }
  }, ceiling(30_000));

  it("a service hook gets its own format, retried with the same bytes", async () => {
    const receiver = await startReceiver({ fault: ({ event, arrival }) => (event === "push" && arrival === 1 ? "500" : undefined) });
    try {
      const res = await call<HookJson>(t.api, "POST", "/repos/octocat/hello-world/hooks", { auth: auth(token), body: { name: "chat", config: { webhook_url: receiver.url, channel: "#ops" }, events: ["push"] } });
      expect(res.status).toBe(201);
      await simulate(t.api, "push", { params: { message: "for the chat room" } });
      await receiver.until((r) => r.filter((x) => x.event === "push").length === 2);
      const [ping, failed, ok] = receiver.received;
      expect(JSON.parse(ping!.body.toString("utf8"))).toMatchObject({ text: expect.stringContaining("This room now receives"), channel: "#ops" });
      expect(JSON.parse(failed!.body.toString("utf8"))).toMatchObject({ text: expect.stringContaining("pushed 1 commit to main"), channel: "#ops" });
      expect(ok!.body.equals(failed!.body)).toBe(true);
      expect(ok!.guid).toBe(failed!.guid);
      for (const r of receiver.received) {
        expect(r.headers["content-type"]).toBe("application/json");
        expect(r.headers).not.toHaveProperty("x-hub-signature-256");
      }
      const log = await eventually(async () => {
        const l = (await deliveries(t.api, token, hookPath(res.body))).body;
        return l.length === 3 && l;
      });
      expect(log.map((d) => [d.event, d.attempt, d.status])).toEqual([
        ["push", 2, "OK"],
        ["push", 1, "Invalid HTTP Response: 500"],
        ["ping", 1, "OK"],
      ]);
      const detail = await call(t.api, "GET", `${hookPath(res.body)}/deliveries/${log[0]!.id}`, { auth: auth(token) });
      expect(detail.body.request.payload).toMatchObject({ text: expect.stringContaining("pushed 1 commit"), channel: "#ops" });
    } finally {
      await receiver.close();
    }
  }, ceiling(30_000));

  it("TLS: a self-signed certificate fails the attempt unless insecure_ssl is \"1\"", async () => {
    const dir = mkdtempSync(join(tmpdir(), "deliveries-tls-"));
    try {
      execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
      const tls = { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
      const strict = await startReceiver({ tls });
      const lenient = await startReceiver({ tls });
      try {
        const refused = await createHook(t.api, token, "repos/octocat/hello-world", { config: { url: strict.url }, events: ["gollum"] });
        const accepted = await createHook(t.api, token, "repos/octocat/hello-world", { config: { url: lenient.url, insecure_ssl: "1" }, events: ["gollum"] });
        const [failed] = await eventually(async () => {
          const l = (await deliveries(t.api, token, hookPath(refused))).body;
          return l.length > 0 && l;
        });
        expect(failed).toMatchObject({ event: "ping", status: "TLS error", status_code: 0 });
        expect(strict.received).toEqual([]);
        await lenient.until((r) => r.length === 1);
        expect(lenient.received[0]!.event).toBe("ping");
        const [ok] = await eventually(async () => {
          const l = (await deliveries(t.api, token, hookPath(accepted))).body;
          return l.length > 0 && l;
        });
        expect(ok).toMatchObject({ status: "OK", status_code: 200, url: lenient.url });
      } finally {
        await strict.close();
        await lenient.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, ceiling(30_000));

  it("a receiver that refuses connections: `connection refused`, last_response without a code", async () => {
    const receiver = await startReceiver();
    const url = receiver.url;
    await receiver.close();
    const hook = await createHook(t.api, token, "repos/octocat/hello-world", { config: { url }, events: ["fork"] });
    // The log is newest first, and with a 50 ms schedule the retry may be logged already: the oldest is the first attempt.
    const log = await eventually(async () => (await deliveries(t.api, token, hookPath(hook))).body.filter((d) => d.event === "ping").at(-1));
    expect(log).toMatchObject({ status: "connection refused", status_code: 0, attempt: 1, next_attempt_at: expect.any(String) });
    const res = await call<HookJson>(t.api, "GET", hookPath(hook), { auth: auth(token) });
    expect(res.body.last_response).toMatchObject({ code: null, status: "connection refused" });
  }, ceiling(30_000));
});

describe("payloads over the size limit", () => {
  // The real limit is 25 MB; the engine takes it as an option, so a push is "too large" here.
  const t = useServer({ adminToken: ADMIN_TOKEN, deliveries: { ...FAST, maxBodyBytes: 2000 } });

  it("are not sent, logged once as failed, and not retried", async () => {
    const receiver = await startReceiver();
    try {
      const token = await hookToken(t.server.db, "octocat");
      const hook = await createHook(t.api, token, "repos/octocat/hello-world", { config: { url: receiver.url }, events: ["push"] });
      await simulate(t.api, "push", { params: { commits: "5" } });
      const log = await eventually(async () => {
        const res = await deliveries(t.api, token, hookPath(hook));
        return res.body.find((d) => d.event === "push");
      });
      expect(log).toMatchObject({ status: "payload too large", status_code: 0, attempt: 1, next_attempt_at: null, duration: 0 });
      await new Promise((r) => setTimeout(r, 500));
      // The ping is over 2000 bytes too.
      expect(receiver.received).toEqual([]);
      expect((await deliveries(t.api, token, hookPath(hook))).body.map((d) => [d.event, d.status])).toEqual([
        ["push", "payload too large"],
        ["ping", "payload too large"],
      ]);
      const detail = await call(t.api, "GET", `${hookPath(hook)}/deliveries/${log.id}`, { auth: auth(token) });
      expect(detail.body.response).toEqual({ headers: {}, payload: null });
      const res = await call<HookJson>(t.api, "GET", hookPath(hook), { auth: auth(token) });
      expect(res.body.last_response).toMatchObject({ code: null, status: "payload too large", message: expect.stringMatching(/over 2000 bytes/) });
    } finally {
      await receiver.close();
    }
  }, ceiling(30_000));
});
