/**
 * Text the database cannot store as sent, in JSON request bodies: NUL characters and lone UTF-16
 * surrogates. Both are valid JSON (`\u0000`, `\ud800`) and pass the contract's schemas, but
 * PostgreSQL (and PGlite) cannot hold NUL in `text` or `jsonb` — an authorization `note` or a hook
 * `config.url` carrying one failed in the database as a 500 — and a lone surrogate has no UTF-8
 * form, so it was stored as U+FFFD: the value read back was not the value written. No field of the
 * contract has a use for either, so every handler of an operation with a request body is wrapped:
 * a body holding one anywhere (a string value, or a property name) is refused with the contract's
 * 422 `{message: "Validation Failed", errors: [{resource, field, code: "invalid"}]}` naming the
 * first such field, before the handler runs. The wrapper sits behind the runtime's own checks
 * (authentication, scopes, content type, schema), so those answers are unchanged. Path and query
 * parameters are the runtime's (runtime/server/register.ts: 404 / 422); the web host's form posts
 * and token exchange check their own fields (reference/oauth).
 */
import { routes } from "../../generated/server/index.ts";
import { validationFailed } from "./errors.ts";

export type Unstorable = "nul" | "surrogate";

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function unstorable(text: string): Unstorable | undefined {
  if (text.includes("\0")) return "nul";
  return LONE_SURROGATE.test(text) ? "surrogate" : undefined;
}

/** Property names are echoed escaped: a NUL or a lone surrogate means nothing in a field name. */
function shownName(key: string): string {
  return key.replace(/[\0\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The first string (value or property name) the database cannot store, with its path in the 422 `field` form (`config.url`, `scopes[0]`). */
export function unstorableField(value: unknown, path = ""): { field: string; problem: Unstorable } | undefined {
  if (typeof value === "string") {
    const problem = unstorable(value);
    return problem ? { field: path || "body", problem } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableField(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      const problem = unstorable(key);
      const name = problem ? shownName(key) : key;
      const here = path ? `${path}.${name}` : name;
      if (problem) return { field: here, problem };
      const found = unstorableField(child, here);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

const MESSAGES: Record<Unstorable, string> = {
  nul: "must not contain NUL characters",
  surrogate: "must be valid Unicode text (it holds a lone surrogate)",
};

type AnyHandler = (request: { body?: unknown }) => unknown;

const resources = new Map(routes.filter((r) => r.body !== null).map((r) => [r.operationId, r.resource]));

/** `handlers` with every operation that takes a request body refusing text the database cannot store in it (422). */
export function refuseUnstorableText<T extends object>(handlers: T): T {
  const out: Record<string, unknown> = { ...(handlers as Record<string, unknown>) };
  for (const [operationId, handler] of Object.entries(handlers)) {
    const resource = resources.get(operationId);
    if (resource === undefined || typeof handler !== "function") continue;
    const inner = handler as AnyHandler;
    out[operationId] = (request: { body?: unknown }) => {
      const found = unstorableField(request.body);
      if (found === undefined) return inner(request);
      const { field, problem } = found;
      return { status: 422, body: validationFailed([{ resource, field, code: "invalid", message: `${field} ${MESSAGES[problem]}.` }]) };
    };
  }
  return out as T;
}
