/**
 * The built-in webhook receiver's interface: a `node:http` server the suite starts on
 * `--receiver-host`, which records every delivery's raw bytes and headers so cases can check
 * signatures over exactly what was sent. It keeps nothing else: a request to a path it did not
 * hand out is answered 404, a body past the contract's 25 MB 413, and what it keeps in all is
 * capped. (Implementation: conformance/receiver/.)
 */
export interface ReceivedDelivery {
  /** The path the delivery was posted to: cases give each hook its own path. */
  path: string;
  method: string;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  raw: Buffer;
  receivedAt: number;
  /** The status the receiver answered (200 unless a case asked for a failure with `failNext`). */
  answered: number;
}

export interface Receiver {
  /**
   * A URL on the receiver for one hook, e.g. url("/hooks/WEBHOOK-PING-001"): the path behind a
   * random segment no other process can guess; the same path gives the same URL. Deliveries to it
   * are recorded under `path`; nothing else is.
   */
  url(path: string): string;
  /** Resolves with the first delivery (already received or arriving) matching, or rejects after timeoutMs. */
  waitFor(match: (d: ReceivedDelivery) => boolean, timeoutMs: number): Promise<ReceivedDelivery>;
  /**
   * The next `count` deliveries to `path` are answered `status` (default 500) instead of 200, so a
   * case can make a delivery fail and watch the target retry it.
   */
  failNext(path: string, count?: number, status?: number): void;
  /** Every delivery received so far. */
  received(): readonly ReceivedDelivery[];
  /**
   * What the receiver refused because the target sent more than it keeps or answers (deliveries
   * dropped with 507, requests answered 429), with the words for the report when anything was.
   * Optional: a receiver a caller brings may keep no such count.
   */
  excess?(): { dropped: number; refused: number; note?: string };
  close(): Promise<void>;
}
