/**
 * Who gets a free delivery slot (DECISIONS D-REF-HOOKS-FAIR-SLOTS). Attempts wait for a slot;
 * taken first come, first served, a receiver that never answers — or one owner's many hooks —
 * fills every slot for a whole time-out at a time, and every other owner's deliveries wait behind
 * it. So one receiver (the host and port an attempt posts to) and one owner (the repository's
 * owner, or the organization, whose hooks they are) may each hold at most `concurrency` slots
 * (the configured number, 16 by default), and the worker keeps a quarter as many more (4) that
 * only someone else can take: however busy or slow one receiver or owner is, others always find
 * a free slot. Among the attempts allowed a slot, the oldest goes first. A single receiver alone
 * still gets all `concurrency` slots it had before, so fairness costs it no throughput
 * (bench/README.md, "Deliveries").
 */

/** Whose attempt it is, for the shares. An empty key (a deleted or paused hook: nothing is sent) is not counted. */
export interface Lane {
  receiver: string;
  owner: string;
}

export class FairSlots {
  /** Slots one receiver, or one owner, may hold at once: the configured concurrency. */
  readonly share: number;
  /** Slots in all: the share and the reserve only others can take. */
  readonly total: number;
  readonly #receivers = new Map<string, number>();
  readonly #owners = new Map<string, number>();

  constructor(concurrency: number) {
    this.share = concurrency;
    this.total = concurrency + Math.max(1, Math.floor(concurrency / 4));
  }

  /** Whether an attempt of this lane may take a free slot now. */
  allowed(lane: Lane): boolean {
    return (this.#receivers.get(lane.receiver) ?? 0) < this.share && (this.#owners.get(lane.owner) ?? 0) < this.share;
  }

  start(lane: Lane): void {
    if (lane.receiver !== "") this.#receivers.set(lane.receiver, (this.#receivers.get(lane.receiver) ?? 0) + 1);
    if (lane.owner !== "") this.#owners.set(lane.owner, (this.#owners.get(lane.owner) ?? 0) + 1);
  }

  finish(lane: Lane): void {
    drop(this.#receivers, lane.receiver);
    drop(this.#owners, lane.owner);
  }
}

function drop(counts: Map<string, number>, key: string): void {
  if (key === "") return;
  const n = (counts.get(key) ?? 0) - 1;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}

/** The receiver of a URL: its host and port (lower-cased), or "" when it is not a URL. */
export function receiverOf(url: string | undefined): string {
  if (url === undefined) return "";
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return "";
  }
}
