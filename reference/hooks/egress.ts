/**
 * Where hooks may make the server send requests (DECISIONS: Hook egress). Anyone who administers
 * a repository chooses a hook's URL and reads the answer in the delivery log, so the URL must not
 * reach what only the server can reach. Two policies (`serve --hook-egress`):
 * - `local` (the default, for development): loopback, private and public addresses;
 * - `public`: public unicast addresses only.
 * In both, link-local addresses (169.254/16 — cloud metadata services live at 169.254.169.254 —
 * and fe80::/10), the cloud metadata names and addresses, unspecified, multicast and broadcast
 * addresses are refused. The rule is applied to the address actually connected to, after DNS
 * (deliveries/egress-agent.ts: a name rebound to a refused address after the hook was saved is
 * refused too), and to literal addresses when a hook is created or edited (a 422 naming the rule).
 * Address matching is Node's `net.BlockList`, which also reads IPv4-mapped IPv6 addresses.
 */
import { BlockList, isIP } from "node:net";

export type EgressPolicy = "local" | "public";
export const EGRESS_POLICIES: readonly EgressPolicy[] = ["local", "public"];
export const DEFAULT_EGRESS: EgressPolicy = "local";
export const EGRESS_ENV = "SERVICE_CONTRACT_HOOK_EGRESS";

function list(v4: readonly [string, number][], v6: readonly [string, number][]): BlockList {
  const blocks = new BlockList();
  for (const [net, prefix] of v4) blocks.addSubnet(net, prefix, "ipv4");
  for (const [net, prefix] of v6) blocks.addSubnet(net, prefix, "ipv6");
  return blocks;
}

/** Refused in every mode. */
const NEVER = list(
  [
    ["0.0.0.0", 8], // "this network": 0.0.0.0 reaches the local host
    ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
    ["100.100.100.200", 32], // Alibaba Cloud metadata
    ["224.0.0.0", 4], // multicast
    ["255.255.255.255", 32], // broadcast
  ],
  [
    ["::", 128], // unspecified
    ["fe80::", 10], // link-local
    ["fd00:ec2::254", 128], // AWS metadata over IPv6
    ["ff00::", 8], // multicast
  ],
);

/** Refused in `public` mode: loopback, private and other non-public ranges (RFC 6890). */
const NOT_PUBLIC = list(
  [
    ["127.0.0.0", 8],
    ["10.0.0.0", 8],
    ["172.16.0.0", 12],
    ["192.168.0.0", 16],
    ["100.64.0.0", 10], // carrier-grade NAT
    ["192.0.0.0", 24],
    ["192.0.2.0", 24],
    ["198.18.0.0", 15],
    ["198.51.100.0", 24],
    ["203.0.113.0", 24],
    ["240.0.0.0", 4],
  ],
  [
    ["::1", 128],
    ["fc00::", 7], // unique local
    ["64:ff9b::", 96], // NAT64: reaches IPv4 addresses
    ["2002::", 16], // 6to4: reaches IPv4 addresses
    ["2001:db8::", 32],
    ["100::", 64],
  ],
);

/** Host names of cloud metadata services, refused in every mode (also with a trailing dot). */
const METADATA_NAMES = new Set(["metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal", "metadata.azure.internal"]);

/** Why `address` (an IP address) may not be connected to under `policy`, or undefined. */
export function addressProblem(address: string, policy: EgressPolicy): string | undefined {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (family === 0) return undefined;
  const type = family === 4 ? "ipv4" : "ipv6";
  if (NEVER.check(bare, type)) return `${bare} is a link-local, metadata, unspecified or multicast address, which hooks may never reach`;
  if (policy === "public" && NOT_PUBLIC.check(bare, type)) return `${bare} is not a public address (the server's hook egress policy is "public")`;
  return undefined;
}

/** Why a host name may not be connected to (cloud metadata names), or undefined. */
export function nameProblem(hostname: string): string | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return METADATA_NAMES.has(name) ? `${name} is a cloud metadata service, which hooks may never reach` : undefined;
}

/**
 * Why a hook may not post to `url` under `policy`, judged from the URL alone (a literal address
 * or a metadata name); names are judged again after DNS at every attempt.
 */
export function urlEgressProblem(url: string, policy: EgressPolicy): string | undefined {
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return undefined;
  }
  return isIP(hostname.replace(/^\[|\]$/g, "")) ? addressProblem(hostname, policy) : nameProblem(hostname);
}

/** The policy from a flag or the environment; throws a readable Error for another value. */
export function parseEgressPolicy(value: string | undefined): EgressPolicy {
  if (value === undefined || value === "") return DEFAULT_EGRESS;
  if ((EGRESS_POLICIES as readonly string[]).includes(value)) return value as EgressPolicy;
  throw new Error(`hook egress must be one of ${EGRESS_POLICIES.join(", ")}, got "${value}"`);
}
