/**
 * Two-factor codes (TOTP, RFC 6238: 6 digits, 30 s, SHA-1, as authenticator apps use), checked
 * with otpauth, allowing one step of clock drift either way.
 */
import { Secret, TOTP } from "otpauth";

export function totpFor(secretBase32: string): TOTP {
  return new TOTP({ secret: Secret.fromBase32(secretBase32), digits: 6, period: 30, algorithm: "SHA1" });
}

export function verifyTotp(secretBase32: string, code: string, now = Date.now()): boolean {
  return totpStep(secretBase32, code, now) !== null;
}

/** The time step `code` belongs to (within one step of now), or null when it is not valid now. */
export function totpStep(secretBase32: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = totpFor(secretBase32);
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

export function currentTotp(secretBase32: string, now = Date.now()): string {
  return totpFor(secretBase32).generate({ timestamp: now });
}
