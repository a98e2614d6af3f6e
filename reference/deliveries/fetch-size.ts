/**
 * How many jobs the worker asks pg-boss for at once. pg-boss's fetch reads and sorts every
 * waiting job of the queue to pick the oldest (its index is on start_after, the order is
 * priority and created_on), so a fetch costs about the same whatever its size, and its cost
 * grows with the backlog: fetching 32 at a time from a backlog of 3,000 is ~100 such scans.
 * With a backlog, then, fetch big. But a fetched job is active, and one held past the queue's
 * `expireInSeconds` is taken for abandoned and handed out again (a duplicate): so a batch is what
 * this process sent in the last HORIZON_MS, under a tenth of the expiry — never less than twice
 * the slots (a fetch's fixed cost should not be carried by one job), never more than MAX.
 */
const HORIZON_MS = 1000;
const MAX = 2000;
/** How long a rate measurement runs before it replaces the previous one. */
const WINDOW_MS = 250;

export class FetchSize {
  readonly #min: number;
  readonly #horizonMs: number;
  #count = 0;
  #since = performance.now();
  #rate = 0;

  constructor(concurrency: number, expireInSeconds: number) {
    this.#min = 2 * concurrency;
    this.#horizonMs = Math.min(HORIZON_MS, (expireInSeconds * 1000) / 10);
  }

  /** An attempt finished. */
  finished(): void {
    this.#count++;
    const now = performance.now();
    const elapsed = now - this.#since;
    if (elapsed >= WINDOW_MS) {
      this.#rate = (this.#count * 1000) / elapsed;
      this.#count = 0;
      this.#since = now;
    }
  }

  /** Jobs to hold (in flight and waiting) after the next fetch. */
  get target(): number {
    return Math.max(this.#min, Math.min(MAX, Math.round((this.#rate * this.#horizonMs) / 1000)));
  }
}
