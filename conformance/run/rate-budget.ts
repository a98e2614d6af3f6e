/**
 * Rate limits said, not suffered. The suite spends the target's rate limits like any client, and a
 * target's anonymous limit is an ordinary one — 60 an hour per client address, as the seed's
 * counterpart publishes — which many targets also charge with every request that carries bad or
 * revoked credentials. A whole run spends at most 60 requests against the address on such a
 * target (address-requests.ts: measured per case, the larger of the reference and the
 * independent server, which counts everything), and about 1,050 with users[0]'s tokens.
 *
 * Before the first case the suite reads `X-RateLimit-Remaining` anonymously and with users[0]'s
 * token (two requests), then plans the run in its order: a case whose requests would go past
 * what is left is skipped, saying how much was left, until when, and how to raise the limit; the
 * others run. A spent limit never refuses the whole run, and never fails cases one by one on 403s
 * that are not theirs.
 *
 * Token figures per area are measured on the reference (every case of an area, counted requests
 * only, 2026-11-26) with a margin: 5000 an hour leaves room.
 */
import type { Area, CaseMeta } from "../core/types.ts";
import { withOwnedTimeout } from "../core/owned-timeout.ts";
import { ADDRESS_REQUESTS } from "./address-requests.ts";

/** Counted API requests a full run of each area makes with users[0]'s tokens. */
export const AREA_USER_REQUESTS: Readonly<Record<Area, number>> = {
  contract: 70,
  oauth: 60,
  feeds: 180,
  "issue-events": 125,
  hooks: 150,
  webhooks: 80,
  robustness: 700,
  receiver: 0,
  "oauth-client": 0,
};

/** The most a whole run may spend against the client address: the ordinary anonymous limit. */
export const ADDRESS_BUDGET = 60;

export interface Needs {
  /** Requests without credentials or with bad ones (what an address-counting target charges). */
  address: number;
  /** Requests with users[0]'s tokens. */
  user: number;
}

/** What one case spends: its measured address figure, and its share of its area's token figure. */
export function caseNeeds(c: Pick<CaseMeta, "id" | "area">, all: readonly Pick<CaseMeta, "area">[]): Needs {
  const inArea = Math.max(1, all.filter((x) => x.area === c.area).length);
  return { address: ADDRESS_REQUESTS[c.id] ?? 0, user: Math.ceil((AREA_USER_REQUESTS[c.area] ?? 0) / inArea) };
}

/** What the selected cases need in all. */
export function requestsNeeded(selected: readonly Pick<CaseMeta, "id" | "area">[], all: readonly Pick<CaseMeta, "area">[]): Needs {
  const need = { address: 0, user: 0 };
  for (const c of selected) {
    const n = caseNeeds(c, all);
    need.address += n.address;
    need.user += n.user;
  }
  return need;
}

export interface Left {
  remaining: number;
  limit?: number;
  reset?: number;
  /** The header as sent, for a reset no date can hold. */
  resetText?: string;
}

async function left(baseUrl: string, token: string | undefined, fetchImpl: typeof fetch): Promise<Left | undefined> {
  try {
    return await withOwnedTimeout(10_000, (signal) => fetchImpl(`${baseUrl}/events`, { headers: { accept: "application/json", ...(token ? { authorization: `token ${token}` } : {}) }, redirect: "manual", signal }).then(readLeft));
  } catch {
    return undefined;
  }
}

async function readLeft(res: Response): Promise<Left | undefined> {
  await res.body?.cancel();
  const number = (name: string) => {
    const v = res.headers.get(name);
    return v !== null && /^\d{1,30}$/.test(v.trim()) ? Number(v) : undefined;
  };
  const remaining = number("x-ratelimit-remaining");
  // A target without the seed's header: nothing to read, and its own cases will say so.
  return remaining === undefined ? undefined : { remaining, limit: number("x-ratelimit-limit"), reset: number("x-ratelimit-reset"), resetText: res.headers.get("x-ratelimit-reset") ?? undefined };
}

/**
 * When the window resets, as the target said it. The header is the target's text: a value no date
 * can hold (99999999999999999999, years past 275760) is quoted as it came, never turned into a
 * Date whose toISOString throws.
 */
function when(reset: number | undefined, raw: string | undefined): string {
  if (reset === undefined) return "";
  const seconds = reset > 1e11 ? reset / 1000 : reset; // tolerate a target that sends milliseconds
  const date = new Date(seconds * 1000);
  if (!Number.isFinite(date.getTime())) return ` until X-RateLimit-Reset ${JSON.stringify((raw ?? "").slice(0, 40))}, which is no date`;
  return ` until ${date.toISOString().replace(/\.\d{3}Z$/, "Z")} (X-RateLimit-Reset)`;
}

export interface Budget {
  /** What the target says is left anonymously (the client address). */
  address?: Left;
  /** What is left for users[0]'s token. */
  user?: Left;
}

/** Reads what the target has left: one anonymous request and one with users[0]'s token. */
export async function readBudget(options: { baseUrl: string; token?: string; fetch?: typeof fetch }): Promise<Budget> {
  const fetchImpl = options.fetch ?? fetch;
  const address = await left(options.baseUrl, undefined, fetchImpl);
  const user = options.token ? await left(options.baseUrl, options.token, fetchImpl) : undefined;
  return { ...(address ? { address } : {}), ...(user ? { user } : {}) };
}

function leftText(l: Left): string {
  return `${l.remaining}${l.limit !== undefined ? ` of ${l.limit}` : ""} requests left${when(l.reset, l.resetText)}`;
}

export interface BudgetPlan {
  /** Case ID → why it is skipped. */
  skips: Map<string, string>;
  /** One line for the terminal when cases are skipped, else undefined. */
  line?: string;
}

/**
 * The run planned in its order against what is left: each case that fits spends its figures,
 * each that does not is skipped with the reason (a later, cheaper case may still fit).
 */
export function planBudget(ordered: readonly Pick<CaseMeta, "id" | "area">[], all: readonly Pick<CaseMeta, "area">[], budget: Budget): BudgetPlan {
  const skips = new Map<string, string>();
  let address = budget.address?.remaining ?? Infinity;
  let user = budget.user?.remaining ?? Infinity;
  for (const c of ordered) {
    const need = caseNeeds(c, all);
    if (need.address > address) {
      skips.set(c.id, `the target's anonymous rate limit will not last this case: ${leftText(budget.address!)} when the run began, the cases before it spend about ${budget.address!.remaining - address} and this one about ${need.address} against the client address — wait for the reset, raise the target's anonymous limit (the reference: serve --rate-limit 5000,1000), or run it alone (--only ${c.id})`);
      continue;
    }
    if (need.user > user) {
      skips.set(c.id, `users[0]'s rate limit will not last this case: ${leftText(budget.user!)} when the run began, the cases before it spend about ${budget.user!.remaining - user} and this one about ${need.user} with users[0]'s tokens — wait for the reset or raise the target's per-user limit`);
      continue;
    }
    address -= need.address;
    user -= need.user;
  }
  if (skips.size === 0) return { skips };
  const which = [budget.address && [...skips.values()].some((r) => r.startsWith("the target's anonymous")) ? `anonymously ${leftText(budget.address)}` : "", budget.user && [...skips.values()].some((r) => r.startsWith("users[0]")) ? `with users[0]'s token ${leftText(budget.user)}` : ""].filter(Boolean).join("; ");
  return { skips, line: `the target's rate limit will not last the whole run (${which}): ${skips.size} case(s) that would go past it are skipped, each saying why; the rest run` };
}
