/**
 * The suite's built-in webhook receiver (conformance/core/receiver.ts): a plain `node:http`
 * server on `--receiver-host`, port 0, that keeps every delivery exactly as it arrived — raw body
 * bytes, lower-cased headers, the path — because the signature cases must check the HMAC over the
 * bytes the target sent, not over anything re-serialized. It answers 200 at once, so a slow or
 * failing receiver can never be the reason a delivery case fails — except where a case asks for a
 * failure (`failNext`: the next deliveries to one path answered 500) to see the target retry.
 *
 * Any local process can reach it, so it keeps only what the suite asked for: each hook's URL
 * (`url(path)`) carries a random segment of its own, and a request anywhere else is answered 404
 * unread, a method other than POST 405. A body is read up to `maxBodyBytes` (the contract's 25 MB
 * delivery limit, D-DELIVERY-RETRIES): past it the answer is 413 and the connection is closed, so
 * reading stops. What it keeps in all is capped too (`maxRetainedBytes`): past that, deliveries
 * are answered 507 and dropped, and a case waiting for one is told why.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ReceivedDelivery, Receiver } from "../core/receiver.ts";
import { CaseFailure } from "../core/failure.ts";

/** The contract's largest delivery body (D-DELIVERY-RETRIES: "a payload over 25 MB is not sent"). */
export const MAX_DELIVERY_BYTES = 25 * 1024 * 1024;
/** What the receiver keeps in all, by default: five deliveries of the largest size. */
export const MAX_RETAINED_BYTES = 5 * MAX_DELIVERY_BYTES;

export interface ReceiverOptions {
  /** Address to bind, and the host in the URLs handed to the target. Default 127.0.0.1. */
  host?: string;
  port?: number;
  /** Largest body accepted (bigger ones are answered 413, unread past the limit). Default 25 MiB. */
  maxBodyBytes?: number;
  /** Body bytes kept in all; deliveries past it are answered 507 and dropped. Default 125 MiB. */
  maxRetainedBytes?: number;
}

interface Waiter {
  match: (d: ReceivedDelivery) => boolean;
  resolve: (d: ReceivedDelivery) => void;
}

function lowerHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  return out;
}

function hostForUrl(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** Answers and hangs up: whatever of the body is still coming is not read. */
function refuse(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.shouldKeepAlive = false;
  res.writeHead(status, { "content-type": "text/plain", connection: "close", ...headers }).end(text);
  res.once("finish", () => res.req.socket.destroySoon());
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const host = options.host ?? "127.0.0.1";
  const maxBody = options.maxBodyBytes ?? MAX_DELIVERY_BYTES;
  const maxRetained = options.maxRetainedBytes ?? MAX_RETAINED_BYTES;
  const deliveries: ReceivedDelivery[] = [];
  let retained = 0;
  /** Deliveries dropped because the receiver kept all it may. */
  let dropped = 0;
  const waiters = new Set<Waiter>();
  /** path → statuses still to answer there, in order. */
  const failures = new Map<string, number[]>();
  /** The case's path → the path handed out (a random segment before it), and back. */
  const handedOut = new Map<string, string>();
  const hookOf = new Map<string, string>();

  const server = createServer((req, res) => {
    const path = hookOf.get(req.url ?? "");
    if (path === undefined) return refuse(res, 404, "not a hook of this run");
    if (req.method !== "POST") return refuse(res, 405, "webhook deliveries are POSTs", { allow: "POST" });
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > maxBody) return refuse(res, 413, `larger than ${maxBody} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on("data", (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size <= maxBody) chunks.push(chunk);
      else {
        refused = true;
        chunks.length = 0;
        refuse(res, 413, `larger than ${maxBody} bytes`);
      }
    });
    req.on("end", () => {
      if (refused) return;
      const raw = Buffer.concat(chunks);
      if (retained + raw.length > maxRetained) {
        dropped++;
        res.writeHead(507, { "content-type": "text/plain" }).end(`the suite's receiver keeps at most ${maxRetained} bytes and is full`);
        return;
      }
      retained += raw.length;
      const queued = failures.get(path);
      const status = queued?.shift() ?? 200;
      if (queued?.length === 0) failures.delete(path);
      const delivery: ReceivedDelivery = {
        path,
        method: req.method ?? "POST",
        headers: lowerHeaders(req),
        raw,
        receivedAt: Date.now(),
        answered: status,
      };
      deliveries.push(delivery);
      for (const waiter of waiters) {
        if (waiter.match(delivery)) {
          waiters.delete(waiter);
          waiter.resolve(delivery);
        }
      }
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "received" : "failing on purpose (conformance retry case)");
    });
    req.on("error", () => res.destroy());
  });
  // Deliveries arrive on keep-alive connections; closing must not wait for the target to hang up.
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${hostForUrl(host)}:${port}`;

  return {
    url(path: string): string {
      const own = path.startsWith("/") ? path : `/${path}`;
      let served = handedOut.get(own);
      if (served === undefined) {
        served = `/${randomBytes(16).toString("base64url")}${own}`;
        handedOut.set(own, served);
        hookOf.set(served, own);
      }
      return origin + served;
    },
    waitFor(match, timeoutMs) {
      const already = deliveries.find(match);
      if (already) return Promise.resolve(already);
      return new Promise<ReceivedDelivery>((resolve, reject) => {
        const waiter: Waiter = {
          match,
          resolve: (d) => {
            clearTimeout(timer);
            resolve(d);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const full = dropped > 0 ? `; ${dropped} dropped, the receiver having kept its ${maxRetained} bytes` : "";
          reject(new CaseFailure(`no matching webhook delivery arrived within ${timeoutMs} ms`, { expected: "a matching delivery", actual: `${deliveries.length} deliveries received in all, none matching${full}` }));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    failNext(path, count = 1, status = 500) {
      failures.set(path, [...(failures.get(path) ?? []), ...Array.from({ length: count }, () => status)]);
    },
    received() {
      return deliveries;
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
