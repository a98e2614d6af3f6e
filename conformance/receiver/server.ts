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
 * reading stops. What it keeps in all is capped too (`maxRetainedBytes`, headers counted with
 * bodies, and `maxDeliveries`): past that, deliveries are answered 507 and dropped, and a case
 * waiting for one is told why. A target given the receiver's URL may also flood it (issue 41:
 * 60,000 empty POSTs with 15 KB of headers each once took it to 1 GB), so the headers of one
 * request are bounded (`maxHeaderBytes`, 431 from node:http past it) and so is the number of
 * requests a run answers at all (`maxRequests`, 429 unread past it); `excess()` says what was
 * refused, for the run's report.
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
/** One request's header bytes: a delivery's dozen headers take under 2 KB; 8 KiB leaves room for a proxy's. */
export const MAX_HEADER_BYTES = 8 * 1024;
/** Deliveries kept per run: a whole run of the suite's cases receives a few hundred. */
export const MAX_DELIVERIES = 2_000;
/** Requests answered per run, refused ones included: ten times the deliveries kept. */
export const MAX_REQUESTS = 20_000;

export interface ReceiverOptions {
  /** Address to bind, and the host in the URLs handed to the target. Default 127.0.0.1. */
  host?: string;
  port?: number;
  /** Largest body accepted (bigger ones are answered 413, unread past the limit). Default 25 MiB. */
  maxBodyBytes?: number;
  /** Body and header bytes kept in all; deliveries past it are answered 507 and dropped. Default 125 MiB. */
  maxRetainedBytes?: number;
  /** One request's header bytes; past it node:http answers 431 and closes. Default 8 KiB. */
  maxHeaderBytes?: number;
  /** Deliveries kept; past it they are answered 507 and dropped. Default 2,000. */
  maxDeliveries?: number;
  /** Requests answered in all; past it every request is answered 429, unread. Default 20,000. */
  maxRequests?: number;
}

/** What a request's headers cost to keep: names, values and the `: ` and CRLF of each line. */
function headerBytes(req: IncomingMessage): number {
  let n = 0;
  for (const part of req.rawHeaders) n += Buffer.byteLength(part) + 2;
  return n;
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

/** The report's words for what the receiver refused, or undefined when it refused nothing. */
function excessNote(dropped: number, refused: number, full: string, maxRequests: number): string | undefined {
  if (dropped === 0 && refused === 0) return undefined;
  const parts = [];
  if (dropped > 0) parts.push(`${dropped} deliveries answered 507 and dropped, the receiver having kept ${full}`);
  if (refused > 0) parts.push(`${refused} requests answered 429 unread, past the ${maxRequests} a run answers`);
  return `the target sent the suite's webhook receiver more than the run asked for: ${parts.join("; ")}`;
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const host = options.host ?? "127.0.0.1";
  const maxBody = options.maxBodyBytes ?? MAX_DELIVERY_BYTES;
  const maxRetained = options.maxRetainedBytes ?? MAX_RETAINED_BYTES;
  const maxDeliveries = options.maxDeliveries ?? MAX_DELIVERIES;
  const maxRequests = options.maxRequests ?? MAX_REQUESTS;
  const deliveries: ReceivedDelivery[] = [];
  let retained = 0;
  /** Deliveries dropped because the receiver kept all it may. */
  let dropped = 0;
  /** Requests answered so far, and those answered 429 past maxRequests. */
  let requests = 0;
  let refusedRequests = 0;
  /** Why the receiver was full: bytes or deliveries, for the messages. */
  const fullness = () => `its ${maxRetained} bytes or ${maxDeliveries} deliveries`;
  const waiters = new Set<Waiter>();
  /** path → statuses still to answer there, in order. */
  const failures = new Map<string, number[]>();
  /** The case's path → the path handed out (a random segment before it), and back. */
  const handedOut = new Map<string, string>();
  const hookOf = new Map<string, string>();

  const server = createServer({ maxHeaderSize: options.maxHeaderBytes ?? MAX_HEADER_BYTES }, (req, res) => {
    requests++;
    if (requests > maxRequests) {
      refusedRequests++;
      return refuse(res, 429, `the suite's receiver answers at most ${maxRequests} requests in a run`);
    }
    const path = hookOf.get(req.url ?? "");
    if (path === undefined) return refuse(res, 404, "not a hook of this run");
    if (req.method !== "POST") return refuse(res, 405, "webhook deliveries are POSTs", { allow: "POST" });
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > maxBody) return refuse(res, 413, `larger than ${maxBody} bytes`);
    const headerCost = headerBytes(req);
    // Full already: answered before the body is read, which the hang-up leaves unread.
    if (deliveries.length >= maxDeliveries || retained + headerCost + declared > maxRetained) {
      dropped++;
      return refuse(res, 507, `the suite's receiver keeps at most ${fullness()} and is full`);
    }
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
      if (deliveries.length >= maxDeliveries || retained + headerCost + raw.length > maxRetained) {
        dropped++;
        res.writeHead(507, { "content-type": "text/plain" }).end(`the suite's receiver keeps at most ${fullness()} and is full`);
        return;
      }
      retained += headerCost + raw.length;
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
          const full = dropped > 0 ? `; ${dropped} dropped, the receiver having kept ${fullness()}` : "";
          const flood = refusedRequests > 0 ? `; ${refusedRequests} more requests answered 429, past the ${maxRequests} a run answers` : "";
          reject(new CaseFailure(`no matching webhook delivery arrived within ${timeoutMs} ms`, { expected: "a matching delivery", actual: `${deliveries.length} deliveries received in all, none matching${full}${flood}` }));
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
    excess() {
      return { dropped, refused: refusedRequests, note: excessNote(dropped, refusedRequests, fullness(), maxRequests) };
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
