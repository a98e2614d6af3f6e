/**
 * The suite's built-in webhook receiver (conformance/core/receiver.ts): a plain `node:http`
 * server on `--receiver-host`, port 0, that keeps every delivery exactly as it arrived — raw body
 * bytes, lower-cased headers, the path — because the signature cases must check the HMAC over the
 * bytes the target sent, not over anything re-serialized. It answers 200 at once, so a slow or
 * failing receiver can never be the reason a delivery case fails — except where a case asks for a
 * failure (`failNext`: the next deliveries to one path answered 500) to see the target retry.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { ReceivedDelivery, Receiver } from "../core/receiver.ts";
import { CaseFailure } from "../core/failure.ts";

export interface ReceiverOptions {
  /** Address to bind, and the host in the URLs handed to the target. Default 127.0.0.1. */
  host?: string;
  port?: number;
  /** Largest body kept (bigger ones are cut off and answered 413). Default 30 MB. */
  maxBodyBytes?: number;
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

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const host = options.host ?? "127.0.0.1";
  const maxBody = options.maxBodyBytes ?? 30 * 1024 * 1024;
  const deliveries: ReceivedDelivery[] = [];
  const waiters = new Set<Waiter>();
  /** path → statuses still to answer there, in order. */
  const failures = new Map<string, number[]>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBody) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => {
      if (tooLarge) {
        res.writeHead(413, { "content-type": "text/plain" }).end("too large");
        return;
      }
      const path = req.url ?? "/";
      const queued = failures.get(path);
      const status = queued?.shift() ?? 200;
      if (queued?.length === 0) failures.delete(path);
      const delivery: ReceivedDelivery = {
        path,
        method: req.method ?? "POST",
        headers: lowerHeaders(req),
        raw: Buffer.concat(chunks),
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
      return origin + (path.startsWith("/") ? path : `/${path}`);
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
          reject(new CaseFailure(`no matching webhook delivery arrived within ${timeoutMs} ms`, { expected: "a matching delivery", actual: `${deliveries.length} deliveries received in all, none matching` }));
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
