/**
 * A small OAuth web-flow client, the kind `conformance --oauth-client` checks: a node:http app
 * that signs its users in with the service, built on the generated client (authorizeUrl,
 * checkState, exchangeCode). `/login` keeps a fresh state in a cookie session and sends the browser
 * to the authorize page (with `?format=json|form|xml`, the token answer format it asks for);
 * `/callback` aborts on an error or a state that is not the session's, exchanges the code (with
 * the same redirect_uri) and sends the user to `/welcome`. Every failure is a page of its own
 * ("Sign-in failed: …", 4xx), never a crash.
 *
 * `checkState: false` makes the sloppy variant the tests use to show the suite catches a client
 * that skips the seed's CSRF rule. Run it: `node --import tsx conformance/examples/oauth-client/client.ts`.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuthStateError, ServiceClient, TokenExchangeError, type TokenFormat } from "../../../generated/client/index.ts";

export interface ExampleClientOptions {
  /** The service's web host (authorize page, token exchange). */
  authUrl: string;
  apiUrl?: string;
  clientId: string;
  clientSecret: string;
  host?: string;
  /** 0: any free port. */
  port?: number;
  /** Check the callback's state (default true); false is the sloppy variant. */
  checkState?: boolean;
}

export interface ExampleClient {
  url: string;
  startUrl: string;
  callbackUrl: string;
  close(): Promise<void>;
}

interface Session {
  state?: string;
  format?: TokenFormat;
  login?: { scope: string };
}

const FORMATS: readonly TokenFormat[] = ["json", "form", "xml"];

function page(res: ServerResponse, status: number, title: string, text: string): void {
  const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(`<!doctype html><title>${escape(title)}</title><h1>${escape(title)}</h1><p>${escape(text)}</p>`);
}

export async function startExampleClient(options: ExampleClientOptions): Promise<ExampleClient> {
  const sessions = new Map<string, Session>();
  const service = new ServiceClient({ baseUrl: options.apiUrl ?? "http://127.0.0.1:9", authUrl: options.authUrl });
  let callbackUrl = "";

  function session(req: IncomingMessage, res: ServerResponse): Session {
    const id = /(?:^|;\s*)sid=([A-Za-z0-9_-]+)/.exec(req.headers.cookie ?? "")?.[1];
    if (id && sessions.has(id)) return sessions.get(id)!;
    const fresh = randomBytes(18).toString("base64url");
    sessions.set(fresh, {});
    res.setHeader("set-cookie", `sid=${fresh}; HttpOnly; SameSite=Lax; Path=/`);
    return sessions.get(fresh)!;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", callbackUrl);
    const s = session(req, res);
    if (url.pathname === "/login") {
      const format = (url.searchParams.get("format") ?? "json") as TokenFormat;
      if (!FORMATS.includes(format)) return page(res, 400, "Bad request", `format must be one of ${FORMATS.join(", ")}`);
      const { url: authorize, state } = service.authorizeUrl({ clientId: options.clientId, redirectUri: callbackUrl, scopes: ["user"] });
      Object.assign(s, { state, format, login: undefined });
      res.writeHead(302, { location: authorize }).end();
      return;
    }
    if (url.pathname === "/callback") {
      const expected = s.state;
      s.state = undefined; // one use
      const error = url.searchParams.get("error");
      if (error) return page(res, 400, "Sign-in failed", `${error}: ${url.searchParams.get("error_description") ?? ""}`);
      if (options.checkState !== false) {
        try {
          service.checkState(expected, url.searchParams.get("state"));
        } catch (e) {
          if (e instanceof OAuthStateError) return page(res, 403, "Sign-in failed", "the state does not match: this sign-in was not started here");
          throw e;
        }
      }
      const code = url.searchParams.get("code");
      if (!code) return page(res, 400, "Sign-in failed", "the callback has no code");
      try {
        const token = await service.exchangeCode({ clientId: options.clientId, clientSecret: options.clientSecret, code, redirectUri: callbackUrl, format: s.format ?? "json" });
        s.login = { scope: token.scope };
      } catch (e) {
        if (e instanceof TokenExchangeError) return page(res, 401, "Sign-in failed", `${e.error}: ${e.message}`);
        throw e;
      }
      res.writeHead(302, { location: "/welcome" }).end();
      return;
    }
    if (url.pathname === "/welcome") {
      if (!s.login) return page(res, 401, "Not signed in", "sign in at /login");
      return page(res, 200, "Signed in", `Signed in with the service (scopes: ${s.login.scope || "none"})`);
    }
    page(res, 404, "Not found", url.pathname);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => page(res, 502, "Sign-in failed", `the service could not be reached: ${(error as Error).message}`));
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const base = `http://${host}:${(server.address() as AddressInfo).port}`;
  callbackUrl = `${base}/callback`;
  return {
    url: base,
    startUrl: `${base}/login`,
    callbackUrl,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// `node --import tsx conformance/examples/oauth-client/client.ts`: the client of
// conformance/examples/oauth-client/profile.yaml, on 127.0.0.1:8090 against a web host on :3091.
if (import.meta.url === `file://${process.argv[1]}`) {
  const client = await startExampleClient({
    authUrl: process.env.AUTH_URL ?? "http://127.0.0.1:3091",
    clientId: process.env.CLIENT_ID ?? "example-client-id",
    clientSecret: process.env.CLIENT_SECRET ?? "example-client-secret-keep-it-private",
    port: Number(process.env.PORT ?? 8090),
  });
  process.stdout.write(`Example OAuth client: sign in at ${client.startUrl}\n`);
}
