/**
 * Rate limits said, not suffered. The suite spends the target's rate limits like any client: a
 * whole run makes 55 anonymous API requests and about 1,050 with the profile's token on a target
 * that, like the reference, does not count what it refuses for credentials — and 210 against the
 * client address (and about 990 with users[0]'s tokens) on one that counts every request, bad
 * credentials and 401s included. A target whose limit is spent (a second run within the hour
 * against a server allowing 60 anonymous requests an hour) would fail cases one by one for a
 * reason that is not theirs — so before the first case the suite reads `X-RateLimit-Remaining`,
 * anonymously and with the token, finds out with one bad token whether the target counts refused
 * credentials against the address (its 401 shows one request fewer left), and stops with one line when what is left will not last: how
 * much is left, when it resets, how to raise it.
 *
 * `anonymous` and `user` per area are measured on the reference (every case of an area, counted
 * requests only: `node bin/service-contract.js conformance --reference` with a counting fetch,
 * 2026-11-26); `refused` — the requests without credentials or with bad ones that the reference
 * leaves uncounted and a stricter server counts against the address — on the independent server
 * of test/conformance/independent-server/, which counts every request (2026-11-28, its profile:
 * test/conformance/independent-server.test.ts checks the totals still hold).
 */
import type { Area, CaseMeta } from "../core/types.ts";
import { withOwnedTimeout } from "../core/owned-timeout.ts";

/** Counted API requests a full run of each area makes: anonymous, with users[0]'s token, and refused for credentials. */
export const AREA_REQUESTS: Readonly<Record<Area, { anonymous: number; user: number; refused: number }>> = {
  // Anonymous figures are the measured ones (the inputs are seeded, so the count is the same on
  // every run): a margin would refuse a whole run on a fresh server with 60 anonymous requests
  // an hour, which the run fits in. Token figures carry a margin; 5000 an hour leaves room.
  contract: { anonymous: 3, user: 70, refused: 4 },
  oauth: { anonymous: 3, user: 60, refused: 19 },
  feeds: { anonymous: 7, user: 180, refused: 0 },
  "issue-events": { anonymous: 0, user: 125, refused: 0 },
  hooks: { anonymous: 0, user: 150, refused: 1 },
  webhooks: { anonymous: 0, user: 80, refused: 0 },
  robustness: { anonymous: 42, user: 700, refused: 131 },
  receiver: { anonymous: 0, user: 0, refused: 0 },
  "oauth-client": { anonymous: 0, user: 0, refused: 0 },
};

/** What the selected cases need: each area's figure in proportion to how many of its cases run. */
export function requestsNeeded(selected: readonly Pick<CaseMeta, "area">[], all: readonly Pick<CaseMeta, "area">[]): { anonymous: number; user: number; refused: number } {
  const need = { anonymous: 0, user: 0, refused: 0 };
  for (const area of new Set(selected.map((c) => c.area))) {
    const share = selected.filter((c) => c.area === area).length / Math.max(1, all.filter((c) => c.area === area).length);
    const figures = AREA_REQUESTS[area] ?? { anonymous: 0, user: 0, refused: 0 };
    need.anonymous += Math.ceil(figures.anonymous * share);
    need.user += Math.ceil(figures.user * share);
    need.refused += Math.ceil(figures.refused * share);
  }
  return need;
}

interface Left {
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

/**
 * Whether the target counts a request with bad credentials against the client address: its
 * answer (a 401, with the seed's rate-limit headers) shows one request fewer left than the
 * anonymous read before it. A target that does not count it, or sends no header on the 401,
 * costs nothing here. Returns what is left after it when it counts.
 */
async function countsRefused(baseUrl: string, before: Left, fetchImpl: typeof fetch): Promise<Left | undefined> {
  try {
    const after = await withOwnedTimeout(10_000, (signal) =>
      fetchImpl(`${baseUrl}/events`, { headers: { accept: "application/json", authorization: "token conformance-budget-probe-not-a-token" }, redirect: "manual", signal }).then(readLeft),
    );
    return after !== undefined && after.remaining < before.remaining ? after : undefined;
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

/**
 * The line to stop with when the target's remaining rate limit will not last the selected cases;
 * undefined when it will (or when the target sends no X-RateLimit-Remaining to read).
 */
export async function rateBudgetProblem(options: { baseUrl: string; token?: string; need: { anonymous: number; user: number; refused?: number }; fetch?: typeof fetch }): Promise<string | undefined> {
  const fetchImpl = options.fetch ?? fetch;
  const refused = options.need.refused ?? 0;
  const checks: [string, string | undefined, number][] = [["anonymous", undefined, options.need.anonymous]];
  if (options.token) checks.push(["users[0]'s token", options.token, options.need.user]);
  for (const [who, token, figure] of checks) {
    let need = figure;
    if (need === 0 && (token !== undefined || refused === 0)) continue;
    let l = await left(options.baseUrl, token, fetchImpl);
    // Refused credentials count against the address on some targets: then the run needs those too.
    const counted = token === undefined && l && refused > 0 ? await countsRefused(options.baseUrl, l, fetchImpl) : undefined;
    if (counted) {
      need += refused;
      l = counted;
    }
    // The probe itself was one request; what is left after it must cover the run.
    if (l && l.remaining < need) {
      const raise = who === "anonymous" ? "raise the target's anonymous limit (the reference: serve --rate-limit 5000,1000)" : "raise the target's per-user limit";
      return `the target's ${who} rate limit will not last this run: ${l.remaining}${l.limit !== undefined ? ` of ${l.limit}` : ""} requests left${when(l.reset, l.resetText)}, the selected cases need about ${need}; wait for the reset, ${raise}, or select fewer cases (--skip robustness)`;
    }
  }
  return undefined;
}
