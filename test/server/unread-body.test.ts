/**
 * Answers given before the body was read (413 past the body limit, a hook's 401), over real TCP,
 * with a client that writes the whole body — slowly, in chunks — before it reads anything, as
 * Prism's forwarder and many HTTP libraries do. It must get the answer in the error shape, not a
 * connection closed under its upload; a client that never stops sending is cut off once the
 * server has discarded `discardLimit` bytes (runtime/server/linger.ts, D-REQ-UNREAD-BODY).
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { start, type Running } from "./harness.ts";
import { ceiling } from "../ceilings.ts";

const DOCS = "https://developer.service.example/v3";
const BODY_LIMIT = 4096;
const DISCARD_LIMIT = 1024 * 1024;
const CHUNK = 32 * 1024;

let server: Running;
let port: number;
let pings = 0;

beforeAll(async () => {
  // createRepoHook has no handler (501): its bodies are refused before any handler would run.
  server = await start("api", {
    pingRepoHook: () => {
      pings++;
      return { status: 204 };
    },
  }, {
    // An answer from the headers alone, before any body is read, as an authentication hook gives.
    before: (app) =>
      app.addHook("onRequest", async (request, reply) => {
        if (request.headers.authorization === "token bad") await reply.code(401).send({ message: "Bad credentials", documentation_url: DOCS });
      }),
    bodyLimit: BODY_LIMIT,
    discardLimit: DISCARD_LIMIT,
    documentationUrl: DOCS,
  });
  port = Number(new URL(server.url).port);
});
afterAll(() => server.close());

interface Exchange {
  /** Body bytes the client managed to write. */
  written: number;
  /** The write error that stopped it, if any (EPIPE, ECONNRESET). */
  writeError?: string;
  /** Everything read once the client was done writing (or cut off). */
  response: string;
}

/** Wait for an event, or give up at a ceiling (the test then fails on what it got). */
function once(emitter: net.Socket, event: string): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ceiling(10_000));
    emitter.once(event, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A connection that collects, as text, everything the server sends on it. */
async function connect(): Promise<{ socket: net.Socket; received: () => string }> {
  const socket = net.connect(port, "127.0.0.1");
  let text = "";
  socket.on("data", (data: Buffer) => (text += data.toString("latin1")));
  await once(socket, "connect");
  return { socket, received: () => text };
}

/** Wait until what the server sent satisfies `enough`, or it closes the connection (or a ceiling passes). */
function until(socket: net.Socket, received: () => string, enough: (text: string) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ceiling(10_000));
    const check = (): void => {
      if (!socket.destroyed && !enough(received())) return;
      clearTimeout(timer);
      resolve();
    };
    socket.on("data", check);
    socket.on("close", check);
    check();
  });
}

/** A whole response: its head and as many body bytes as its Content-Length says. */
function complete(text: string): boolean {
  const end = text.indexOf("\r\n\r\n");
  const length = /\r\ncontent-length: (\d+)/i.exec(text)?.[1];
  return end >= 0 && length !== undefined && text.length >= end + 4 + Number(length);
}

/**
 * Send `head`, then `total` body bytes (`Infinity`: until the server stops it) in chunks with a
 * pause after each, reading nothing until the writing is over; then read until the server has
 * answered (a complete response) or closed.
 */
async function writeThenRead(head: string, total: number, chunked = false): Promise<Exchange> {
  const { socket, received } = await connect();
  socket.pause();
  const exchange: Exchange = { written: 0, response: "" };
  socket.on("error", (error: NodeJS.ErrnoException) => (exchange.writeError ??= error.code ?? error.message));
  socket.write(head);
  const payload = Buffer.alloc(CHUNK, "x");
  while (exchange.written < total && !socket.destroyed) {
    const size = Math.min(CHUNK, total - exchange.written);
    const piece = chunked ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), payload.subarray(0, size), Buffer.from("\r\n")]) : payload.subarray(0, size);
    const flushed = socket.write(piece);
    exchange.written += size;
    if (!flushed) await Promise.race([once(socket, "drain"), once(socket, "close")]);
    // The pause lets the server answer, and close if it will, while the upload is under way.
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  if (chunked && !socket.destroyed) socket.write("0\r\n\r\n");
  // Only now does it read; a socket the server cut off has nothing more to read.
  if (!socket.destroyed) {
    const answered = until(socket, received, complete);
    socket.resume();
    await answered;
  }
  socket.destroy();
  exchange.response = received();
  return exchange;
}

function parsed(exchange: Exchange): { status: number; headers: string; body: unknown } {
  const end = exchange.response.indexOf("\r\n\r\n");
  expect(end, `no response; the client ${exchange.writeError ? `got ${exchange.writeError}` : "got nothing"} after writing ${exchange.written} bytes`).toBeGreaterThan(0);
  return {
    status: Number(exchange.response.split(" ", 2)[1]),
    headers: exchange.response.slice(0, end).toLowerCase(),
    body: JSON.parse(exchange.response.slice(end + 4)),
  };
}

