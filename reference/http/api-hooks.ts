/**
 * Cross-cutting behaviour of every API-host response, as Fastify hooks around the generated
 * routes: resolve the caller (401 `Bad credentials` for a token that does not resolve), enforce
 * the operation's scopes (403 naming them), apply the rate limit (403 when exceeded; a 304 never
 * counts), and set `X-RateLimit-*`, `X-OAuth-Scopes` and `X-Accepted-OAuth-Scopes`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Database } from "../db/database.ts";
import { formatScopes, satisfies } from "../auth/scopes.ts";
import { errorBody } from "./errors.ts";
import { routeKey, type OperationPolicy } from "./operation-policy.ts";
import { ANONYMOUS_LIMIT, AUTHENTICATED_LIMIT, remaining, type RateLimiter, type RateState } from "./rate-limit.ts";
import { ANONYMOUS, presentedToken, viewerForToken, type Viewer } from "./viewer.ts";

declare module "fastify" {
  interface FastifyRequest {
    viewer: Viewer;
    policy: OperationPolicy | undefined;
    rate: RateState | undefined;
    rateKey: string;
    /** A route outside the contract (the /docs pages): none of these rules apply. */
    outsideContract: boolean;
  }
}

export interface ApiHooksOptions {
  db: Database;
  policies: Map<string, OperationPolicy>;
  limiter: RateLimiter;
}

function limitFor(viewer: Viewer): number {
  return viewer.user ? AUTHENTICATED_LIMIT : ANONYMOUS_LIMIT;
}

function setRateHeaders(reply: FastifyReply, state: RateState): void {
  reply.header("X-RateLimit-Limit", state.limit);
  reply.header("X-RateLimit-Remaining", remaining(state));
  reply.header("X-RateLimit-Reset", state.reset);
}

export function installApiHooks(app: FastifyInstance, { db, policies, limiter }: ApiHooksOptions): void {
  app.decorateRequest("viewer", null as unknown as Viewer);
  app.decorateRequest("policy", undefined);
  app.decorateRequest("rate", undefined);
  app.decorateRequest("rateKey", "");
  app.decorateRequest("outsideContract", false);

  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    request.policy = request.routeOptions.url ? policies.get(routeKey(request.method, request.routeOptions.url)) : undefined;
    request.viewer = ANONYMOUS;
    request.outsideContract = request.routeOptions.url !== undefined && request.policy === undefined;
    if (request.outsideContract) return;
    const presented = presentedToken(request);
    let badCredentials = presented.kind === "malformed";
    if (presented.kind === "token") {
      const viewer = await viewerForToken(db, presented.token);
      if (viewer) request.viewer = viewer;
      else badCredentials = true;
    }
    request.rateKey = request.viewer.user ? `user:${request.viewer.user.id}` : `ip:${request.ip}`;
    const state = await limiter.peek(request.rateKey, limitFor(request.viewer));
    request.rate = state;
    if (badCredentials) {
      setRateHeaders(reply, state);
      return reply.code(401).send(errorBody("Bad credentials"));
    }
    // A conditional request may still end in a 304, which does not count: let it through and
    // decide in onSend once the status is known.
    if (remaining(state) === 0 && request.headers["if-none-match"] === undefined) {
      setRateHeaders(reply, state);
      return reply.code(403).send(errorBody(`API rate limit exceeded for ${request.viewer.user ? request.viewer.user.login : request.ip}.`));
    }
  });

  app.addHook("preHandler", async (request, reply) => {
    if (request.outsideContract) return;
    const policy = request.policy;
    const viewer = request.viewer;
    if (!policy || !viewer.authorization || policy.anonymous || !policy.token) return;
    if (policy.acceptedScopes.length > 0 && !satisfies(viewer.scopes, policy.acceptedScopes)) {
      return reply.code(403).send(errorBody(`Missing scope: this action needs one of ${policy.acceptedScopes.join(", ")}.`));
    }
  });

  app.addHook("onSend", async (request, reply, payload) => {
    if (request.outsideContract) return payload;
    const viewer = request.viewer ?? ANONYMOUS;
    if (viewer.authorization) {
      reply.header("X-OAuth-Scopes", formatScopes(viewer.scopes).split(",").filter(Boolean).join(", "));
      reply.header("X-Accepted-OAuth-Scopes", (request.policy?.acceptedScopes ?? []).join(", "));
    }
    let state = request.rate ?? (await limiter.peek(request.rateKey || `ip:${request.ip}`, limitFor(viewer)));
    const counts = reply.statusCode !== 304 && reply.statusCode !== 401 && !(reply.statusCode === 403 && remaining(state) === 0);
    if (counts) {
      if (remaining(state) === 0) {
        // Exhausted, and the conditional request did not end in a 304: it is refused after all.
        setRateHeaders(reply, state);
        reply.code(403).header("content-type", "application/json; charset=utf-8");
        reply.removeHeader("etag");
        return JSON.stringify(errorBody(`API rate limit exceeded for ${viewer.user ? viewer.user.login : request.ip}.`));
      }
      state = await limiter.consume(request.rateKey || `ip:${request.ip}`, limitFor(viewer));
    }
    setRateHeaders(reply, state);
    return payload;
  });
}
