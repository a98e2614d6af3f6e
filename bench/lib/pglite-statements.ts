/**
 * PGlite's database time by statement, for the delivery benches (deliveries-profile.ts,
 * deliveries-stages.ts): wraps `execProtocolRawSync` on the prototype — synchronous
 * WebAssembly, so each call's time is exactly the database's, with no queueing behind other
 * statements — and charges every protocol message to the statement the last Parse or Query named.
 */
import { PGlite } from "@electric-sql/pglite";

export interface StatementTimes {
  /** Calls and milliseconds per statement (its first `width` characters). */
  readonly spent: Map<string, { calls: number; ms: number }>;
  /** All the database's milliseconds since the last reset. */
  total(): number;
  reset(): void;
}

export function timePgliteStatements(width: number): StatementTimes {
  const spent = new Map<string, { calls: number; ms: number }>();
  let statement = "?";
  let totalMs = 0;
  const proto = PGlite.prototype as unknown as { execProtocolRawSync(message: Uint8Array): Uint8Array };
  const exec = proto.execProtocolRawSync;
  const text = new TextDecoder();
  proto.execProtocolRawSync = function (this: unknown, message: Uint8Array) {
    if (message[0] === 0x50 || message[0] === 0x51) {
      // Parse: type, length, statement name, query; Query: type, length, query.
      let at = 5;
      if (message[0] === 0x50) while (message[at++] !== 0);
      const end = message.indexOf(0, at);
      statement = text.decode(message.subarray(at, Math.min(end, at + 300))).replace(/\s+/g, " ").trim().slice(0, width);
    }
    const started = performance.now();
    try {
      return exec.call(this, message);
    } finally {
      const ms = performance.now() - started;
      const s = spent.get(statement) ?? { calls: 0, ms: 0 };
      s.calls++;
      s.ms += ms;
      totalMs += ms;
      spent.set(statement, s);
    }
  };
  return {
    spent,
    total: () => totalMs,
    reset() {
      spent.clear();
      totalMs = 0;
    },
  };
}
