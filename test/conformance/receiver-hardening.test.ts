/**
 * The built-in webhook receiver against everyone else on the machine (issue 34): it keeps only
 * deliveries to the hook URLs it handed out — any other path is 404, any other method 405 — reads
 * a body no further than its limit (413, then the connection is closed: a body that never ends
 * stops being read), and keeps no more than its retention cap in all (507 past it). Raw sockets,
 * so what is sent is exactly what a hostile local process would send.
 */
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Receiver } from "../../conformance/core/receiver.ts";
import { CaseFailure } from "../../conformance/core/failure.ts";
import { MAX_DELIVERY_BYTES, startReceiver } from "../../conformance/receiver/server.ts";

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

interface Exchange {
  /** The status line answered, or "" when the connection closed without one. */
  status: string;
  /** Body bytes written before the receiver hung up (or the cap was reached). */
  written: number;
  closedByReceiver: boolean;
}

/**
 * Sends `head` then body chunks of 64 KiB (chunked encoding when `chunked`) until the receiver
 * closes the connection or `cap` bytes are written; returns what it answered.
 */
async function send(url: string, head: string, bodyBytes: number, cap = bodyBytes, chunked = false): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  let answer = "";
  let closed = false;
  socket.on("data", (d: Buffer) => (answer += d.toString("latin1")));
  const done = new Promise<void>((resolve) => socket.on("close", () => ((closed = true), resolve())));
  socket.on("error", () => undefined); // a reset while writing is the receiver hanging up
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  socket.write(head);
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let written = 0;
  while (!closed && written < Math.min(bodyBytes, cap)) {
    const more = chunked ? socket.write(`${chunk.length.toString(16)}\r\n`) && socket.write(chunk) && socket.write("\r\n") : socket.write(chunk);
    written += chunk.length;
    if (!more) await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), done]);
  }
  const closedByReceiver = closed;
  if (!closed) {
    // Bounded: the answer to a complete request comes at once; one that is cut, at the cap.
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    socket.destroy();
  }
  return { status: answer.split("\r\n")[0] ?? "", written, closedByReceiver };
}

function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

describe("the built-in receiver keeps only the suite's deliveries", () => {
  it("answers 404 to every path it did not hand out and 405 to methods other than POST, keeping nothing", async () => {
    receiver = await startReceiver();
    const hook = receiver.url("/WEBHOOK-PING-001/hook-abc");
    const bare = new URL(hook).origin;
    const asked: [string, string][] = [
      ["POST", "/WEBHOOK-PING-001/hook-abc"], // the case's path without its random segment
      ["POST", "/"],
      ["POST", `/${"A".repeat(22)}/WEBHOOK-PING-001/hook-abc`],
      ["GET", "/anything"],
      ["GET", pathOf(hook)],
      ["PUT", pathOf(hook)],
      ["DELETE", pathOf(hook)],
    ];
    const statuses = [];
    for (const [method, path] of asked) {
      const body = "junk ".repeat(100);
      statuses.push((await send(bare, `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`, 0)).status);
    }
    expect(statuses).toEqual([404, 404, 404, 404, 405, 405, 405].map((s) => expect.stringMatching(new RegExp(`^HTTP/1\\.1 ${s} `))));
    expect(receiver.received()).toEqual([]);
    const ok = await send(bare, `POST ${pathOf(hook)} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`, 0);
    expect(ok.status).toMatch(/^HTTP\/1\.1 200 /);
    expect(receiver.received().map((d) => [d.path, d.raw.toString()])).toEqual([["/WEBHOOK-PING-001/hook-abc", "{}"]]);
  });

  it("accepts a delivery of the contract's largest size by default", async () => {
    receiver = await startReceiver();
    const hook = receiver.url("/big");
    const r = await send(hook, `POST ${pathOf(hook)} HTTP/1.1\r\nHost: x\r\nContent-Length: ${MAX_DELIVERY_BYTES}\r\nConnection: close\r\n\r\n`, MAX_DELIVERY_BYTES);
    expect(r.status).toMatch(/^HTTP\/1\.1 200 /);
    expect(receiver.received()[0]!.raw.length).toBe(MAX_DELIVERY_BYTES);
  });

  it("refuses a body over its limit with 413 and stops reading it, declared or streamed without end, to a hook or elsewhere", async () => {
    const limit = 256 * 1024;
    receiver = await startReceiver({ maxBodyBytes: limit });
    const hook = receiver.url("/WEBHOOK-BIG-001/hook");
    const endless = 64 * 1024 * 1024; // what the sender would go on writing to a receiver that reads it all
    const declared = await send(hook, `POST ${pathOf(hook)} HTTP/1.1\r\nHost: x\r\nContent-Length: ${endless}\r\n\r\n`, endless, endless);
    const streamed = await send(hook, `POST ${pathOf(hook)} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n`, endless, endless, true);
    const elsewhere = await send(hook, `POST /junk HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n`, endless, endless, true);
    for (const [r, status] of [[declared, 413], [streamed, 413], [elsewhere, 404]] as const) {
      expect(r.status).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(r.closedByReceiver).toBe(true);
      // Loopback socket buffers hold a few MB; a receiver reading on would have taken all 64.
      expect(r.written).toBeLessThan(endless / 2);
    }
    expect(receiver.received()).toEqual([]);
  });

  it("keeps no more than its retention cap: deliveries past it are answered 507, dropped, and a waiting case is told", async () => {
    receiver = await startReceiver({ maxRetainedBytes: 100 * 1024 });
    const hook = receiver.url("/WEBHOOK-MANY-001/hook");
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const body = String(i).repeat(40 * 1024);
      statuses.push((await send(hook, `POST ${pathOf(hook)} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`, 0)).status.slice(9, 12));
    }
    expect(statuses).toEqual(["200", "200", "507"]);
    expect(receiver.received().reduce((n, d) => n + d.raw.length, 0)).toBe(80 * 1024);
    const error = (await receiver.waitFor((d) => d.raw[0] === 0x32, 50).catch((e: unknown) => e)) as CaseFailure;
    expect(error).toBeInstanceOf(CaseFailure);
    expect(String(error.detail.actual)).toMatch(/1 dropped, the receiver having kept its 102400 bytes/);
  });
});