const request = (path: string, framing: string, extra = ""): string => `POST ${path} HTTP/1.1\r\nHost: api\r\nContent-Type: application/json\r\n${framing}${extra}\r\n`;
const TOO_LARGE = { message: "Payload Too Large", documentation_url: DOCS };
const BODY = 512 * 1024;

describe("a client that writes the whole body before it reads gets the early answer", () => {
  it("413 with a Content-Length over the body limit, on an operation that takes a body and one that takes none", async () => {
    for (const path of ["/repos/o/r/hooks", "/repos/o/r/hooks/1/pings"]) {
      const exchange = await writeThenRead(request(path, `Content-Length: ${BODY}\r\n`), BODY);
      const { status, body } = parsed(exchange);
      expect([status, body], path).toEqual([413, TOO_LARGE]);
      expect(exchange.written, path).toBe(BODY);
      expect(exchange.writeError, path).toBeUndefined();
    }
    expect(pings).toBe(0);
  });

  it("413 for a chunked body that passes the limit while it is read", async () => {
    const exchange = await writeThenRead(request("/repos/o/r/hooks", "Transfer-Encoding: chunked\r\n"), BODY, true);
    expect(parsed(exchange)).toMatchObject({ status: 413, body: TOO_LARGE });
    expect(exchange.writeError).toBeUndefined();
  });

  it("413 when the client asked for the connection to close (the body is read before the answer)", async () => {
    const exchange = await writeThenRead(request("/repos/o/r/hooks", `Content-Length: ${BODY}\r\n`, "Connection: close\r\n"), BODY);
    expect(parsed(exchange)).toMatchObject({ status: 413, body: TOO_LARGE });
    expect(exchange.writeError).toBeUndefined();
  });

  it("a hook's 401, answered from the headers before any of the body was read", async () => {
    const exchange = await writeThenRead(request("/repos/o/r/hooks/1/pings", `Content-Length: ${BODY}\r\n`, "Authorization: token bad\r\n"), BODY);
    expect(parsed(exchange)).toMatchObject({ status: 401, body: { message: "Bad credentials", documentation_url: DOCS } });
    expect(exchange.writeError).toBeUndefined();
  });
});

describe("the connection after an early answer", () => {
  it("stays usable once the rest of the body has been read: the next request on it is answered", async () => {
    const { socket, received } = await connect();
    socket.on("error", () => {});
    socket.write(request("/repos/o/r/hooks", `Content-Length: ${BODY}\r\n`));
    socket.write(Buffer.alloc(BODY, "x"));
    socket.write("POST /repos/o/r/hooks/1/pings HTTP/1.1\r\nHost: api\r\nContent-Length: 0\r\n\r\n");
    await until(socket, received, (text) => /HTTP\/1\.1 204 /.test(text));
    socket.destroy();
    const response = received();
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
    expect(response.toLowerCase()).not.toContain("connection: close");
    expect(response).toMatch(/\}HTTP\/1\.1 204 /);
    expect(pings).toBe(1);
  });
});

describe("the rest of the body is read up to the discard limit, not forever", () => {
  // "Far past": eight times the limit; the server must have cut the upload off well before its end.
  const FAR = 8 * DISCARD_LIMIT;

  it("a chunked upload far past the limit, after a 413, is cut off once the limit is passed", async () => {
    const exchange = await writeThenRead(request("/repos/o/r/hooks", "Transfer-Encoding: chunked\r\n"), FAR, true);
    // It stopped because the server closed the connection, after discarding the limit.
    expect(exchange.writeError).toMatch(/EPIPE|ECONNRESET/);
    expect(exchange.written).toBeGreaterThan(DISCARD_LIMIT);
    expect(exchange.written).toBeLessThan(FAR);
  });

  it("…and after a hook's 401 (Node alone would read it to its end, however long)", async () => {
    const exchange = await writeThenRead(request("/repos/o/r/hooks/1/pings", "Transfer-Encoding: chunked\r\n", "Authorization: token bad\r\n"), FAR, true);
    expect(exchange.writeError).toMatch(/EPIPE|ECONNRESET/);
    expect(exchange.written).toBeGreaterThan(DISCARD_LIMIT);
    expect(exchange.written).toBeLessThan(FAR);
  });

  it("a declared body over the limit is not waited for: the answer says the connection closes", async () => {
    const { socket, received } = await connect();
    socket.on("error", () => {});
    socket.write(request("/repos/o/r/hooks", `Content-Length: ${4 * DISCARD_LIMIT}\r\n`));
    socket.write(Buffer.alloc(CHUNK, "x"));
    await once(socket, "close");
    expect(received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(received().toLowerCase()).toContain("\r\nconnection: close\r\n");
  });
});
