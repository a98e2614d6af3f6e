/**
 * The independent server's request plumbing on plain node:http: the body read (bounded), who is
 * asking (a token in the header or the query, Basic for the non-web flow), the rate limit per
 * user or client address with its headers, this server's own error body, and a count of every
 * request — bad credentials included — for the request-budget test.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { State, Token, User } from "./state.ts";

/** This server's choice of limits (the seed's sample values are 5000 and 4999). */
export const LIMITS = { authenticated: 4000, anonymous: 600 };

/** What the API host was asked (the web host's requests apart, in `web`; the test-only trigger endpoint not at all). */
export interface Counts {
  total: number;
  /** Requests without any credentials. */
  anonymous: number;
  /** Requests with a token or Basic that was taken. */
  authenticated: number;
  /** Requests with credentials that were refused (counted against the client address). */
  badCredentials: number;
  /** 304 answers (free by the seed). */
  notModified: number;
  /** Requests to the web host (pages, token exchange): not rate-limited. */
  web: number;
}

export interface Req {
  raw: IncomingMessage;
  method: string;
  url: URL;
  path: string;
  body: Buffer;
  header(name: string): string | undefined;
  /** The caller, when a token or Basic was given and taken. */
  user?: User;
  token?: Token;
  /** Credentials were given and refused. */
  badCredentials: boolean;
  basic?: { login: string; password: string };
}

export function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const MAX_BODY = 1 << 20;

export async function readRequest(raw: IncomingMessage, base: string): Promise<Req | "too-big"> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Past the limit the rest is read and dropped (answering mid-upload would reset the connection).
  for await (const chunk of raw) {
    size += (chunk as Buffer).length;
    if (size > 16 * MAX_BODY) return "too-big";
    if (size <= MAX_BODY) chunks.push(chunk as Buffer);
  }
  if (size > MAX_BODY) return "too-big";
  let url: URL;
  try {
    url = new URL(raw.url ?? "/", base);
  } catch {
    url = new URL("/", base);
  }
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    path = "\u0000bad";
  }
  return { raw, method: raw.method ?? "GET", url, path, body: Buffer.concat(chunks), header: (n) => first(raw.headers[n.toLowerCase()]), badCredentials: false };
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Fills req.user / req.token / req.basic from the Authorization header or access_token. */
export function identify(state: State, req: Req): void {
  const auth = req.header("authorization");
  const query = req.url.searchParams.get("access_token");
  let value: string | undefined;
  if (auth) {
    const m = /^(token|bearer)\s+(\S+)$/i.exec(auth.trim());
    const b = /^basic\s+(\S+)$/i.exec(auth.trim());
    if (m) value = m[2];
    else if (b) {
      const text = Buffer.from(b[1]!, "base64").toString("utf8");
      const colon = text.indexOf(":");
      const login = colon >= 0 ? text.slice(0, colon) : text;
      const password = colon >= 0 ? text.slice(colon + 1) : "";
      // Basic is the non-web flow's alone; elsewhere it is no credential at all.
      if (!req.path.startsWith("/authorizations")) return;
      const user = state.user(login);
      if (user && same(user.password, password)) {
        req.basic = { login, password };
        req.user = user;
      } else req.badCredentials = true;
      return;
    } else {
      req.badCredentials = true;
      return;
    }
  } else if (query !== null) value = query;
  if (value === undefined) return;
  const token = state.tokens.get(value);
  if (!token) {
    req.badCredentials = true;
    return;
  }
  req.token = token;
  req.user = state.userById(token.userId);
}

/** Per user (token) or per client address, an hour's window. */
export class RateLimiter {
  private used = new Map<string, number>();
  /** Every request per bucket (304s included), for measuring a client's budget. */
  readonly seen = new Map<string, number>();
  constructor(readonly counts: Counts) {}

  /** What each bucket spent against its limit (304s given back), e.g. `ip:127.0.0.1`, `user:ada`. */
  spent(): Record<string, number> {
    return Object.fromEntries(this.used);
  }

  key(req: Req): { key: string; limit: number } {
    if (req.user) return { key: `user:${req.user.login}`, limit: LIMITS.authenticated };
    return { key: `ip:${req.raw.socket.remoteAddress ?? "?"}`, limit: LIMITS.anonymous };
  }

  /** Counts the request; false when the limit is spent. */
  take(req: Req): { limit: number; remaining: number; ok: boolean } {
    const { key, limit } = this.key(req);
    const used = (this.used.get(key) ?? 0) + 1;
    this.used.set(key, used);
    this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
    return { limit, remaining: Math.max(0, limit - used), ok: used <= limit };
  }

  /** Gives back a request that turned out to be a 304 (the seed: 304s do not count). */
  giveBack(req: Req): void {
    const { key } = this.key(req);
    this.used.set(key, Math.max(0, (this.used.get(key) ?? 1) - 1));
  }

  peek(req: Req): { limit: number; remaining: number } {
    const { key, limit } = this.key(req);
    return { limit, remaining: Math.max(0, limit - (this.used.get(key) ?? 0)) };
  }
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
  type?: string;
}

/** This server's own error body: `{ "problem": …, "detail": … }` (not the contract's message/documentation_url). */
export function problem(status: number, code: string, detail: string, headers: Record<string, string> = {}): Answer {
  return { status, headers, json: { problem: code, detail } };
}

export function send(res: ServerResponse, answer: Answer): void {
  const headers: Record<string, string> = { ...answer.headers };
  let body = "";
  if (answer.json !== undefined) {
    body = JSON.stringify(answer.json);
    headers["content-type"] = "application/json; charset=utf-8";
  } else if (answer.text !== undefined) {
    body = answer.text;
    headers["content-type"] = answer.type ?? "text/plain; charset=utf-8";
  }
  if (answer.status === 304 || answer.status === 204) body = "";
  headers["content-length"] = String(Buffer.byteLength(body));
  res.writeHead(answer.status, headers);
  res.end(body);
}

/** The request body as JSON or a form, whichever it says; undefined when it cannot be read. */
export function bodyOf(req: Req): Record<string, unknown> | undefined {
  const text = req.body.toString("utf8");
  const type = (req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  if (text.trim() === "") return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function html(status: number, body: string, headers: Record<string, string> = {}): Answer {
  return { status, headers, text: `<!doctype html><html><head><meta charset="utf-8"><title>Indie</title></head><body>${body}</body></html>`, type: "text/html; charset=utf-8" };
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
