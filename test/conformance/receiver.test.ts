/**
 * The built-in webhook receiver keeps deliveries exactly as sent — raw bytes (not valid UTF-8,
 * odd whitespace, a form body), lower-cased headers, the path — answers 2xx (or the status a
 * case asked for, to see the target retry), and lets a case
 * wait for a delivery that has already arrived or is still to come, failing in the suite's
 * own terms when none does.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Receiver } from "../../conformance/core/receiver.ts";
import { CaseFailure } from "../../conformance/core/failure.ts";
import { startReceiver } from "../../conformance/receiver/server.ts";

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver({ host: "127.0.0.1" });
});
afterAll(() => receiver?.close());

/** Posts exact bytes with exact header names (fetch would normalise some). */
function post(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { ...headers, "Content-Length": String(body.length) } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("webhook receiver", () => {
  it("hands out URLs on its host, each behind a random segment of its own", () => {
    expect(receiver.url("/hooks/A-1")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{22}\/hooks\/A-1$/);
    expect(receiver.url("hooks/A-1")).toBe(receiver.url("/hooks/A-1"));
    expect(new URL(receiver.url("/hooks/A-2")).pathname.split("/")[1]).not.toBe(new URL(receiver.url("/hooks/A-1")).pathname.split("/")[1]);
  });

  it.each([
    ["JSON with odd whitespace", Buffer.from('{ "zen" :\t"Keep it logically awesome." ,\n"hook_id":1 }\n')],
    ["bytes that are not UTF-8", Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x22, 0x7d])],
    ["a form body", Buffer.from("payload=%7B%22a%22%3A1%7D")],
    ["an empty body", Buffer.alloc(0)],
  ])("keeps %s byte for byte", async (name, body) => {
    const path = `/hooks/${encodeURIComponent(name)}`;
    const status = await post(receiver.url(path), body, { "X-Service-Event": "ping", "X-Hub-Signature-256": "sha256=00", "Content-Type": "application/json" });
    expect(status).toBe(200);
    const d = await receiver.waitFor((x) => x.path === path, 1000);
    expect(Buffer.compare(d.raw, body)).toBe(0);
    expect(d.method).toBe("POST");
    expect(d.headers["x-service-event"]).toBe("ping");
    expect(d.headers["x-hub-signature-256"]).toBe("sha256=00");
    expect(d.receivedAt).toBeLessThanOrEqual(Date.now());
  });

  it("answers the deliveries a case chose to fail with that status, once each, then 200 again, and records what it answered", async () => {
    receiver.failNext("/retry", 2, 500);
    receiver.failNext("/other", 1, 503);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await post(receiver.url("/retry"), Buffer.from(`attempt ${i}`), {}));
    expect(statuses).toEqual([500, 500, 200]);
    expect(receiver.received().filter((d) => d.path === "/retry").map((d) => d.answered)).toEqual([500, 500, 200]);
    expect(await post(receiver.url("/other"), Buffer.from("x"), {})).toBe(503);
    expect(await post(receiver.url("/other"), Buffer.from("x"), {})).toBe(200);
  });

  it("waits for a delivery still to come, and lists everything received", async () => {
    const before = receiver.received().length;
    const waiting = receiver.waitFor((d) => d.path === "/later", 2000);
    setTimeout(() => void post(receiver.url("/later"), Buffer.from("late"), {}), 50);
    expect((await waiting).raw.toString()).toBe("late");
    expect(receiver.received().length).toBe(before + 1);
  });

  it("fails with a CaseFailure when nothing matching arrives in time", async () => {
    const error = await receiver.waitFor((d) => d.path === "/never", 100).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CaseFailure);
    expect((error as CaseFailure).message).toBe("no matching webhook delivery arrived within 100 ms");
    expect((error as CaseFailure).detail.expected).toBe("a matching delivery");
  });

  it("closes, and a closed receiver accepts nothing", async () => {
    const other = await startReceiver();
    const url = other.url("/x");
    expect(await post(url, Buffer.from("1"), {})).toBe(200);
    await other.close();
    await expect(post(url, Buffer.from("2"), {})).rejects.toThrow(/ECONNREFUSED/);
  });
});
