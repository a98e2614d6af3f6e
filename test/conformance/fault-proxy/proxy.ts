/**
 * A fault-injecting HTTP proxy for proving the conformance suite: it stands in front of a correct
 * server (the reference), passes every exchange through unchanged, and lets one `Fault` break one
 * rule on the wire — a request rewritten before it reaches the server, a response (status,
 * headers, body, a redirect's Location) rewritten before it reaches the suite, or a webhook
 * delivery changed, dropped or re-sent on its way to the suite's receiver. Deliveries pass
 * through because the proxy rewrites the `config.url` of every hook the suite creates to a
 * forwarder of its own (and rewrites it back in every answer, so the suite sees its own URL).
 * Defects live here, in the test tree, never as switches in the product.
 */
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";

export type Side = "api" | "auth";
export type Headers = Record<string, string | string[]>;

/** One request as the proxy forwards it; a fault may change any field. */
export interface Exchange {
  method: string;
  /** Path and query. */
  url: string;
  headers: Headers;
  body: Buffer;
}

/** One answer as the proxy returns it; a fault may change any field. */
export interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface Fault {
  /** Before the exchange goes to the server; returning an Answer answers it without the server. */
  request?(side: Side, req: Exchange): Answer | void;
  response?(side: Side, req: Exchange, res: Answer): void;
  /** A webhook delivery on its way to the suite's receiver: changed in place, or "drop" (the server is told 200). */
  delivery?(d: Exchange): "drop" | void;
}

export interface FaultProxy {
  apiUrl: string;
  authUrl: string;
  close(): Promise<void>;
}

const HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "host", "upgrade", "proxy-connection", "te", "trailer"]);

function cleanHeaders(headers: Record<string, string | string[] | undefined>): Headers {
  const out: Headers = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP.has(name.toLowerCase())) out[name.toLowerCase()] = value;
  return out;
}

export function header(h: Headers, name: string): string | undefined {
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? v.join(", ") : v;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function send(target: string, ex: Exchange): Promise<Answer> {
  const res = await request(target, {
    method: ex.method as never,
    headers: ex.body.length > 0 || !["GET", "HEAD"].includes(ex.method) ? { ...ex.headers, "content-length": String(ex.body.length) } : ex.headers,
    body: ["GET", "HEAD"].includes(ex.method) ? undefined : ex.body,
  });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: cleanHeaders(res.headers), body };
}

function reply(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { ...answer.headers, "content-length": String(answer.body.length) });
  res.end(answer.body);
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const HOOK_WRITE = /\/hooks(\/\d+)?$/;

