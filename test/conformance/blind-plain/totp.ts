// totp.ts — RFC 4648 base32 and RFC 6238 TOTP (HMAC-SHA-1, 6 digits, 30-second steps) built on node:crypto.
import { createHmac } from "node:crypto";
import { safeEqual } from "./util.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(buf: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of buf) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET.charAt((value >>> (bits - 5)) & 31);
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET.charAt((value << (5 - bits)) & 31);
  return out;
}

export function base32Decode(s: string): Buffer {
  const clean = s.toUpperCase().replace(/[\s=-]/g, "");
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const i = ALPHABET.indexOf(ch);
    if (i < 0) throw new Error("invalid base32");
    value = ((value << 5) | i) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The TOTP code of `secret` (base32) at `timeMs`. */
export function totp(secret: string, timeMs = Date.now(), step = 30, digits = 6): string {
  const counter = Math.floor(timeMs / 1000 / step);
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const h = createHmac("sha1", base32Decode(secret)).update(msg).digest();
  const off = (h[h.length - 1] ?? 0) & 0xf;
  const bin = h.readUInt32BE(off) & 0x7fffffff;
  return String(bin % 10 ** digits).padStart(digits, "0");
}

/** Accepts the current code and one step either side, compared in constant time. */
export function verifyTotp(secret: string, code: string, timeMs = Date.now()): boolean {
  const c = code.trim();
  if (!/^\d{6}$/.test(c)) return false;
  let ok = false;
  for (let k = -1; k <= 1; k++) ok = safeEqual(totp(secret, timeMs + k * 30_000), c) || ok;
  return ok;
}
