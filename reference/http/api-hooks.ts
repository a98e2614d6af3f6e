/**
 * Cross-cutting behaviour of every API-host response, as Fastify hooks around the generated
 * routes: resolve the caller (401 `Bad credentials` for a token that does not resolve), enforce
 * the operation's scopes (403 naming them), apply the rate limit (403 when exceeded; a 304 never
 * counts), and set `X-RateLimit-*`, `X-OAuth-Scopes` and `X-Accepted-OAuth-Scopes`. Operations
 * whose only credential is Basic (the authorizations API, the application token endpoints) are
 * authenticated here too (basic-auth.ts), so that a Basic-authenticated user or application is
 * rate-limited as authenticated; handlers read the outcome from `request.basic`.
 *
 * A request refused for its rate limit changes nothing. Reads (GET, HEAD) are counted once
 * answered, because a 304 does not count, so an exhausted caller's conditional read goes through
 * to learn whether it ends in one. A request that can change something is counted as it is
 * admitted, before its handler runs: it is refused first when the limit is spent (whatever its
 * `If-None-Match`), and concurrent writes cannot all pass on the last remaining request.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Database } from "../db/database.ts";
import { satisfies } from "../auth/scopes.ts";
import { errorBody } from "./errors.ts";
import { routeKey, type OperationPolicy } from "./operation-policy.ts";
import { callerLimit, callerRateKey, remaining, type RateLimiter, type RateState } from "./rate-limit.ts";
import { ANONYMOUS, presentedToken, type TokenLookup, type Viewer } from "./viewer.ts";
import type { ViewerCache } from "./viewer-cache.ts";
import { acceptedHeader, scopesHeader } from "./scope-headers.ts";
import { authenticateBasic, basicKind, type BasicOutcome } from "./basic-auth.ts";

declare module "fastify" {
  interface FastifyRequest {
    viewer: Viewer;
    policy: OperationPolicy | undefined;
    rate: RateState | undefined;
    rateKey: string;
    /** A route outside the contract (the /docs pages): none of these rules apply. */
    outsideContract: boolean;
    /** The Basic authentication outcome, on operations that take Basic only. */
    basic: BasicOutcome | undefined;
    /** The hourly limit of `rateKey`. */
    rateLimit: number;
    /** Counted on admission (a write): onSend must not count it again. */
    rateCounted: boolean;
  }
}

export interface ApiHooksOptions {
  db: Database;
  policies: ReadonlyMap<string, OperationPolicy>;
  limiter: RateLimiter;
  /** Shared with the poll lane (poll-lane.ts), which resolves the same tokens. */
  viewers: ViewerCache;
  /** The clock two-factor codes are checked against (the server's, injectable in tests). */
  now?: () => number;
}

// Header names on the hot path are given lower-cased, as Fastify keeps (and sends) them anyway:
// lower-casing a name that is already lower case makes no new string per response.
function setRateHeaders(reply: FastifyReply, state: RateState): void {
  reply.header("x-ratelimit-limit", state.limit);
  reply.header("x-ratelimit-remaining", remaining(state));
  reply.header("x-ratelimit-reset", state.reset);
}

