/**
 * `X-Poll-Interval` (seed: "may grow under high load and must be obeyed"). The load measure is
 * the number of feed requests this instance answered in the last 10 seconds (ten one-second
 * buckets, so the interval shrinks back by itself as the window slides):
 *
 *   under 50 requests/s on average → 60 s; under 200/s → 120 s; otherwise → 180 s.
 *
 * Recorded in spec/DECISIONS.md, "Activity feeds: polling".
 */
export const POLL_BASE = 60;
const WINDOW_SECONDS = 10;
const STEPS: readonly [perSecond: number, interval: number][] = [
  [50, 60],
  [200, 120],
];
/** The longest interval the server ever asks for; the feed caches outlive it (freshness.ts). */
export const POLL_TOP = 180;

export class PollInterval {
  private readonly buckets = new Array<number>(WINDOW_SECONDS).fill(0);
  private second = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  /** Count one feed request and return the interval to advertise. */
  hit(): number {
    this.advance();
    this.buckets[this.second % WINDOW_SECONDS]! += 1;
    return this.current();
  }

  /** The interval for the load of the last 10 seconds, without counting a request. */
  current(): number {
    this.advance();
    const perSecond = this.buckets.reduce((a, b) => a + b, 0) / WINDOW_SECONDS;
    for (const [limit, interval] of STEPS) if (perSecond < limit) return interval;
    return POLL_TOP;
  }

  private advance(): void {
    const now = Math.floor(this.clock() / 1000);
    if (now <= this.second) return;
    // Clear the buckets of the seconds that passed without requests (all of them after a long pause).
    for (let s = Math.max(this.second + 1, now - WINDOW_SECONDS + 1); s <= now; s++) this.buckets[s % WINDOW_SECONDS] = 0;
    this.second = now;
  }
}
