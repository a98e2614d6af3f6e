/**
 * Expected and actual values come from cases and can be anything — a Buffer of raw webhook bytes,
 * a bigint, a Headers object, a cyclic structure. Results are written as JSON and embedded in
 * reports, so each value is turned into plain JSON once, here, where the result is made.
 */
export function jsonSafe(value: unknown): unknown {
  if (value === undefined) return undefined;
  const seen = new WeakSet<object>();
  const text = JSON.stringify(value, function replacer(_key, v: unknown) {
    if (typeof v === "bigint") return v.toString();
    if (typeof v === "function" || typeof v === "symbol") return String(v);
    if (v instanceof RegExp) return String(v);
    if (v instanceof Error) return `${v.name}: ${v.message}`;
    if (v instanceof Map) return Object.fromEntries(v);
    if (v instanceof Set) return [...v];
    if (typeof Headers !== "undefined" && v instanceof Headers) return Object.fromEntries(v);
    if (v !== null && typeof v === "object" && (v as { type?: unknown }).type === "Buffer" && Array.isArray((v as { data?: unknown }).data)) {
      // Buffer.toJSON already ran: show the bytes as text, which is what a reader wants to see.
      return Buffer.from((v as { data: number[] }).data).toString("utf8");
    }
    if (v !== null && typeof v === "object") {
      if (seen.has(v)) return "[repeated reference]";
      seen.add(v);
    }
    return v;
  });
  return text === undefined ? String(value) : (JSON.parse(text) as unknown);
}
