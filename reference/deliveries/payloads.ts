/**
 * The payloads this process just enqueued, kept in memory for its own worker, so a first attempt
 * does not read back from the database the text it has just written: on PGlite, moving 5 KB in
 * or out of the WebAssembly database costs more than sending it. Only a cache — the delivery's
 * row stays the record (a job fetched by another process, after a restart or once the entry is
 * gone, reads it there), and a pending row's payload never changes, so an entry is never stale.
 * An entry is taken once (a later attempt reads the row, which its first attempt fixed); the
 * cache holds at most MAX_BYTES, and entries of transactions that rolled back are never taken,
 * so they are dropped, oldest first, once the cache is full.
 */
import type { DeliveryJobData } from "./boss.ts";

const MAX_BYTES = 32 * 1024 * 1024;

/** A pending delivery as enqueued: its hook, event, action and payload JSON. */
export type PendingDelivery = NonNullable<DeliveryJobData["first"]>;

export class PendingPayloads {
  readonly #entries = new Map<string, PendingDelivery>();
  #bytes = 0;

  add(guid: string, delivery: PendingDelivery): void {
    const size = delivery.payload.length;
    if (size > MAX_BYTES) return;
    while (this.#bytes + size > MAX_BYTES && this.#entries.size > 0) {
      const [oldest, held] = this.#entries.entries().next().value as [string, PendingDelivery];
      this.#entries.delete(oldest);
      this.#bytes -= held.payload.length;
    }
    this.#entries.set(guid, delivery);
    this.#bytes += size;
  }

  /** The payload of a pending delivery enqueued here, once; undefined when it is not (or no longer) held. */
  take(guid: string): PendingDelivery | undefined {
    const held = this.#entries.get(guid);
    if (held !== undefined) {
      this.#entries.delete(guid);
      this.#bytes -= held.payload.length;
    }
    return held;
  }
}
