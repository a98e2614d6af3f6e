/**
 * Two-factor codes (TOTP, RFC 6238: 6 digits, 30 s, SHA-1, as authenticator apps use), checked
 * with otpauth, allowing one step of clock drift either way.
 */
import { Secret, TOTP } from "otpauth";

export function totpFor(secretBase32: string): TOTP {
  return new TOTP({ secret: Secret.fromBase32(secretBase32), digits: 6, period: 30, algorithm: "SHA1" });
}

export function verifyTotp(secretBase32: string, code: string, now = Date.now()): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  return totpFor(secretBase32).validate({ token: code, timestamp: now, window: 1 }) !== null;
}

export function currentTotp(secretBase32: string, now = Date.now()): string {
  return totpFor(secretBase32).generate({ timestamp: now });
}
