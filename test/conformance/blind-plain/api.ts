// api.ts — the API host pipeline: identity, rate limit (429 + Retry-After), routing, scope headers, weak ETags
// with If-None-Match → 304 (not counted), and the mapping of thrown errors to replies.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { registerAuthorizations } from "./authorizations.ts";
import { tokenScopes, type ApiCtx, type World } from "./ctx.ts";
import { registerFeeds } from "./feeds.ts";
import { testEndpoint } from "./happen.ts";
import { registerHooks } from "./hooks.ts";
import { errReply, fail, HttpError, writeReply, type Headers, type Reply } from "./http.ts";
import { resolveIdentity, type Identity } from "./identity.ts";
import { registerIssueEvents } from "./issue-events.ts";
import { registerMisc } from "./misc.ts";
import { Router } from "./router.ts";
import { parseJsonObject, readBody, type JsonObject } from "./util.ts";

export const LIMITS = { authenticated: 5000, anonymous: 60 } as const;

export function apiRouter(): Router<ApiCtx> {
  const r = new Router<ApiCtx>();
  registerFeeds(r);
  registerIssueEvents(r);
  registerHooks(r);
  registerAuthorizations(r);
  registerMisc(r);
  return r;
}

/** Weak comparison of an If-None-Match header against our ETag. */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string): string => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => t.trim() === "*" || bare(t) === bare(etag));
}

function jsonBody(req: IncomingMessage): () => Promise<JsonObject> {
  let cached: Promise<JsonObject> | undefined;
  return () => (cached ??= readBody(req).then((buf) => {
    if (!buf) throw fail(400, "invalid_body", "Body too large or unreadable");
    const parsed = parseJsonObject(buf);
    if (!parsed.ok) throw fail(400, "invalid_json", parsed.message);
    return parsed.value;
  }));
}

async function serve(w: World, router: Router<ApiCtx>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const head = req.method === "HEAD";
  const method = head ? "GET" : req.method ?? "GET";
  const raw = req.url ?? "/";
  let url: URL;
  try {
    if (!raw.startsWith("/") || raw.startsWith("//")) throw new Error("bad target");
    url = new URL(w.api + raw);
  } catch {
    req.resume();
    writeReply(res, errReply(400, "bad_request", "Malformed request target"), head);
    return;
  }
  if (url.pathname.startsWith("/__test__/")) { writeReply(res, await testEndpoint(w, req, url)); return; }

  const who = resolveIdentity(w.store, req, url);
  const id: Identity = who.kind === "fail" ? { kind: "anon" } : who;
  const [key, limit] = id.kind === "user" ? [`user:${id.user.login}`, LIMITS.authenticated]
    : id.kind === "app" ? [`app:${id.app.clientId}`, LIMITS.authenticated]
    : [`ip:${req.socket.remoteAddress ?? "unknown"}`, LIMITS.anonymous];
  const bucket = w.limiter.bucket(key, limit);
  const rate = (): Headers => ({
    "X-RateLimit-Limit": String(limit), "X-RateLimit-Remaining": String(Math.max(0, limit - bucket.used)), "X-RateLimit-Reset": String(bucket.reset),
  });

  if (method === "GET" && url.pathname === "/rate_limit" && who.kind !== "fail") {
    const core = { limit, remaining: Math.max(0, limit - bucket.used), reset: bucket.reset };
    writeReply(res, { status: 200, body: { resources: { core }, rate: core }, headers: rate() }, head);
    return;
  }
  if (bucket.used >= limit) {
    req.resume();
    const retry = Math.max(1, bucket.reset - Math.floor(Date.now() / 1000));
    const who429 = id.kind === "anon" ? `address ${req.socket.remoteAddress ?? ""}` : key;
    writeReply(res, errReply(429, "rate_limit_exceeded", `API rate limit exceeded for ${who429}.`, { ...rate(), "Retry-After": String(retry) }), head);
    return;
  }

  const c: ApiCtx = { w, req, url, q: url.searchParams, id, accepted: [], json: jsonBody(req) };
  let reply: Reply;
  if (who.kind === "fail") {
    reply = errReply(401, who.code, who.message, who.otp ? { "X-Service-OTP": "required; app" } : {});
  } else {
    const m = router.match(method, url.pathname);
    try {
      reply = m ? await m.handler(c, m.params) : errReply(404, "not_found", "Not Found");
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      reply = e.reply;
    }
  }
  req.resume();

  const headers: Headers = { ...reply.headers, "X-Accepted-OAuth-Scopes": c.accepted.join(", ") };
  const scopes = tokenScopes(c);
  if (scopes) headers["X-OAuth-Scopes"] = scopes.join(", ");
  if (method === "GET" && reply.status === 200 && reply.body !== undefined) {
    const etag = `W/"${createHash("sha1").update(JSON.stringify(reply.body)).digest("hex")}"`;
    headers.ETag = etag;
    headers["Cache-Control"] = c.id.kind === "anon" ? "public, max-age=60, s-maxage=60" : "private, max-age=60, s-maxage=60";
    headers.Vary = "Accept, Authorization, Cookie";
    if (etagMatches(req.headers["if-none-match"], etag)) {
      writeReply(res, { status: 304, headers: { ...headers, ...rate() } }, head);
      return;
    }
  }
  bucket.used++;
  writeReply(res, { ...reply, headers: { ...headers, ...rate() } }, head);
}

export function apiListener(w: World, router: Router<ApiCtx>): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    serve(w, router, req, res).catch(() => {
      if (!res.headersSent) writeReply(res, errReply(500, "internal_error", "Internal server error"));
      else res.destroy();
    });
  };
}
