/**
 * The front door of `service-contract mock`: a plain HTTP forwarder on the user's port with Prism
 * behind it on a private one. It exists for the requests Prism cannot survive: Prism 5.14.2
 * decodes path parameters with `decodeURIComponent` and dies on its URIError when a path holds a
 * malformed `%` escape (`/repos/o/r%zz/events`), taking every later request with it. Such a path
 * never reaches Prism: as a proxy, it goes straight to the upstream (unvalidated, and reported as
 * unchecked); as a mock, it is answered the way the contract answers it, 400 in the error shape
 * (spec/DECISIONS.md, "A malformed `%` escape in the path"). Everything else is forwarded to Prism
 * byte for byte.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import { errorBody } from "../reference/http/errors.ts";

/** A path (the request target before `?`) that `decodeURIComponent` refuses. */
export function malformedPath(target: string): boolean {
  const path = target.split("?", 1)[0]!;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

const MALFORMED_BODY = JSON.stringify(errorBody("Bad Request"));

export interface FrontOptions {
  host: string;
  port: number;
  /** Prism's own address. */
  prism: string;
  /** The implementation behind the proxy; absent for the mock. */
  upstream?: string;
  /** Told of each request that went around Prism. */
  onUnchecked(request: string): void;
}

function forward(req: IncomingMessage, res: ServerResponse, base: string): void {
  const target = new URL(base);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  const prefix = target.pathname.replace(/\/$/, "");
  const headers = { ...req.headers };
  const out = send(
    { protocol: target.protocol, hostname: target.hostname, port: target.port, method: req.method, path: prefix + req.url, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    },
  );
  out.on("error", () => {
    if (res.headersSent) return void res.destroy();
    const body = JSON.stringify(errorBody("Bad Gateway"));
    res.writeHead(502, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
  req.pipe(out);
}

export async function startFront(options: FrontOptions): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (!malformedPath(url)) return forward(req, res, options.prism);
    options.onUnchecked(`${req.method} ${url}`);
    if (options.upstream) return forward(req, res, options.upstream);
    req.resume();
    res.writeHead(400, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(MALFORMED_BODY) });
    res.end(MALFORMED_BODY);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return { url: `http://${host}:${port}`, server };
}
