/**
 * The web app around the library clients of oauth-client-libraries.test.ts: a node:http server
 * with a session cookie (an in-memory map), `/login` and `/callback` given by the client, and
 * `/welcome` for a signed-in session. What a developer writes around an OAuth library; the
 * library does the OAuth. Every failure is a page ("Sign-in failed: …", 4xx), never a crash.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Session {
  state?: string;
  verifier?: string;
  login?: { scope: string };
}

export interface TestClient {
  startUrl: string;
  callbackUrl: string;
  close(): Promise<void>;
}

export type Route = (url: URL, session: Session, res: ServerResponse) => Promise<void>;

export function page(res: ServerResponse, status: number, title: string, text: string): void {
  const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(`<!doctype html><title>${escape(title)}</title><h1>${escape(title)}</h1><p>${escape(text)}</p>`);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location }).end();
}

/** Starts the app on a free loopback port; `routes(callbackUrl)` gives `/login` and `/callback`. */
export async function startWebApp(routes: (callbackUrl: string) => { login: Route; callback: Route }): Promise<TestClient> {
  const sessions = new Map<string, Session>();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const callbackUrl = `${base}/callback`;
  const { login, callback } = routes(callbackUrl);

  function session(req: IncomingMessage, res: ServerResponse): Session {
    const id = /(?:^|;\s*)sid=([A-Za-z0-9_-]+)/.exec(req.headers.cookie ?? "")?.[1];
    if (id && sessions.has(id)) return sessions.get(id)!;
    const fresh = randomBytes(18).toString("base64url");
    sessions.set(fresh, {});
    res.setHeader("set-cookie", `sid=${fresh}; HttpOnly; SameSite=Lax; Path=/`);
    return sessions.get(fresh)!;
  }

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", base);
    const s = session(req, res);
    const route = url.pathname === "/login" ? login : url.pathname === "/callback" ? callback : undefined;
    if (route) {
      route(url, s, res).catch((error: unknown) => page(res, 502, "Sign-in failed", (error as Error).message));
      return;
    }
    if (url.pathname === "/welcome" && s.login) return page(res, 200, "Signed in", `Signed in with the service (scopes: ${s.login.scope || "none"})`);
    if (url.pathname === "/welcome") return page(res, 401, "Not signed in", "sign in at /login");
    page(res, 404, "Not found", url.pathname);
  });
  return {
    startUrl: `${base}/login`,
    callbackUrl,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
