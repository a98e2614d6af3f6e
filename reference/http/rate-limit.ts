/**
 * Rate limits as DESIGN.md decides: 5000 requests an hour per authenticated user, 60 per client
 * address otherwise, in fixed one-hour windows; `X-RateLimit-Reset` is the window's end in epoch
 * seconds. One server keeps its counters in memory (the hot path of polling must not write to a
 * database); several instances on PostgreSQL count together in the `rate_limits` table.
 */
import type { Database } from "../db/database.ts";

export const AUTHENTICATED_LIMIT = 5000;
export const ANONYMOUS_LIMIT = 60;

/** The hourly limits: the contract's by default; `serve --rate-limit` sets others (a test server, a busy CI). */
export interface RateLimits {
  authenticated: number;
  anonymous: number;
  /**
   * Failed logins allowed per login and hour (auth/login-failures.ts), counted by the same
   * limiter; undefined: MAX_FAILED_LOGINS. `serve --failed-logins` sets another (a local server
   * the conformance suite runs against again and again).
   */
  failedLogins?: number;
}

export const DEFAULT_LIMITS: RateLimits = { authenticated: AUTHENTICATED_LIMIT, anonymous: ANONYMOUS_LIMIT };
const WINDOW_MS = 3600_000;

export interface RateState {
  limit: number;
  /** Requests counted in the current window. */
  used: number;
  /** Epoch seconds at which the window resets. */
  reset: number;
}

export interface RateLimiter {
  /** The state without counting (for a request that will not count, and for the exceeded check). */
  peek(key: string, limit: number): Promise<RateState>;
  /** Count one request and return the new state. */
  consume(key: string, limit: number): Promise<RateState>;
  /**
   * The same two, answered at once, when the counters are in this process (memory): the API
   * hooks then run without a promise per request. Absent for a limiter that must ask a database.
   */
  sync?: { peek(key: string, limit: number): RateState; consume(key: string, limit: number): RateState };
  /** The hourly limits the callers' counters have. */
  limits: RateLimits;
}

/** The counter an API caller counts against: its user's, else its client address's. */
export function callerRateKey(userId: number | undefined, ip: string | undefined): string {
  return userId !== undefined ? `user:${userId}` : `ip:${ip}`;
}

/** The hourly limit of that counter. */
export function callerLimit(userId: number | undefined, limits: RateLimits = DEFAULT_LIMITS): number {
  return userId !== undefined ? limits.authenticated : limits.anonymous;
}

export function remaining(state: RateState): number {
  return Math.max(0, state.limit - state.used);
}

export function memoryRateLimiter(now: () => number = Date.now, limits: RateLimits = DEFAULT_LIMITS): RateLimiter {
  const windows = new Map<string, { start: number; used: number }>();
  let lastSweep = now();
  const current = (key: string): { start: number; used: number } => {
    const t = now();
    // Forget finished windows now and then, so one counter per client address cannot grow forever.
    if (t - lastSweep >= WINDOW_MS) {
      for (const [k, w] of windows) if (t - w.start >= WINDOW_MS) windows.delete(k);
      lastSweep = t;
    }
    let w = windows.get(key);
    if (!w || t - w.start >= WINDOW_MS) {
      w = { start: t, used: 0 };
      windows.set(key, w);
    }
    return w;
  };
  const state = (w: { start: number; used: number }, limit: number): RateState => ({ limit, used: w.used, reset: Math.ceil((w.start + WINDOW_MS) / 1000) });
  const sync = {
    peek: (key: string, limit: number): RateState => state(current(key), limit),
    consume(key: string, limit: number): RateState {
      const w = current(key);
      w.used += 1;
      return state(w, limit);
    },
  };
  return {
    async peek(key, limit) {
      return sync.peek(key, limit);
    },
    async consume(key, limit) {
      return sync.consume(key, limit);
    },
    sync,
    limits,
  };
}

export function databaseRateLimiter(db: Database, limits: RateLimits = DEFAULT_LIMITS): RateLimiter {
  const toState = (row: { window_start: Date | string; used: number } | undefined, limit: number): RateState => {
    const start = row ? new Date(row.window_start).getTime() : Date.now();
    const fresh = !row || Date.now() - start >= WINDOW_MS;
    return { limit, used: fresh ? 0 : row.used, reset: Math.ceil(((fresh ? Date.now() : start) + WINDOW_MS) / 1000) };
  };
  return {
    limits,
    async peek(key, limit) {
      const rows = await db.query<{ window_start: Date; used: number }>("select window_start, used from rate_limits where key = $1", [key]);
      return toState(rows[0], limit);
    },
    async consume(key, limit) {
      // One statement, so concurrent instances never lose a count or reset a window twice.
      const rows = await db.query<{ window_start: Date; used: number }>(
        `insert into rate_limits (key, window_start, used) values ($1, now(), 1)
         on conflict (key) do update set
           window_start = case when rate_limits.window_start <= now() - interval '1 hour' then now() else rate_limits.window_start end,
           used = case when rate_limits.window_start <= now() - interval '1 hour' then 1 else rate_limits.used + 1 end
         returning window_start, used`,
        [key],
      );
      return toState(rows[0], limit);
    },
  };
}
