/**
 * Secrets: generation, hashing and comparison. Tokens, client secrets, codes and session ids are
 * high-entropy random values, so a SHA-256 digest is enough to store them; passwords are not, so
 * they get scrypt with a per-password salt. Every comparison of secret material is constant-time.
 */
import { hash, randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { VerifiedPasswords } from "./verified-passwords.ts";

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

/** `bytes` random bytes as lower-case hex (a 20-byte token is 40 hex characters, as the service's). */
export function randomHex(bytes = 20): string {
  return randomBytes(bytes).toString("hex");
}

// The one-shot `crypto.hash`: a third of `createHash`'s cost, and every API request with a token
// digests it (http/viewer-cache.ts).
export function sha256Hex(value: string): string {
  return hash("sha256", value, "hex");
}

/**
 * Constant-time equality of two strings of any length: both are hashed first, so neither the
 * contents nor the length of the secret leaks through timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const da = hash("sha256", a, "buffer");
  const db = hash("sha256", b, "buffer");
  return timingSafeEqual(da, db) && a.length === b.length;
}

// N=2^14 keeps a login under ~50 ms on the reference machine while staying a real KDF.
const SCRYPT = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  derivations += 1;
  const key = await scrypt(password, salt, KEY_LENGTH, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: 64 * 1024 * 1024 });
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64"), key.toString("base64")].join("$");
}

// Successes seen by this process (auth/verified-passwords.ts says why that is safe).
const verified = new VerifiedPasswords();

// Every scrypt derivation this process ran: what the memo saves is observable (tests).
let derivations = 0;

/** How many times this process has run scrypt (hashing or verifying a password). */
export function passwordDerivations(): number {
  return derivations;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? "").split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") {
    // Do the same work for an unknown user as for a known one, so timing does not reveal which logins exist.
    await hashPassword(password);
    return false;
  }
  const known = stored as string;
  if (verified.has(known, password)) return true;
  const [, n, r, p, salt, key] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(key, "base64");
  derivations += 1;
  const actual = await scrypt(password, Buffer.from(salt, "base64"), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 });
  const ok = actual.length === expected.length && timingSafeEqual(actual, expected);
  if (ok) verified.remember(known, password);
  return ok;
}
