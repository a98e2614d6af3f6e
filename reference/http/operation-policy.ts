/**
 * What the contract says about who may call each operation, read once from the spec: the scopes
 * it accepts (`x-accepted-scopes`, the value of `X-Accepted-OAuth-Scopes`), whether it works
 * anonymously (a `{}` security requirement) and whether it takes Basic credentials. The
 * reference server enforces exactly this, so spec and server cannot drift apart.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { PACKAGE_SPEC } from "../../generators/package-files.ts";

export interface OperationPolicy {
  operationId: string;
  acceptedScopes: string[];
  anonymous: boolean;
  basic: boolean;
  token: boolean;
}

const METHODS = ["get", "put", "post", "delete", "patch"];

export const DEFAULT_SPEC = PACKAGE_SPEC;

// Read once per process and spec file: every server a process starts (a test file starts dozens)
// would otherwise parse the whole contract again, about 0.1 s of CPU each time.
const loaded = new Map<string, ReadonlyMap<string, OperationPolicy>>();

/** `"GET /repos/:owner/:repo/events"` (Fastify's route form) → policy. */
export function loadOperationPolicies(specPath = DEFAULT_SPEC): ReadonlyMap<string, OperationPolicy> {
  let policies = loaded.get(specPath);
  if (!policies) loaded.set(specPath, (policies = readOperationPolicies(specPath)));
  return policies;
}

function readOperationPolicies(specPath: string): Map<string, OperationPolicy> {
  const doc = parse(readFileSync(specPath, "utf8")) as { paths: Record<string, Record<string, Record<string, unknown>>> };
  const out = new Map<string, OperationPolicy>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const security = (op.security ?? []) as Record<string, unknown>[];
      const schemes = security.flatMap((r) => Object.keys(r));
      out.set(routeKey(method, path.replace(/\{([^}]+)\}/g, ":$1")), {
        operationId: String(op.operationId),
        acceptedScopes: ((op["x-accepted-scopes"] ?? []) as string[]).slice().sort(),
        anonymous: security.length === 0 || security.some((r) => Object.keys(r).length === 0),
        basic: schemes.includes("basic"),
        token: schemes.some((s) => s === "token" || s === "access_token" || s === "oauth2"),
      });
    }
  }
  return out;
}

export function routeKey(method: string, fastifyUrl: string): string {
  return `${method.toUpperCase()} ${fastifyUrl}`;
}
