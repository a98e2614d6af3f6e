/**
 * Tiny fake targets for proving that cases can fail: node:http servers that answer the few
 * operations a case touches in the contract's shapes, with one deliberate defect each (an ETag
 * that is never honoured, pagination past 300, private events shown to anyone, a redirect_uri
 * checked by string prefix, …). Each fake is otherwise correct, so a case that fails against it
 * fails for the defect and for nothing else; the tests also check the failure message.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { validateActivityEvent } from "../../generated/validators/index.js";

export interface FakeReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface FakeRequest {
  method: string;
  url: URL;
  headers: IncomingMessage["headers"];
  body: string;
  /** The token from `Authorization: token …` or `?access_token=`. */
  token?: string;
}

export interface FakeServer {
  url: string;
  close(): Promise<void>;
}

export async function startFake(handle: (req: FakeRequest) => FakeReply | Promise<FakeReply>): Promise<FakeServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://fake.invalid");
      const auth = /^token\s+(\S+)$/i.exec(req.headers.authorization ?? "");
      const token = auth?.[1] ?? url.searchParams.get("access_token") ?? undefined;
      try {
        const reply = await handle({ method: req.method ?? "GET", url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), token });
        res.writeHead(reply.status, reply.headers ?? {});
        res.end(reply.body ?? "");
      } catch (error) {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const DOCS = "https://docs.service.example";

export function errorReply(status: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): FakeReply {
  return { status, headers: { "content-type": "application/json", ...rateHeaders(4999), ...headers }, body: JSON.stringify({ message, ...extra, documentation_url: DOCS }) };
}

export function rateHeaders(remaining: number): Record<string, string> {
  return { "x-ratelimit-limit": "5000", "x-ratelimit-remaining": String(remaining), "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600) };
}

export interface FakeEvent {
  id: string;
  type: string;
  public: boolean;
  actor: { id: number; login: string; gravatar_id: string; avatar_url: string; url: string };
  repo: { id: number; name: string; url: string };
  payload: Record<string, unknown>;
  created_at: string;
}

/** A WatchEvent, valid against the contract (checked here, so a fake cannot fail a case by accident). */
export function watchEvent(id: number, options: { repo?: string; actor?: string; public?: boolean; createdAt?: Date } = {}): FakeEvent {
  const actor = options.actor ?? "octocat";
  const repo = options.repo ?? "octocat/hello-world";
  const event: FakeEvent = {
    id: String(id),
    type: "WatchEvent",
    public: options.public ?? true,
    actor: { id: 1, login: actor, gravatar_id: "", avatar_url: `https://avatars.example/${actor}`, url: `https://api.example/users/${actor}` },
    repo: { id: repo.length, name: repo, url: `https://api.example/repos/${repo}` },
    payload: { action: "started" },
    created_at: (options.createdAt ?? new Date(Date.now() - id * 60_000)).toISOString().replace(/\.\d{3}Z$/, "Z"),
  };
  const verdict = validateActivityEvent(event);
  if (!verdict.valid) throw new Error(`fake event breaks the contract: ${JSON.stringify(verdict.errors)}`);
  return event;
}

/** `count` public watch events, newest first, a minute apart. */
export function timeline(count: number, from = 1): FakeEvent[] {
  return Array.from({ length: count }, (_, i) => watchEvent(from + i));
}

export interface FeedApiOptions {
  /** The events at `path` for a caller with `token` (undefined: anonymous); a number is an error status. */
  route(path: string, token: string | undefined): FakeEvent[] | 401 | 404;
  pageSize?: number;
  /** Pages beyond this are 422 (default 10). */
  maxPages?: number;
  /** When false, If-None-Match is ignored: every request gets 200. */
  honourIfNoneMatch?: boolean;
}

function etagMatches(header: string, etag: string): boolean {
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => t.trim() === "*" || strip(t) === strip(etag));
}

/** The API host of a feed service: pages, Link, ETag/304, rate limit (304s do not count), poll interval. */
export function feedApi(options: FeedApiOptions): (req: FakeRequest) => FakeReply {
  const pageSize = options.pageSize ?? 30;
  const maxPages = options.maxPages ?? 10;
  let remaining = 5000;
  return (req) => {
    const routed = options.route(req.url.pathname, req.token);
    if (routed === 401) return errorReply(401, "Requires authentication");
    if (routed === 404) return errorReply(404, "Not Found");
    const page = Number(req.url.searchParams.get("page") ?? "1");
    if (!Number.isInteger(page) || page < 1 || page > maxPages) {
      return errorReply(422, "Validation Failed", { errors: [{ resource: "Event", field: "page", code: "invalid" }] });
    }
    const base = `http://${req.headers.host}${req.url.pathname}`;
    const last = Math.min(maxPages, Math.max(1, Math.ceil(routed.length / pageSize)));
    const items = routed.slice((page - 1) * pageSize, page * pageSize);
    const links: string[] = [];
    if (page < last) links.push(`<${base}?page=${page + 1}>; rel="next"`, `<${base}?page=${last}>; rel="last"`);
    if (page > 1) links.push(`<${base}?page=1>; rel="first"`, `<${base}?page=${page - 1}>; rel="prev"`);
    const body = JSON.stringify(items);
    const etag = `"${createHash("sha1").update(body + links.join()).digest("hex")}"`;
    const common: Record<string, string> = { etag, "x-poll-interval": "60", ...(req.token ? { "x-oauth-scopes": "repo", "x-accepted-oauth-scopes": "repo" } : {}) };
    const inm = req.headers["if-none-match"];
    if (options.honourIfNoneMatch !== false && typeof inm === "string" && etagMatches(inm, etag)) return { status: 304, headers: { ...common, ...rateHeaders(remaining) } };
    remaining -= 1;
    return { status: 200, headers: { "content-type": "application/json", ...common, ...rateHeaders(remaining), ...(links.length ? { link: links.join(", ") } : {}) }, body };
  };
}

export interface FakeOAuthOptions {
  clientId: string;
  clientSecret: string;
  callbackUrl: string;
  /** The redirect_uri rule under test; the correct one by default. */
  acceptRedirect?: (given: string, callback: string) => boolean;
  /** When false, `state` goes into the Location through encodeURI (which leaves & = ? # + alone). */
  encodeState?: boolean;
  /** An unknown client_id is redirected to its redirect_uri instead of getting the 404 page. */
  redirectUnknownClient?: boolean;
  /** Errors go to the redirect_uri given rather than the registered callback. */
  errorsToGivenRedirect?: boolean;
  /** The token keeps the scopes as requested, without normalization. */
  normalizeScopes?: boolean;
  /** A code can be exchanged again. */
  reusableCodes?: boolean;
  /** The token endpoint answers JSON whatever the Accept header says. */
  alwaysJson?: boolean;
  /** While a token is valid, a new code carries the last grant's scopes (the seed's rule); default: what was asked. */
  reuseLastGrant?: boolean;
  /** PKCE (S256 only) as DECISIONS says; false: the PKCE parameters are ignored, as a seed-only server does. Default true. */
  pkce?: boolean;
}

/** A path, as written, with a segment that decodes (once or twice) to `.`, `..`, or holds `/`, `\\` or a control character. */
function ambiguousPath(given: string): boolean {
  const path = /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]*[^/\\?#]*([^?#]*)/.exec(given)?.[1] ?? "";
  if (path.includes("\\")) return true;
  return path.split("/").some((segment) => {
    let decoded = segment;
    for (let i = 0; i < 3; i++) decoded = decoded.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return decoded === "." || decoded === ".." || /[/\\\u0000-\u001f\u007f]/.test(decoded);
  });
}

/**
 * The correct rule: same scheme, host and port; the callback path or below it at a `/`; no
 * ambiguous spelling of the path (spec/DECISIONS.md, Redirect URI path tricks); the scheme, host
 * and port written as the callback's (Redirect URI host and port as written).
 */
export function correctRedirect(given: string, callback: string): boolean {
  let g: URL;
  try {
    g = new URL(given);
  } catch {
    return false;
  }
  const c = new URL(callback);
  if (given.includes("#") || g.username || g.password || g.origin !== c.origin) return false;
  const written = given.slice(0, c.origin.length);
  if (/\s/.test(given) || written.toLowerCase() !== c.origin || !/^([/?]|$)/.test(given.slice(c.origin.length))) return false;
  if (given !== callback && ambiguousPath(given)) return false;
  return g.pathname === c.pathname || g.pathname.startsWith(c.pathname.endsWith("/") ? c.pathname : `${c.pathname}/`);
}

const IMPLIED: Record<string, string[]> = { user: ["user:email", "user:follow"], "admin:repo_hook": ["write:repo_hook", "read:repo_hook"], "write:repo_hook": ["read:repo_hook"], repo: ["public_repo"] };

/**
 * The web host and API host of an OAuth service whose user has already authorized the
 * application: the authorize page redirects at once (no login or consent), so the form driver
 * returns that redirect. `api` answers GET /events and DELETE …/grants/… for the scope cases.
 */
export function fakeOAuth(options: FakeOAuthOptions): { auth: (req: FakeRequest) => FakeReply; api: (req: FakeRequest) => FakeReply } {
  const codes = new Map<string, { scopes: string[]; used: boolean; challenge?: string }>();
  const tokens = new Map<string, string[]>();
  const accept = options.acceptRedirect ?? correctRedirect;
  const docs = "https://developer.service.example/oauth/";

  const withParams = (target: string, params: Record<string, string | undefined>): string => {
    if (options.encodeState === false) {
      const rest = Object.entries(params).filter(([k, v]) => k !== "state" && v !== undefined);
      const query = rest.map(([k, v]) => `${k}=${encodeURIComponent(v!)}`).join("&") + (params.state !== undefined ? `&state=${encodeURI(params.state)}` : "");
      return `${target}${target.includes("?") ? "&" : "?"}${query}`;
    }
    const url = new URL(target);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
    return url.href;
  };
  const redirect = (location: string): FakeReply => ({ status: 302, headers: { location } });

  const tokenReply = (accepts: string, fields: Record<string, string>): FakeReply => {
    const type = options.alwaysJson ? "application/json" : /application\/json/.test(accepts) ? "application/json" : /application\/xml/.test(accepts) ? "application/xml" : "application/x-www-form-urlencoded";
    if (type === "application/json") return { status: 200, headers: { "content-type": type }, body: JSON.stringify(fields) };
    if (type === "application/xml") return { status: 200, headers: { "content-type": type }, body: `<OAuth>${Object.entries(fields).map(([k, v]) => `<${k}>${v}</${k}>`).join("")}</OAuth>` };
    return { status: 200, headers: { "content-type": type }, body: new URLSearchParams(fields).toString() };
  };
  const tokenError = (accepts: string, error: string) => tokenReply(accepts, { error, error_description: `Fake: ${error}`, error_uri: `${docs}#${error}` });

  const auth = (req: FakeRequest): FakeReply => {
    if (req.method === "GET" && req.url.pathname === "/login/oauth/authorize") {
      const q = req.url.searchParams;
      const given = q.get("redirect_uri") ?? undefined;
      const state = q.get("state") ?? undefined;
      if (q.get("client_id") !== options.clientId) {
        if (options.redirectUnknownClient && given) return redirect(withParams(given, { error: "redirect_uri_mismatch", error_description: "Unknown client", error_uri: docs, state }));
        return { status: 404, headers: { "content-type": "text/html" }, body: "<!DOCTYPE html><title>Not found</title>" };
      }
      if (given && !accept(given, options.callbackUrl)) {
        const target = options.errorsToGivenRedirect ? given : options.callbackUrl;
        return redirect(withParams(target, { error: "redirect_uri_mismatch", error_description: "The redirect_uri does not match.", error_uri: `${docs}#redirect-uri-mismatch`, state }));
      }
      const challenge = options.pkce === false ? null : q.get("code_challenge");
      const method = options.pkce === false ? null : q.get("code_challenge_method");
      if ((challenge || method) && (method !== "S256" || !/^[A-Za-z0-9_-]{43}$/.test(challenge ?? ""))) {
        return redirect(withParams(options.callbackUrl, { error: "invalid_request", error_description: "Fake: PKCE is S256 only.", error_uri: `${docs}#invalid-request`, state }));
      }
      const requested = (q.get("scope") ?? "").split(/[\s,]+/).filter(Boolean);
      const asked = options.normalizeScopes === false ? requested : requested.filter((s) => !requested.some((o) => o !== s && IMPLIED[o]?.includes(s)));
      const scopes = options.reuseLastGrant && tokens.size > 0 ? [...tokens.values()].at(-1)! : asked;
      const code = randomBytes(20).toString("hex");
      codes.set(code, { scopes, used: false, ...(challenge ? { challenge } : {}) });
      return redirect(withParams(given ?? options.callbackUrl, { code, state }));
    }
    if (req.method === "POST" && req.url.pathname === "/login/oauth/access_token") {
      const accepts = String(req.headers.accept ?? "");
      const f = Object.fromEntries(new URLSearchParams(req.body));
      if (f.client_id !== options.clientId || f.client_secret !== options.clientSecret) return tokenError(accepts, "incorrect_client_credentials");
      const code = codes.get(f.code ?? "");
      if (!code || (code.used && !options.reusableCodes)) return tokenError(accepts, "bad_verification_code");
      if (f.redirect_uri && !accept(f.redirect_uri, options.callbackUrl)) return tokenError(accepts, "redirect_uri_mismatch");
      if (options.pkce !== false) {
        const verifier = f.code_verifier ?? "";
        const fits = code.challenge ? createHash("sha256").update(verifier).digest("base64url") === code.challenge : verifier === "";
        if (!fits) return tokenError(accepts, "bad_verification_code");
      }
      code.used = true;
      const token = randomBytes(20).toString("hex");
      tokens.set(token, code.scopes);
      return tokenReply(accepts, { access_token: token, scope: code.scopes.join(","), token_type: "bearer" });
    }
    return { status: 404, headers: { "content-type": "text/html" }, body: "<!DOCTYPE html><title>Not found</title>" };
  };

  const api = (req: FakeRequest): FakeReply => {
    const scopes = req.token ? tokens.get(req.token) : undefined;
    if (req.token && !scopes) return errorReply(401, "Bad credentials");
    const scopeHeaders: Record<string, string> = scopes ? { "x-oauth-scopes": scopes.join(", "), "x-accepted-oauth-scopes": "" } : {};
    if (req.method === "GET" && req.url.pathname === "/events") {
      return { status: 200, headers: { "content-type": "application/json", etag: '"empty"', "x-poll-interval": "60", ...rateHeaders(4999), ...scopeHeaders }, body: "[]" };
    }
    if (req.method === "DELETE" && req.url.pathname.startsWith(`/applications/${options.clientId}/grants/`)) {
      tokens.clear();
      return { status: 204, headers: { ...rateHeaders(4999) } };
    }
    return errorReply(404, "Not Found");
  };
  return { auth, api };
}
