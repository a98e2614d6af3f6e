/**
 * Rate-limit state from `X-RateLimit-Limit/Remaining/Reset`, and the rule for when a 403 is the
 * limit speaking (remaining is 0) rather than a missing scope. A 304 does not count against the
 * limit, but its headers still say where we stand, so every response updates the state.
 */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** When the window resets, epoch seconds. */
  reset: number;
}

function intHeader(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || !/^\s*\d+\s*$/.test(raw)) return undefined;
  return Number(raw);
}

/** The state the headers report, or undefined when they do not carry all three values. */
export function readRateLimit(headers: Headers): RateLimitState | undefined {
  const limit = intHeader(headers, "x-ratelimit-limit");
  const remaining = intHeader(headers, "x-ratelimit-remaining");
  const reset = intHeader(headers, "x-ratelimit-reset");
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  return { limit, remaining, reset };
}

export function isRateLimited(status: number, headers: Headers): boolean {
  return status === 403 && intHeader(headers, "x-ratelimit-remaining") === 0;
}

/**
 * How long to wait before retrying a rate-limited request: until the reset, plus one second
 * because the reset is rounded to whole seconds. Undefined when there is no reset header.
 */
export function waitForReset(headers: Headers, nowMs: number): number | undefined {
  const reset = intHeader(headers, "x-ratelimit-reset");
  if (reset === undefined) return undefined;
  return Math.max(0, reset * 1000 - nowMs) + 1000;
}
