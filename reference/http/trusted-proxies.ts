/**
 * Which proxies' `X-Forwarded-For` the server believes. Behind a load balancer every request
 * connects from the balancer, so without this all anonymous callers would share its one rate-limit
 * counter; with it, Fastify's `trustProxy` takes the client address from `X-Forwarded-For`, read
 * from the right and stopping at the first address that is not a trusted proxy (so a client
 * cannot name itself someone else by sending the header). Entries are IP addresses, CIDR ranges,
 * or proxy-addr's names `loopback`, `linklocal` and `uniquelocal`.
 */
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

const NAMED = new Set(["loopback", "linklocal", "uniquelocal"]);

export class TrustedProxyError extends Error {
  override name = "TrustedProxyError";
}

function valid(entry: string): boolean {
  if (NAMED.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split("/");
  const family = isIP(address ?? "");
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/** A comma-separated list as the server takes it, or a TrustedProxyError naming the bad entry. */
export function parseTrustedProxies(name: string, value: string): string[] {
  const entries = value.split(",").map((e) => e.trim()).filter((e) => e !== "");
  if (entries.length === 0) throw new TrustedProxyError(`${name} must list at least one address, got ${JSON.stringify(value)}`);
  const bad = entries.find((e) => !valid(e));
  if (bad !== undefined) throw new TrustedProxyError(`${name}: ${JSON.stringify(bad)} is not an IP address, a CIDR range, loopback, linklocal or uniquelocal`);
  return entries;
}

/** Whether the request names a forwarded client: then only Fastify (trustProxy) knows whose it is. */
export function isForwarded(req: IncomingMessage): boolean {
  return req.headers["x-forwarded-for"] !== undefined;
}
