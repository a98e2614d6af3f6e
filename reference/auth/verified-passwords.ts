/**
 * Passwords this process has recently seen verified, so that a client sending the same Basic
 * credentials on every request (the non-web flow, the authorizations API, a conformance run) pays
 * scrypt once every few minutes instead of once a request (issue 43: 9.8 s of scrypt in a suite
 * run against the reference, one password check per Basic request).
 *
 * What is kept is never the password: an HMAC-SHA256, under a key made at start and held only in
 * memory, of the stored scrypt hash and the password together. So:
 * - only a success is remembered — a wrong password or an unknown login still costs a full scrypt
 *   (guessing is as slow as before, and timing still says nothing about which logins exist);
 * - a changed password is a new stored hash (new salt), so an old entry can never match it;
 * - the entry proves nothing outside this process, and dies with it or after `ttlMs`;
 * - lookups are by a keyed digest the caller cannot predict, so the Map's lookup time leaks
 *   nothing about a stored secret.
 * Bounded: at most `limit` entries, the oldest dropped first.
 */
import { createHmac, randomBytes } from "node:crypto";

export interface VerifiedPasswordsOptions {
  ttlMs?: number;
  limit?: number;
  now?: () => number;
}

export class VerifiedPasswords {
  readonly #key = randomBytes(32);
  readonly #until = new Map<string, number>();
  readonly #ttlMs: number;
  readonly #limit: number;
  readonly #now: () => number;

  constructor(options: VerifiedPasswordsOptions = {}) {
    this.#ttlMs = options.ttlMs ?? 5 * 60_000;
    this.#limit = options.limit ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  /** Whether this password was verified against this stored hash within the last `ttlMs`. */
  has(stored: string, password: string): boolean {
    const key = this.#digest(stored, password);
    const until = this.#until.get(key);
    if (until === undefined) return false;
    if (until > this.#now()) return true;
    this.#until.delete(key);
    return false;
  }

  /** Remember a successful verification (call only after scrypt said yes). */
  remember(stored: string, password: string): void {
    const key = this.#digest(stored, password);
    this.#until.delete(key);
    this.#until.set(key, this.#now() + this.#ttlMs);
    while (this.#until.size > this.#limit) {
      const oldest = this.#until.keys().next().value as string;
      this.#until.delete(oldest);
    }
  }

  get size(): number {
    return this.#until.size;
  }

  #digest(stored: string, password: string): string {
    // Length-prefixed, so no (stored, password) pair can be read as another.
    return createHmac("sha256", this.#key).update(`${stored.length}:${stored}`).update(password).digest("base64");
  }
}
