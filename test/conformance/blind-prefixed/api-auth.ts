// api-auth.ts — API request pipeline: credentials (token, ?access_token, Basic incl. OTP), rate limiting,
// ETag/304, scope headers and problem+json error mapping.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, sendProblem } from "./problem.ts";
import { ALL_SCOPES } from "./scopes.ts";
import { type App, type Authz, type Ctx, type User, userByLogin } from "./model.ts";
import { queryOf, safeEqual, sha256, verifyTotp } from "./util.ts";

export type Principal =
  | { kind: "anon" }
  | { kind: "user"; user: User; via: "token" | "basic"; scopes: string[]; authz: Authz | null }
  | { kind: "app"; app: App };

interface ReqState { principal: Principal; key: string; limit: number; counted: boolean }
const states = new WeakMap<FastifyRequest, ReqState>();
const ANON: Principal = { kind: "anon" };
export const LIMITS = { authenticated: 5000, anonymous: 60 };
export const OTP_HEADER = "X-Service-OTP";

export const principalOf = (req: FastifyRequest): Principal => states.get(req)?.principal ?? ANON;

type AuthResult = { principal: Principal } | { bad: string; otp?: boolean };

function byToken(ctx: Ctx, token: string): Principal | null {
  const h = sha256(token);
  const a = ctx.store.authz.find((x) => x.tokenHash === h);
  const user = a && ctx.store.users.find((u) => u.id === a.userId);
  return a && user ? { kind: "user", user, via: "token", scopes: [...a.scopes], authz: a } : null;
}

