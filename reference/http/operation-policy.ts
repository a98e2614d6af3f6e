/**
 * What the contract says about who may call each operation: the scopes it accepts
 * (`x-accepted-scopes`, the value of `X-Accepted-OAuth-Scopes`), whether it works anonymously (a
 * `{}` security requirement) and whether it takes Basic credentials. The reference server
 * enforces exactly this, read from the generated route table (`generate` writes it from the
 * spec, and `generate --check` fails when it is stale), so spec and server cannot drift apart —
 * and a server start does not parse the 225 KB contract for it.
 */
import { routes } from "../../generated/server/routes.ts";
import type { RouteSpec } from "../../runtime/server/index.ts";

export interface OperationPolicy {
  operationId: string;
  acceptedScopes: string[];
  anonymous: boolean;
  basic: boolean;
  token: boolean;
}

const TOKEN_SCHEMES = new Set(["token", "access_token", "oauth2"]);

function operationPolicy(route: Pick<RouteSpec, "operationId" | "security" | "acceptedScopes">): OperationPolicy {
  return {
    operationId: route.operationId,
    acceptedScopes: [...route.acceptedScopes],
    anonymous: route.security.length === 0 || route.security.includes(""),
    basic: route.security.includes("basic"),
    token: route.security.some((s) => TOKEN_SCHEMES.has(s)),
  };
}

let policies: ReadonlyMap<string, OperationPolicy> | undefined;

/** `"GET /repos/:owner/:repo/events"` (Fastify's route form) → policy. */
export function loadOperationPolicies(): ReadonlyMap<string, OperationPolicy> {
  policies ??= new Map(routes.map((route) => [routeKey(route.method, route.url), operationPolicy(route)]));
  return policies;
}

export function routeKey(method: string, fastifyUrl: string): string {
  return `${method.toUpperCase()} ${fastifyUrl}`;
}
