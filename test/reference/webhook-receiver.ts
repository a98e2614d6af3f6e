/**
 * A local webhook receiver for the delivery tests: a node:http server that records every request
 * as it arrived (raw body bytes, headers, time) and can misbehave on purpose — answer 500, hold
 * the answer past the sender's time-out, reset the connection, or redirect — for the first N
 * arrivals of each delivery (by X-Service-Delivery), so the engine's retries can be watched.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { ceiling } from "../ceilings.ts";

export type Fault = "500" | "timeout" | "reset" | "redirect";

export interface Received {
  event: string;
  guid: string;
  headers: Record<string, string>;
  body: Buffer;
  /** 1 for the first arrival of this guid. */
  arrival: number;
  /** What the receiver did: `ok` (200) or the fault it injected. */
  answer: "ok" | Fault;
  at: number;
}

export interface ReceiverOptions {
  /** The fault for this arrival, or undefined to answer 200. */
  fault?: (r: { guid: string; event: string; arrival: number; body: Buffer }) => Fault | undefined;
  /** How long a `timeout` fault holds the answer (then a 503, should the sender still wait). Default 3 s. */
  holdMs?: number;
  /** How long every other answer takes (a receiver doing some work). Default 0. */
  delayMs?: number;
  /** Serve HTTPS with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Arrivals per guid. */
  byGuid(): Map<string, Received[]>;
  /** Resolves once `predicate` holds over what arrived (polled), or rejects after `timeoutMs`. */
  until(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

function lowerHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  return out;
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const received: Received[] = [];
  const counts = new Map<string, number>();
  const held = new Set<ServerResponse>();
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = lowerHeaders(req);
      const guid = headers["x-service-delivery"] ?? "";
      const event = headers["x-service-event"] ?? "";
      const body = Buffer.concat(chunks);
      const arrival = (counts.get(guid) ?? 0) + 1;
      counts.set(guid, arrival);
      const fault = options.fault?.({ guid, event, arrival, body });
      received.push({ event, guid, headers, body, arrival, answer: fault ?? "ok", at: Date.now() });
      if (options.delayMs && fault !== "timeout") setTimeout(() => answer(fault), options.delayMs);
      else answer(fault);
    });
    function answer(fault: Fault | undefined): void {
      switch (fault) {
        case undefined:
          res.writeHead(200, { "content-type": "text/plain" }).end("thanks");
          return;
        case "500":
          res.writeHead(500, { "content-type": "text/plain" }).end("receiver broke");
          return;
        case "redirect":
          res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end();
          return;
        case "reset":
          req.socket.destroy();
          return;
        case "timeout": {
          held.add(res);
          const timer = setTimeout(() => {
            held.delete(res);
            // Never a success: a client still waiting gets a failure, so every "timeout" arrival is one.
            if (!res.destroyed) res.writeHead(503).end("too late");
          }, options.holdMs ?? 3000);
          res.on("close", () => {
            clearTimeout(timer);
            held.delete(res);
          });
        }
      }
    }
  };
  const server: Server = options.tls ? createTlsServer(options.tls, handler) : createServer(handler);
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${port}/hook`,
    received,
    byGuid() {
      const map = new Map<string, Received[]>();
      for (const r of received) map.set(r.guid, [...(map.get(r.guid) ?? []), r]);
      return map;
    },
    async until(predicate, timeoutMs = ceiling(15_000)) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met within ${timeoutMs} ms (${received.length} requests received)`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