function authenticate(ctx: Ctx, req: FastifyRequest): AuthResult {
  const header = req.headers.authorization;
  if (header === undefined) {
    const t = queryOf(req.url).get("access_token");
    if (t === null) return { principal: ANON };
    const p = byToken(ctx, t);
    return p ? { principal: p } : { bad: "Bad credentials" };
  }
  const tok = /^(?:token|bearer)\s+(\S+)\s*$/i.exec(header);
  if (tok?.[1]) { const p = byToken(ctx, tok[1]); return p ? { principal: p } : { bad: "Bad credentials" }; }
  const basic = /^basic\s+(\S+)\s*$/i.exec(header);
  if (!basic?.[1]) return { bad: "Bad credentials" };
  const decoded = Buffer.from(basic[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return { bad: "Bad credentials" };
  const login = decoded.slice(0, colon), password = decoded.slice(colon + 1);
  const user = userByLogin(ctx.store, login);
  if (user && safeEqual(password, user.password)) {
    if (user.totpSecret) {
      const otp = req.headers[OTP_HEADER.toLowerCase()];
      if (typeof otp !== "string" || !verifyTotp(user.totpSecret, otp.trim())) {
        return { bad: "Must specify two-factor authentication OTP code.", otp: true };
      }
    }
    return { principal: { kind: "user", user, via: "basic", scopes: [...ALL_SCOPES], authz: null } };
  }
  if (password === "x-oauth-basic" || password === "") { const p = byToken(ctx, login); if (p) return { principal: p }; }
  const app = ctx.store.apps.find((a) => a.clientId === login);
  if (app && safeEqual(password, app.clientSecret)) return { principal: { kind: "app", app } };
  return { bad: "Bad credentials" };
}

function bucket(ctx: Ctx, key: string): { used: number; resetAt: number } {
  const now = Date.now();
  let b = ctx.store.buckets.get(key);
  if (!b || b.resetAt <= now) { b = { used: 0, resetAt: now + 3_600_000 }; ctx.store.buckets.set(key, b); }
  return b;
}
const addressKey = (req: FastifyRequest): string => `ip:${req.ip}`;

function rateHeaders(ctx: Ctx, reply: FastifyReply, key: string, limit: number): void {
  const b = bucket(ctx, key);
  reply.header("X-RateLimit-Limit", String(limit));
  reply.header("X-RateLimit-Remaining", String(Math.max(0, limit - b.used)));
  reply.header("X-RateLimit-Reset", String(Math.ceil(b.resetAt / 1000)));
}

const isTestPath = (url: string): boolean => url.startsWith("/api/v3/_test/");

function ifNoneMatch(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(",").map((t) => t.trim().replace(/^W\//, "")).some((t) => t === "*" || t === tag);
}

export function installPipeline(ctx: Ctx, api: FastifyInstance): void {
  api.addHook("onRequest", async (req, reply) => {
    if (isTestPath(req.url)) return;
    const auth = authenticate(ctx, req);
    const p = "principal" in auth ? auth.principal : ANON;
    const [key, limit] = p.kind === "user" ? [`user:${p.user.id}`, LIMITS.authenticated]
      : p.kind === "app" ? [`app:${p.app.id}`, LIMITS.authenticated] : [addressKey(req), LIMITS.anonymous];
    const st: ReqState = { principal: p, key, limit, counted: false };
    states.set(req, st);
    const b = bucket(ctx, key);
    if (req.url.split("?")[0] === "/api/v3/rate_limit") st.counted = true;
    else if (b.used >= limit) {
      st.counted = true;
      throw new ApiError(403, `API rate limit exceeded for ${p.kind === "user" ? p.user.login : req.ip}.`);
    }
    if ("bad" in auth) {
      b.used++; st.counted = true;
      throw new ApiError(401, auth.bad, {}, auth.otp ? { [OTP_HEADER]: "required; app" } : {});
    }
  });

  api.addHook("onSend", async (req, reply, payload) => {
    const st = states.get(req);
    if (!st) return payload;
    let out = payload;
    if ((req.method === "GET" || req.method === "HEAD") && reply.statusCode === 200 && typeof payload === "string") {
      const tag = `"${sha256(payload)}"`;
      reply.header("ETag", tag);
      const inm = req.headers["if-none-match"];
      if (ifNoneMatch(typeof inm === "string" ? inm : undefined, tag)) {
        reply.code(304); reply.removeHeader("content-type"); reply.removeHeader("content-length"); out = "";
      }
    }
    if (!st.counted && reply.statusCode !== 304) {
      if (reply.statusCode === 401) { st.key = addressKey(req); st.limit = LIMITS.anonymous; }
      bucket(ctx, st.key).used++;
      st.counted = true;
    }
    rateHeaders(ctx, reply, st.key, st.limit);
    const p = st.principal;
    if (p.kind === "user" && p.via === "token") reply.header("X-OAuth-Scopes", p.scopes.join(", "));
    const accepted = (req.routeOptions.config as { accepted?: string[] } | undefined)?.accepted;
    reply.header("X-Accepted-OAuth-Scopes", (accepted ?? []).join(", "));
    return out;
  });

  api.setErrorHandler((err: unknown, _req, reply) => {
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      return sendProblem(reply, err.status, err.detail, err.extra);
    }
    const e = err as { statusCode?: unknown; message?: unknown };
    const status = typeof e.statusCode === "number" && e.statusCode >= 400 && e.statusCode < 500 ? e.statusCode : 500;
    if (status === 500) console.error(err);
    const detail = status === 500 ? "Internal error" : String(e.message ?? "Bad Request");
    return sendProblem(reply, status, detail);
  });
  api.setNotFoundHandler((_req, reply) => sendProblem(reply, 404, "Not Found"));

  api.removeAllContentTypeParsers();
  api.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => {
    const s = String(body);
    if (s.trim() === "") { done(null, undefined); return; }
    try { done(null, JSON.parse(s)); } catch { done(new ApiError(400, "Problems parsing JSON"), undefined); }
  });
}

/** Requests counted against anonymous client addresses so far (all addresses summed). */
export function addressSpent(ctx: Ctx): number {
  let n = 0;
  const now = Date.now();
  for (const [k, b] of ctx.store.buckets) if (k.startsWith("ip:") && b.resetAt > now) n += b.used;
  return n;
}
