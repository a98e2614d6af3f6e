/**
 * Operations the target does not serve yet (the profile's `notImplemented`). A request the suite
 * is about to send to one of them — named by its operationId, or by a method and path on the
 * target that only that operation serves — is not sent: the case is skipped with "the profile
 * says X is not implemented", so whatever such an operation would answer (a 501, a 404) is never
 * judged, and no per-case bookkeeping of which operations a case uses is needed.
 */
import { operationTable } from "../../generated/client/operations.ts";
import { SkipCase } from "./failure.ts";

type Host = "api" | "auth";
const OPERATIONS = Object.entries(operationTable).map(([id, op]) => ({
  id,
  method: op.method.toUpperCase(),
  host: op.host as Host,
  // Literal segments make a template more specific (`/issues/events/{id}` before `/issues/{n}/events`).
  literals: op.path.split("/").filter((s) => s && !s.startsWith("{")).length,
  pattern: new RegExp(`^${op.path.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")).join("[^/]+")}$`),
}));

/** Every operationId of the contract, for checking a profile's list. */
export const OPERATION_IDS: readonly string[] = OPERATIONS.map((o) => o.id).sort();

/** The operation a method and URL on the target's hosts name, if any. */
export function operationOfRequest(method: string, url: string, hosts: { api: string; auth: string }): string | undefined {
  const target = new URL(url);
  const on: Host[] = (["api", "auth"] as const).filter((h) => new URL(hosts[h]).origin === target.origin);
  if (on.length === 0) return undefined;
  // A host served under a path prefix (`http://host/api`): match the rest.
  const paths = on.map((h) => {
    const base = new URL(hosts[h]).pathname.replace(/\/$/, "");
    return [h, target.pathname.startsWith(base) ? target.pathname.slice(base.length) || "/" : target.pathname] as const;
  });
  const upper = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  const matches = OPERATIONS.filter((o) => o.method === upper && paths.some(([h, p]) => h === o.host && o.pattern.test(p)));
  return matches.sort((a, b) => b.literals - a.literals)[0]?.id;
}

/**
 * Throws SkipCase when the request goes to an operation the profile lists as not implemented.
 * Called at the start of HttpClient.request, before anything is sent.
 */
export function refuseNotImplemented(
  notImplemented: ReadonlySet<string> | undefined,
  request: { operationId?: string; method: string; url: string },
  hosts: { api: string; auth: string },
): void {
  if (!notImplemented || notImplemented.size === 0) return;
  const id = request.operationId ?? operationOfRequest(request.method, request.url, hosts);
  if (id !== undefined && notImplemented.has(id)) throw new SkipCase(`the profile says ${id} is not implemented (notImplemented)`);
}
