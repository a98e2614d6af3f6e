/**
 * When a failed delivery is tried again: exponential backoff with jitter. The default is 8
 * attempts in about an hour — the first at once, then retries after nominally 30 s, 1, 2, 4, 8,
 * 16 and 32 minutes (63.5 minutes in all), each delay drawn within ±20% of its nominal value so
 * that deliveries failing together (a receiver that went down) do not come back together.
 * Tests and local use shorten it through startServer's `deliveries.schedule` (serve: the
 * SERVICE_CONTRACT_DELIVERIES environment variable, see options.ts).
 */
export interface RetrySchedule {
  /** Automatic attempts in all, the first included (1 = never retried). */
  attempts: number;
  /** Nominal delay before the first retry. */
  baseDelayMs: number;
  /** Each next nominal delay is this many times the previous one. */
  factor: number;
  /** Cap on one nominal delay. */
  maxDelayMs: number;
  /** Relative spread of each delay: 0.2 draws within ±20%. */
  jitter: number;
}

export const DEFAULT_SCHEDULE: Readonly<RetrySchedule> = Object.freeze({
  attempts: 8,
  baseDelayMs: 30_000,
  factor: 2,
  maxDelayMs: 60 * 60_000,
  jitter: 0.2,
});

/** The delay after failed automatic attempt `attempt` (1-based), or undefined when none follows. */
export function retryDelayMs(schedule: RetrySchedule, attempt: number, random: () => number = Math.random): number | undefined {
  if (attempt >= schedule.attempts) return undefined;
  const nominal = Math.min(schedule.maxDelayMs, schedule.baseDelayMs * schedule.factor ** (attempt - 1));
  const spread = nominal * schedule.jitter * (2 * random() - 1);
  return Math.max(0, Math.round(nominal + spread));
}