export function installApiHooks(app: FastifyInstance, { db, policies, limiter, viewers, now = Date.now }: ApiHooksOptions): void {
  app.decorateRequest("viewer", null as unknown as Viewer);
  app.decorateRequest("policy", undefined);
  app.decorateRequest("rate", undefined);
  app.decorateRequest("rateKey", "");
  app.decorateRequest("outsideContract", false);
  app.decorateRequest("basic", undefined);
  app.decorateRequest("rateLimit", 0);
  app.decorateRequest("rateCounted", false);
  // In-memory counters answer at once: polls then pass the hooks without a promise.
  const rates = limiter.sync;

  function setRateKey(request: FastifyRequest): void {
    // An application authenticated with its client credentials is limited like a user, per application.
    const client = request.basic?.kind === "app" ? request.basic.app : undefined;
    request.rateKey = client && !request.viewer.user ? `app:${client.id}` : callerRateKey(request.viewer.user?.id, request.ip);
    request.rateLimit = client ? limiter.limits.authenticated : callerLimit(request.viewer.user?.id, limiter.limits);
  }

  /** A read, which may end in a 304 and is counted once answered; anything else is counted on admission. */
  function isRead(request: FastifyRequest): boolean {
    return request.method === "GET" || request.method === "HEAD";
  }

  function refuseSpent(request: FastifyRequest, reply: FastifyReply, state: RateState): false {
    setRateHeaders(reply, state);
    reply.code(403).send(errorBody(`API rate limit exceeded for ${request.viewer.user ? request.viewer.user.login : request.ip}.`));
    return false;
  }

  /** A write admitted: count it now, or refuse it when another request took the last one meanwhile. */
  function counted(request: FastifyRequest, reply: FastifyReply, state: RateState): boolean {
    request.rate = state;
    request.rateCounted = true;
    return state.used > state.limit ? refuseSpent(request, reply, state) : true;
  }

  /** Keep the rate state; answer the request when it must stop here. True when it goes on. */
  function admit(request: FastifyRequest, reply: FastifyReply, badCredentials: boolean, state: RateState): boolean {
    request.rate = state;
    if (badCredentials) {
      setRateHeaders(reply, state);
      reply.code(401).send(errorBody("Bad credentials"));
      return false;
    }
    if (request.basic?.kind === "refused") {
      setRateHeaders(reply, state);
      if (request.basic.otp) reply.header("X-Service-OTP", `required; ${request.basic.otp}`);
      reply.code(request.basic.status).send(errorBody(request.basic.message));
      return false;
    }
    // A conditional read may still end in a 304, which does not count: let it through and
    // decide in onSend once the status is known. A write never ends in a 304.
    if (remaining(state) === 0 && (request.headers["if-none-match"] === undefined || !isRead(request))) return refuseSpent(request, reply, state);
    return true;
  }

  /** The caller when it needs the database: a token not yet looked up, Basic credentials, a database-kept rate limit. */
  async function admitSlowly(request: FastifyRequest, reply: FastifyReply, url: string | undefined, presented: TokenLookup): Promise<boolean> {
    let badCredentials = presented.kind === "malformed";
    if (presented.kind === "token") {
      const viewer = await viewers.lookup(presented.token, request.raw);
      if (viewer) request.viewer = viewer;
      else badCredentials = true;
    }
    // A Basic header is not a token (presentedToken leaves it alone); only Basic-only operations read it.
    if (!badCredentials && request.policy?.basic && !request.policy.token && url) {
      const basic = await authenticateBasic(db, limiter, request, basicKind(url), now);
      request.basic = basic;
      request.viewer = basic.kind === "user" ? { user: basic.user, scopes: [], authorization: null } : ANONYMOUS;
    }
    setRateKey(request);
    if (!admit(request, reply, badCredentials, await limiter.peek(request.rateKey, request.rateLimit))) return false;
    return isRead(request) || counted(request, reply, await limiter.consume(request.rateKey, request.rateLimit));
  }

  // Callback-style hooks: a poll (known token or none, in-memory counters) passes them without
  // a promise or a microtask; anything needing the database takes the async path.
  app.addHook("onRequest", (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    // routeOptions is a getter that builds an object: read it once.
    const url = request.routeOptions.url;
    // Fastify answers HEAD with the GET route: the GET operation's rules must apply to it too.
    const policy = url === undefined ? undefined : policies.get(routeKey(request.method === "HEAD" ? "GET" : request.method, url));
    request.policy = policy;
    request.viewer = ANONYMOUS;
    request.outsideContract = url !== undefined && policy === undefined;
    if (request.outsideContract) return done();
    const presented = presentedToken(request);
    if (rates && presented.kind !== "malformed" && !(policy?.basic && !policy.token)) {
      const viewer = presented.kind === "token" ? viewers.cached(presented.token, request.raw) : ANONYMOUS;
      if (viewer !== undefined) {
        request.viewer = viewer;
        setRateKey(request);
        if (admit(request, reply, false, rates.peek(request.rateKey, request.rateLimit)) && (isRead(request) || counted(request, reply, rates.consume(request.rateKey, request.rateLimit)))) done();
        return;
      }
    }
    // A refusal was already sent: going on (done()) would run the handler and send a second answer.
    admitSlowly(request, reply, url, presented).then((admitted) => admitted && done(), done);
  });

  app.addHook("preHandler", (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const policy = request.policy;
    const viewer = request.viewer;
    if (request.outsideContract || !policy || !viewer.authorization || policy.anonymous || !policy.token) return done();
    if (policy.acceptedScopes.length > 0 && !satisfies(viewer.scopes, policy.acceptedScopes)) {
      reply.code(403).send(errorBody(`Missing scope: this action needs one of ${policy.acceptedScopes.join(", ")}.`));
      return;
    }
    done();
  });

  /** Whether the answer counts against the limit: not a 304, nor a refusal for bad credentials or for the limit itself. */
  function counts(reply: FastifyReply, state: RateState): boolean {
    return reply.statusCode !== 304 && reply.statusCode !== 401 && !(reply.statusCode === 403 && remaining(state) === 0);
  }

  /** Exhausted, and the conditional request did not end in a 304: it is refused after all. */
  function refuseExhausted(request: FastifyRequest, reply: FastifyReply, state: RateState): string {
    const viewer = request.viewer ?? ANONYMOUS;
    setRateHeaders(reply, state);
    reply.code(403).header("content-type", "application/json; charset=utf-8");
    reply.removeHeader("etag");
    return JSON.stringify(errorBody(`API rate limit exceeded for ${viewer.user ? viewer.user.login : request.ip}.`));
  }

  /** Count the request if it counts and set the rate-limit headers; the payload to send. */
  function settle(request: FastifyRequest, reply: FastifyReply, payload: unknown, state: RateState, sync: NonNullable<RateLimiter["sync"]>): unknown {
    if (!request.rateCounted && counts(reply, state)) {
      if (remaining(state) === 0) return refuseExhausted(request, reply, state);
      state = sync.consume(request.rateKey, request.rateLimit);
    }
    setRateHeaders(reply, state);
    return payload;
  }

  async function settleSlowly(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const key = request.rateKey || callerRateKey(undefined, request.ip);
    const limit = request.rateLimit || callerLimit(request.viewer?.user?.id, limiter.limits);
    let state = request.rate ?? (await limiter.peek(key, limit));
    if (!request.rateCounted && counts(reply, state)) {
      if (remaining(state) === 0) return refuseExhausted(request, reply, state);
      state = await limiter.consume(key, limit);
    }
    setRateHeaders(reply, state);
    return payload;
  }

  app.addHook("onSend", (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
    if (request.outsideContract) return done(null, payload);
    // The Basic-only operations (authorizations API, application tokens) answer with tokens or
    // what describes them: never kept by a cache (RFC 6749 §5.1; DECISIONS D-REF-NONWEB-NO-STORE).
    if (request.policy?.basic && !request.policy.token) reply.header("cache-control", "no-store").header("pragma", "no-cache");
    const viewer = request.viewer ?? ANONYMOUS;
    if (viewer.authorization) {
      reply.header("x-oauth-scopes", scopesHeader(viewer));
      reply.header("x-accepted-oauth-scopes", acceptedHeader(request.policy));
    }
    // request.rate is set (with rateKey and rateLimit) whenever onRequest admitted the request or refused it.
    if (rates && request.rate && request.rateKey) return done(null, settle(request, reply, payload, request.rate, rates));
    settleSlowly(request, reply, payload).then((out) => done(null, out), done);
  });
}
