/**
 * The HTTP connection pools of deliveries, one per egress policy and TLS setting, that refuse to
 * connect where hooks may not reach (hooks/egress.ts). The check runs when a connection is made,
 * on the address it is made to: a literal host is judged as it is, a name after DNS (every address
 * it resolves to that the policy refuses is dropped; none left is a refusal), so a name that
 * resolves to a refused address, or is rebound to one after the hook was saved, is refused too.
 * A refusal fails the attempt with `refused by egress policy` and the rule in its message.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import { Agent, buildConnector } from "undici";
import { addressProblem, nameProblem, type EgressPolicy } from "../hooks/egress.ts";

export const EGRESS_REFUSED = "EHOOKEGRESS";

export class EgressRefused extends Error {
  readonly code = EGRESS_REFUSED;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that drops the addresses `policy` refuses (net.connect's `lookup` option). */
function guardedLookup(policy: EgressPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const named = nameProblem(hostname);
    if (named) return callback(new EgressRefused(named), "");
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "");
      const allowed = addresses.filter((a) => addressProblem(a.address, policy) === undefined);
      if (allowed.length === 0) return callback(new EgressRefused(`${hostname} resolves to ${addressProblem(addresses[0]!.address, policy) ?? "no address"}`), "");
      if (options.all) return callback(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

function guardedAgent(policy: EgressPolicy, insecure: boolean): Agent {
  const base = buildConnector({ lookup: guardedLookup(policy), ...(insecure ? { rejectUnauthorized: false } : {}) } as buildConnector.BuildOptions);
  const connect: buildConnector.connector = (options, callback) => {
    // A literal address never goes through lookup: judge it here.
    const host = options.hostname.replace(/^\[|\]$/g, "");
    const problem = isIP(host) ? addressProblem(host, policy) : nameProblem(host);
    if (problem) return callback(new EgressRefused(problem), null);
    return base(options, callback);
  };
  // Keep-alive pools shared by every delivery of this policy.
  return new Agent({ keepAliveTimeout: 4_000, connections: 64, connect });
}

const agents = new Map<string, Agent>();

/** The shared pool for `policy`; `insecure` skips certificate checks (`insecure_ssl: "1"`). */
export function deliveryAgent(policy: EgressPolicy, insecure: boolean): Agent {
  const key = `${policy}:${insecure}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = guardedAgent(policy, insecure);
    agents.set(key, agent);
  }
  return agent;
}
