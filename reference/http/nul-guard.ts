/**
 * NUL characters in JSON request bodies. `\u0000` is valid JSON and passes the contract's
 * schemas, but PostgreSQL (and PGlite) cannot hold it in `text` or `jsonb`, so an authorization
 * `note` or a hook `config.url` carrying one would fail in the database as a 500. No field of the
 * contract has a use for it, so every handler of an operation with a request body is wrapped:
 * a body holding NUL anywhere (a string value, or a property name) is refused with the
 * contract's 422 `{message: "Validation Failed", errors: [{resource, field, code: "invalid"}]}`
 * naming the first such field, before the handler runs. The wrapper sits behind the runtime's
 * own checks (authentication, scopes, content type, schema), so those answers are unchanged.
 * Path and query parameters are the runtime's (runtime/server/register.ts: 404 / 422); the web
 * host's form posts and token exchange check their own fields (reference/oauth).
 */
import { routes } from "../../generated/server/index.ts";
import { validationFailed } from "./errors.ts";

/** The path of the first string (value or property name) holding NUL, in the 422 `field` form (`config.url`, `scopes[0]`); undefined if none. */
export function nulField(value: unknown, path = ""): string | undefined {
  if (typeof value === "string") return value.includes("\0") ? path || "body" : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulField(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      // A property name cannot be echoed with its NUL into a field name that means anything; show it escaped.
      const name = key.replaceAll("\0", "\\u0000");
      const here = path ? `${path}.${name}` : name;
      if (key.includes("\0")) return here;
      const found = nulField(child, here);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

type AnyHandler = (request: { body?: unknown }) => unknown;

const resources = new Map(routes.filter((r) => r.body !== null).map((r) => [r.operationId, r.resource]));

/** `handlers` with every operation that takes a request body refusing NUL in it (422). */
export function refuseNulInBodies<T extends object>(handlers: T): T {
  const out: Record<string, unknown> = { ...(handlers as Record<string, unknown>) };
  for (const [operationId, handler] of Object.entries(handlers)) {
    const resource = resources.get(operationId);
    if (resource === undefined || typeof handler !== "function") continue;
    const inner = handler as AnyHandler;
    out[operationId] = (request: { body?: unknown }) => {
      const field = nulField(request.body);
      if (field === undefined) return inner(request);
      return { status: 422, body: validationFailed([{ resource, field, code: "invalid", message: `${field} must not contain NUL characters.` }]) };
    };
  }
  return out as T;
}
