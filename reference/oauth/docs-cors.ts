/**
 * CORS on the web host for one caller: the API reference page on the API host (`/docs`), whose
 * "Try it out" calls the web host's operations (the token exchange, the authorize and review
 * pages) from another origin. Without it the browser's preflight got a 404 and the page said
 * "Failed to fetch".
 *
 * Only the API host's origins (its public URL and where it listens) are allowed, only on the
 * web host's operations in the contract, and never with credentials: no
 * `Access-Control-Allow-Credentials`, so the browser sends no cookies along and a page cannot act
 * in a signed-in user's session (the sign-in and consent forms keep their own Origin and CSRF
 * checks). Any other origin gets no CORS headers, and the browser keeps the answer from it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** The web host's operations in the contract (spec/openapi.yaml, servers `{auth_url}`). */
const WEB_HOST_OPERATIONS = [/^\/login\/oauth\/access_token$/, /^\/login\/oauth\/authorize$/, /^\/settings\/connections\/applications\/[^/]+$/];

/** Request headers the page sends: the CORS-safelisted ones may still need listing when their values are not. */
const ALLOWED_HEADERS = ["accept", "content-type"];
/** The token exchange also takes the client's credentials in `Authorization: Basic` (D-OAUTH-CLIENT-BASIC). */
const TOKEN_PATH = "/login/oauth/access_token";

const PREFLIGHT_MAX_AGE_SECONDS = 600;

function allowedOrigin(request: FastifyRequest, origins: () => string[]): string | undefined {
  const origin = request.headers.origin;
  if (typeof origin !== "string") return undefined;
  const path = request.url.split("?")[0]!;
  if (!WEB_HOST_OPERATIONS.some((p) => p.test(path))) return undefined;
  return origins().includes(origin) ? origin : undefined;
}

function appendVary(reply: FastifyReply, value: string): void {
  const current = reply.getHeader("vary");
  const list = typeof current === "string" && current !== "" ? current.split(",").map((v) => v.trim()) : [];
  if (!list.some((v) => v.toLowerCase() === value.toLowerCase())) list.push(value);
  reply.header("vary", list.join(", "));
}

/** `origins` is read on each request: the API host's address is known only once it listens. */
export function installDocsCors(app: FastifyInstance, origins: () => string[]): void {
  // A preflight is answered before routing: the web host has no OPTIONS routes of its own.
  app.addHook("onRequest", async (request, reply) => {
    if (request.method !== "OPTIONS" || request.headers["access-control-request-method"] === undefined) return;
    const origin = allowedOrigin(request, origins);
    if (!origin) return;
    const requested = String(request.headers["access-control-request-headers"] ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter((h) => ALLOWED_HEADERS.includes(h) || (h === "authorization" && request.url.split("?")[0] === TOKEN_PATH));
    appendVary(reply, "Origin");
    reply
      .code(204)
      .header("access-control-allow-origin", origin)
      .header("access-control-allow-methods", "GET, POST")
      .header("access-control-max-age", String(PREFLIGHT_MAX_AGE_SECONDS));
    if (requested.length > 0) reply.header("access-control-allow-headers", requested.join(", "));
    return reply.send();
  });
  app.addHook("onSend", async (request, reply, payload) => {
    if (request.method === "OPTIONS") return payload;
    const origin = allowedOrigin(request, origins);
    if (origin) {
      reply.header("access-control-allow-origin", origin);
      appendVary(reply, "Origin");
    }
    return payload;
  });
}
