/**
 * Failed logins, one count per account whichever door was tried: Basic authentication on the API
 * (http/basic-auth.ts) and the sign-in form on the web host (oauth/sign-in.ts) check the same
 * password, so they share one counter — otherwise ten guesses a door would make twenty an hour.
 * Counted in the rate limiter's one-hour windows (memory on PGlite, given to both hosts by
 * server.ts; the `rate_limits` table on PostgreSQL, so instances count together too). The key is
 * a digest of the lower-cased login, so made-up logins cannot grow keys without bound and an
 * unknown login counts like a known one.
 */
import { sha256Hex } from "./secrets.ts";
import { remaining, type RateLimiter } from "../http/rate-limit.ts";

/** Failed logins (wrong password or wrong two-factor code) allowed per login and hour, both doors together; `serve --failed-logins` sets another. */
export const MAX_FAILED_LOGINS = 10;

/** The number this server allows: its limiter's, else MAX_FAILED_LOGINS. */
export function failedLoginLimit(limiter: RateLimiter): number {
  return limiter.limits.failedLogins ?? MAX_FAILED_LOGINS;
}

function failureKey(login: string): string {
  return `login-failures:${sha256Hex(login.toLowerCase())}`;
}

/** Whether the login has used up its failures for this window. */
export async function loginLocked(limiter: RateLimiter, login: string): Promise<boolean> {
  return remaining(await limiter.peek(failureKey(login), failedLoginLimit(limiter))) === 0;
}

/** Counts one failed login. */
export async function loginFailed(limiter: RateLimiter, login: string): Promise<void> {
  await limiter.consume(failureKey(login), failedLoginLimit(limiter));
}
