/**
 * The authorization server of the OAuth client suite: the reference server (in-memory database,
 * demo seed) with the client's application registered, its web host behind a small recording
 * proxy at the profile's `authUrl`. The proxy is how the suite sees the client's back channel —
 * each token request's Accept header and fields (redirect_uri, code_verifier) and the answer the
 * client got (token-relay.ts) — which no browser shows; the reference is unchanged and advertises
 * the proxy's address as its web host.
 *
 * What the suite steers goes through the reference's own facilities, not fault switches: its
 * clock (`startServer({ now })`) to let a code expire, its store to revoke the user's grant so
 * every sign-in shows the consent page (as the review page's revoke button does), and the
 * browser (conformance/consumers/oauth-client/browser.ts) for everything on the front channel.
 *
 * The proxy listens on a local port any process can reach, so it forwards only what a browser or
 * client sends its own web host — origin-form requests, to its one upstream — and refuses the rest
 * (absolute-form and CONNECT: it is no forward proxy), with bodies limited to a megabyte.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import type { RunningServer } from "../../../reference/server.ts";
import type { ClientProfile } from "./profile.ts";
import { clientIdOf, relayToken, type RelayOptions, type TokenRequest } from "./token-relay.ts";

export type { TokenAnswer, TokenRequest } from "./token-relay.ts";

/** The demo user the suite signs in as (reference/seed/README.md). */
export const SIGN_IN = { login: "octocat", password: "octocat-demo-password" };

export interface AuthorizationServer {
  urls: { api: string; auth: string };
  /** Token requests the client made, oldest first. */
  tokenRequests: TokenRequest[];
  /** Moves the reference's clock forward (codes expire after reference/store/codes.ts CODE_LIFETIME_MS). */
  advanceClock(ms: number): void;
  /** Registers the profile's application (callback URL, credentials) unless it already is. */
  register(profile: ClientProfile): Promise<void>;
  /** Forgets octocat's grant to the client's app, so the next sign-in asks for consent again. */
  revokeGrant(profile: ClientProfile): Promise<void>;
  /**
   * Spends `code` before the client can: the client's token request for it is held, a copy of it
   * (the client's credentials and code_verifier) is sent first, and the client's own then presents
   * a used code. The copy's answer is the request's `spentFirst`.
   */
  spendBeforeClient(code: string): void;
  /** Whether the contract's authorize operation takes PKCE (code_challenge). */
  supportsPkce: boolean;
  close(): Promise<void>;
}

