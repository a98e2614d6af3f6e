/**
 * Two-factor codes (TOTP, RFC 6238: 6 digits, 30 s, SHA-1, as authenticator apps use), checked
 * with otpauth, allowing one step of clock drift either way. `totpStep` says which step a valid
 * code belongs to, so the caller can refuse a code it has already accepted (totp-seeds.ts).
 */
import { Secret, TOTP } from "otpauth";

export function totpFor(secretBase32: string): TOTP {
  return new TOTP({ secret: Secret.fromBase32(secretBase32), digits: 6, period: 30, algorithm: "SHA1" });
}

export const TOTP_PERIOD_MS = 30_000;

export function verifyTotp(secretBase32: string, code: string, now = Date.now()): boolean {
  return totpStep(secretBase32, code, now) !== undefined;
}

/** The time step (counter) of `code` if it is valid at `now` (±1 step), else undefined. */
export function totpStep(secretBase32: string, code: string, now = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpFor(secretBase32).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : Math.floor(now / TOTP_PERIOD_MS) + delta;
}

export function currentTotp(secretBase32: string, now = Date.now()): string {
  return totpFor(secretBase32).generate({ timestamp: now });
}
