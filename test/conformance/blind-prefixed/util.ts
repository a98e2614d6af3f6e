// util.ts — shared helpers: randomness, hashing, constant-time comparison, base32 + TOTP (RFC 6238), escaping, parsing.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const randomHex = (bytes: number): string => randomBytes(bytes).toString("hex");
export const sha256 = (s: string): string => createHash("sha256").update(s).digest("hex");
export const fakeSha = (): string => randomHex(20);

/** Constant-time string comparison (hashes both sides so lengths do not leak). */
export function safeEqual(a: string, b: string): boolean {
  const x = createHash("sha256").update(a, "utf8").digest();
  const y = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(x, y);
}

const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
export function base32Encode(buf: Buffer): string {
  let bits = 0, value = 0, out = "";
  for (const byte of buf) {
    value = (value << 8) | byte; bits += 8;
    while (bits >= 5) { out += B32.charAt((value >>> (bits - 5)) & 31); bits -= 5; value &= (1 << bits) - 1; }
  }
  if (bits > 0) out += B32.charAt((value << (5 - bits)) & 31);
  return out;
}
export function base32Decode(s: string): Buffer {
  let bits = 0, value = 0;
  const out: number[] = [];
  for (const c of s.toUpperCase().replace(/[=\s]/g, "")) {
    const i = B32.indexOf(c);
    if (i < 0) throw new Error("invalid base32");
    value = (value << 5) | i; bits += 5;
    if (bits >= 8) { out.push((value >>> (bits - 8)) & 255); bits -= 8; value &= (1 << bits) - 1; }
  }
  return Buffer.from(out);
}

/** RFC 6238 TOTP: HMAC-SHA-1, 6 digits, 30-second steps. */
export function totp(secretB32: string, timeMs: number = Date.now()): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(Math.floor(timeMs / 30000)));
  const h = createHmac("sha1", base32Decode(secretB32)).update(msg).digest();
  const off = (h[h.length - 1] ?? 0) & 0xf;
  return ((h.readUInt32BE(off) & 0x7fffffff) % 1_000_000).toString().padStart(6, "0");
}
/** Accepts the current step and one step either side (clock drift). */
export function verifyTotp(secretB32: string, code: string): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  let ok = false;
  for (const d of [-1, 0, 1]) if (safeEqual(totp(secretB32, Date.now() + d * 30000), code)) ok = true;
  return ok;
}

export const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
export const DAY = 86_400_000;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

/** Query parameters of a raw request URL (first value wins for duplicates). */
export const queryOf = (url: string): URLSearchParams => new URL(url, "http://local").searchParams;

/** Positive integer parsing with a fallback; rejects junk like "2abc" or "-1". */
export function intParam(v: string | null | undefined, fallback: number): number {
  if (v == null || !/^\d{1,9}$/.test(v.trim())) return fallback;
  const n = Number(v.trim());
  return n >= 1 ? n : fallback;
}

/** A plain JSON object, or an empty one when the body is absent. */
export function asObject(body: unknown): Record<string, unknown> | null {
  if (body === undefined || body === null) return {};
  if (typeof body !== "object" || Array.isArray(body)) return null;
  return body as Record<string, unknown>;
}