function fieldsOf(contentType: string, body: string): Record<string, string> {
  if (contentType.includes("json")) {
    try {
      const value = JSON.parse(body) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(body));
}

/** The largest request body the proxy takes: sign-in forms and token requests are a few hundred bytes. */
export const MAX_PROXY_BODY_BYTES = 1024 * 1024;

/** The body, or undefined once it passed `limit` (reading stops there). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
      else {
        chunks.length = 0;
        req.pause();
        resolve(undefined);
      }
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Answers and hangs up: the rest of the request is not read. */
function refuse(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.shouldKeepAlive = false;
  res.writeHead(status, { "content-type": "text/plain", connection: "close", ...headers }).end(text);
  res.once("finish", () => res.req.socket.destroySoon());
}

/**
 * The upstream URL for an origin-form request target (`/path?query`), or undefined for anything
 * else: absolute-form (`http://other-host/`, what a forward proxy is asked), authority-form,
 * `*`, or a path that would resolve elsewhere (`//other-host/`). The proxy is no forward proxy.
 */
export function upstreamUrl(target: string | undefined, upstream: string): URL | undefined {
  if (!target || !target.startsWith("/") || target.startsWith("//")) return undefined;
  try {
    const url = new URL(upstream + target);
    return url.origin === new URL(upstream).origin ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Token errors keep the reference's status, and no code is spent first, unless `relay` says otherwise. */
const PLAIN_RELAY: RelayOptions = { errorStatus: () => 200, spendFirst: () => false };

/** Forwards origin-form requests to `upstream` byte for byte, but token requests through token-relay.ts (recorded with their answers). */
export function recordingProxy(upstreamOf: () => string, tokenRequests: TokenRequest[], relay: RelayOptions = PLAIN_RELAY): Server {
  const server = createServer((req, res) => {
    void (async () => {
      const upstream = upstreamOf();
      const target = upstreamUrl(req.url, upstream);
      if (!target) return refuse(res, 400, "the suite's authorization server takes origin-form requests (/path) for itself only: it is no proxy");
      if (Number(req.headers["content-length"] ?? 0) > MAX_PROXY_BODY_BYTES) return refuse(res, 413, `request bodies are limited to ${MAX_PROXY_BODY_BYTES} bytes`);
      const body = await readBody(req, MAX_PROXY_BODY_BYTES);
      if (!body) return refuse(res, 413, `request bodies are limited to ${MAX_PROXY_BODY_BYTES} bytes`);
      const headers = { ...req.headers };
      delete headers.host;
      delete headers.connection;
      if (req.method === "POST" && target.pathname === "/login/oauth/access_token") {
        const contentType = String(req.headers["content-type"] ?? "");
        const fields = fieldsOf(contentType, body.toString("utf8"));
        const record: TokenRequest = { at: Date.now(), accept: String(req.headers.accept ?? ""), contentType, fields, clientId: clientIdOf(req.headers, fields) };
        tokenRequests.push(record);
        const relayed = await relayToken(target, headers, body, record, relay);
        res.writeHead(relayed.status, relayed.headers).end(relayed.body);
        return;
      }
      const answer = await request(target, { method: req.method as "GET", headers, body: body.length > 0 ? body : undefined });
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !["connection", "keep-alive", "transfer-encoding"].includes(k)) out[k] = v;
      res.writeHead(answer.statusCode, out);
      for await (const chunk of answer.body) res.write(chunk);
      res.end();
    })().catch(() => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end("the suite's proxy could not reach the reference web host");
      else res.destroy();
    });
  });
  // CONNECT (a tunnel to anywhere) is answered, not opened.
  server.on("connect", (_req: IncomingMessage, socket: Duplex) => {
    socket.on("error", () => undefined);
    socket.end("HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, POST\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  });
  return server;
}

function listen(server: Server, url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(Number(port), hostname.replace(/^\[|\]$/g, ""), () => resolve());
  });
}

/** The contract's authorize operation takes `code_challenge` (PKCE, RFC 7636): the reference follows its contract. */
async function contractHasPkce(): Promise<boolean> {
  const { operationTable } = await import("../../../generated/client/operations.ts");
  return Object.values(operationTable).some((op) => op.host === "auth" && op.path === "/login/oauth/authorize" && (op.queryParams as readonly string[]).includes("code_challenge"));
}

export async function startAuthorizationServer(profile: ClientProfile): Promise<AuthorizationServer> {
  const [{ startServer }, { createApplication, findApplication }, { findAccountByLogin }, { revokeGrant }] = await Promise.all([
    import("../../../reference/server.ts"),
    import("../../../reference/store/applications.ts"),
    import("../../../reference/store/accounts.ts"),
    import("../../../reference/store/authorizations.ts"),
  ]);
  let offset = 0;
  const tokenRequests: TokenRequest[] = [];
  // Until the reference is up, the proxy points nowhere (nothing is sent before then).
  let upstream = "http://127.0.0.1:1";
  // Per client (several profiles may share the server): the status its token errors get.
  const errorStatus = new Map<string, number>([[profile.clientId, profile.tokenErrorStatus ?? 200]]);
  const spend = new Set<string>();
  const proxy = recordingProxy(() => upstream, tokenRequests, {
    errorStatus: (clientId) => (clientId !== undefined ? errorStatus.get(clientId) : undefined) ?? profile.tokenErrorStatus ?? 200,
    spendFirst: (code) => code !== undefined && spend.delete(code),
  });
  // The proxy listens first: the profile's address must be free before anything else starts.
  await listen(proxy, profile.authUrl).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`the authorization server cannot listen on ${profile.authUrl}: ${error.code ?? error.message}`);
  });
  const authUrl = profile.authUrl.replace(/\/+$/, "");
  let server: RunningServer;
  try {
    server = await startServer({
      port: profile.apiUrl ? Number(new URL(profile.apiUrl).port) : 0,
      authPort: 0,
      seed: "demo",
      history: false,
      deliveries: { enabled: false },
      publicUrls: { auth: authUrl, ...(profile.apiUrl ? { api: profile.apiUrl.replace(/\/+$/, "") } : {}) },
      now: () => new Date(Date.now() + offset),
    });
  } catch (error) {
    await new Promise((resolve) => proxy.close(resolve));
    throw error;
  }
  upstream = `http://127.0.0.1:${(server.auth.server.address() as AddressInfo).port}`;

  const owner = (await findAccountByLogin(server.db, SIGN_IN.login))!;
  const apps = new Map<string, number>();
  async function register(p: ClientProfile): Promise<void> {
    errorStatus.set(p.clientId, p.tokenErrorStatus ?? 200);
    if (apps.has(p.clientId)) return;
    if (await findApplication(server.db, p.clientId)) throw new Error(`the profile's clientId ${p.clientId} is one of the demo seed's applications: choose another`);
    const app = await createApplication(server.db, { clientId: p.clientId, clientSecret: p.clientSecret, name: "Client under test", url: new URL(p.startUrl).origin, callbackUrl: p.callbackUrl, ownerId: owner.id });
    apps.set(p.clientId, Number(app.id));
  }
  try {
    await register(profile);
  } catch (error) {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
    await server.close();
    throw error;
  }
  const supportsPkce = await contractHasPkce();

  return {
    urls: { api: server.urls.api, auth: authUrl },
    tokenRequests,
    supportsPkce,
    advanceClock(ms) {
      offset += ms;
    },
    register,
    async revokeGrant(p) {
      const appId = apps.get(p.clientId);
      if (appId !== undefined) await revokeGrant(server.db, owner.id, appId);
    },
    spendBeforeClient(code) {
      spend.add(code);
    },
    async close() {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await server.close();
    },
  };
}
