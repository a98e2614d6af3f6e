// ratelimit.ts — fixed one-hour windows per key: a user, an application, or a client address.
export interface Bucket { limit: number; used: number; reset: number /* epoch seconds */ }

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  constructor(private readonly windowMs = 3_600_000) {}

  bucket(key: string, limit: number): Bucket {
    const now = Date.now();
    let b = this.buckets.get(key);
    if (!b || b.reset * 1000 <= now) {
      b = { limit, used: 0, reset: Math.ceil((now + this.windowMs) / 1000) };
      this.buckets.set(key, b);
    }
    return b;
  }

  /** Requests counted against client addresses in the current windows. */
  anonymousSpent(): number {
    let n = 0;
    for (const [k, b] of this.buckets) if (k.startsWith("ip:") && b.reset * 1000 > Date.now()) n += b.used;
    return n;
  }
}
