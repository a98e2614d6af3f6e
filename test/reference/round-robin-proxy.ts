/**
 * A load balancer in a few lines of node:http: each request goes to the next upstream in turn
 * (per request, not per connection, so two polls on one keep-alive connection land on different
 * instances), forwarded as it came — method, path, headers with the client's `Host`, body — plus
 * the client's address appended to `X-Forwarded-For`, as load balancers do; the answer is passed
 * back as it came, with `X-Served-By: <upstream index>` added so a test
 * can tell which instance answered. For the multi-instance tests and the feeds bench.
 */
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const SERVED_BY = "x-served-by";

export interface RoundRobinProxy {
  /** Where it listens, e.g. http://127.0.0.1:41234 (set by listen()). */
  url: string;
  /** The upstream origins, answered in turn; may be set after listen(). */
  upstreams: string[];
  listen(): Promise<string>;
  close(): Promise<void>;
}

export function roundRobinProxy(upstreams: string[] = []): RoundRobinProxy {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  let server: Server | undefined;
  const proxy: RoundRobinProxy = {
    url: "",
    upstreams,
    async listen() {
      server = createServer((req: IncomingMessage, res: ServerResponse) => {
        const index = next++ % proxy.upstreams.length;
        const target = new URL(req.url ?? "/", proxy.upstreams[index]);
        const before = req.headers["x-forwarded-for"];
        const headers = { ...req.headers, "x-forwarded-for": [before, req.socket.remoteAddress].filter(Boolean).join(", ") };
        const forward = request(target, { method: req.method, headers, agent }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, { ...answer.headers, [SERVED_BY]: String(index) });
          answer.pipe(res);
        });
        forward.on("error", () => {
          if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
          res.end("bad gateway");
        });
        req.pipe(forward);
      });
      // Idle client connections stay open longer than a client keeps them (undici: the server's
      // Keep-Alive hint less a second). With node's default of 5 s, a busy machine's late timers
      // let the suite reuse a connection the proxy was closing: "fetch failed" (seen at load 15).
      server.keepAliveTimeout = 65_000;
      server.headersTimeout = 66_000;
      await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
      proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return proxy.url;
    },
    async close() {
      agent.destroy();
      if (!server) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
  };
  return proxy;
}