export async function startFaultProxy(upstream: { api: string; auth: string }, fault: Fault = {}): Promise<FaultProxy> {
  const servers: Server[] = [];
  const forwarder = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const target = Buffer.from((req.url ?? "/").slice(1), "base64url").toString("utf8");
      const d: Exchange = { method: req.method ?? "POST", url: target, headers: cleanHeaders(req.headers), body };
      disguise(d);
      if (fault.delivery?.(d) === "drop") return reply(res, { status: 200, headers: { "content-type": "text/plain" }, body: Buffer.from("dropped") });
      reply(res, await send(d.url, d));
    })().catch(() => res.destroy());
  });
  servers.push(forwarder);
  const forwardOrigin = await listen(forwarder);
  const toForwarder = (url: string) => `${forwardOrigin}/${Buffer.from(url, "utf8").toString("base64url")}`;
  const fromForwarder = new RegExp(`${forwardOrigin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/([A-Za-z0-9_-]+)`, "g");

  /** Receiver URL → the hook's secret, as the suite configured it: the forwarder signs again what it rewrites. */
  const secrets = new Map<string, string>();

  /**
   * A delivery as the server would have sent it had the suite's URL been configured: the
   * forwarder's and the server's origins in the payload become the suite's and the proxy's, and
   * the signatures are computed again over the bytes now sent (unchanged bytes keep theirs).
   */
  function disguise(d: Exchange): void {
    const text = d.body.toString("utf8");
    const form = (header(d.headers, "content-type") ?? "").startsWith("application/x-www-form-urlencoded");
    const json = form ? new URLSearchParams(text).get("payload") : text;
    if (json === null || ![upstream.api, upstream.auth, forwardOrigin].some((o) => json.includes(o))) return;
    const rewritten = ownUrls(json);
    d.body = Buffer.from(form ? new URLSearchParams({ payload: rewritten }).toString() : rewritten);
    const secret = secrets.get(d.url);
    if (secret === undefined) return;
    if (header(d.headers, "x-hub-signature")) d.headers["x-hub-signature"] = `sha1=${createHmac("sha1", secret).update(d.body).digest("hex")}`;
    if (header(d.headers, "x-hub-signature-256")) d.headers["x-hub-signature-256"] = `sha256=${createHmac("sha256", secret).update(d.body).digest("hex")}`;
  }

  /** The hooks the suite creates deliver to the forwarder, which passes deliveries on to the suite's URL. */
  function redirectHooks(ex: Exchange): void {
    const path = ex.url.split("?")[0]!;
    if (!["POST", "PATCH"].includes(ex.method) || !HOOK_WRITE.test(path) || ex.body.length === 0) return;
    try {
      const json = JSON.parse(ex.body.toString("utf8")) as { config?: { url?: unknown } };
      if (typeof json.config?.url !== "string" || !/^https?:\/\//.test(json.config.url)) return;
      const config = json.config as { url: string; secret?: unknown };
      if (typeof config.secret === "string" && config.secret !== "") secrets.set(config.url, config.secret);
      else if (config.secret === "" || (ex.method === "POST" && config.secret === undefined)) secrets.delete(config.url);
      json.config.url = toForwarder(json.config.url);
      ex.body = Buffer.from(JSON.stringify(json));
    } catch {
      // not JSON: the server answers it as it is
    }
  }

  function handler(side: Side, origin: string) {
    return (req: IncomingMessage, res: ServerResponse) => {
      void (async () => {
        const ex: Exchange = { method: req.method ?? "GET", url: req.url ?? "/", headers: cleanHeaders(req.headers), body: await readBody(req) };
        if (side === "api") redirectHooks(ex);
        // The server's pages check that a form post comes from their own origin.
        for (const name of ["origin", "referer"]) {
          const value = header(ex.headers, name);
          if (value !== undefined) ex.headers[name] = value.replaceAll(apiUrl, upstream.api).replaceAll(authUrl, upstream.auth);
        }
        const early = fault.request?.(side, ex);
        const answer = early ?? (await send(origin + ex.url, ex));
        answer.body = rewrite(answer.body);
        for (const [name, value] of Object.entries(answer.headers)) answer.headers[name] = Array.isArray(value) ? value.map(ownUrls) : ownUrls(value);
        fault.response?.(side, ex, answer);
        reply(res, answer);
      })().catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
        res.end(`fault proxy: ${String(error)}`);
      });
    };
  }

  const api = createServer(handler("api", upstream.api));
  const auth = createServer(handler("auth", upstream.auth));
  servers.push(api, auth);
  const [apiUrl, authUrl] = await Promise.all([listen(api), listen(auth)]);

  /**
   * What the suite reads names the proxy, never the server behind it: the server's origins (in
   * Link, Location, URLs in bodies and pages) become the proxy's, and forwarder URLs become the
   * suite's own receiver URLs again.
   */
  function ownUrls(text: string): string {
    return text
      .replaceAll(upstream.api, apiUrl)
      .replaceAll(upstream.auth, authUrl)
      .replace(fromForwarder, (_, b64: string) => Buffer.from(b64, "base64url").toString("utf8"));
  }
  function rewrite(body: Buffer): Buffer {
    if (![upstream.api, upstream.auth, forwardOrigin].some((o) => body.includes(o))) return body;
    return Buffer.from(ownUrls(body.toString("utf8")));
  }
  return {
    apiUrl,
    authUrl,
    close: () =>
      Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      ).then(() => undefined),
  };
}
