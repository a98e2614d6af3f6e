/**
 * Basic authentication for the operations whose only credential is Basic (the contract's
 * `security: [{basic: []}]`): a user's login and password on the authorizations API, an
 * application's `client_id:client_secret` under `/applications/...`. It runs in the API hooks,
 * before body validation and the rate-limit check, so a failed login is a 401 whatever the body
 * and a signed-in user is counted against their own 5000/hour rather than the address's 60.
 *
 * Users: the password is checked with scrypt (store/accounts), then, for a user with two-factor
 * authentication, the `X-Service-OTP` code (TOTP, auth/totp; each code is accepted once). Brute force: every wrong password or
 * wrong code counts against the claimed login in the rate limiter's one-hour windows (memory on
 * PGlite, the `rate_limits` table on PostgreSQL, so instances count together); after
 * MAX_FAILED_LOGINS the login is refused with 403 until the window ends, the right password
 * included (otherwise the lockout would only slow an attacker down). Unknown logins count the
 * same way, so the answer never tells which logins exist. Applications: the secret is compared
 * as digests in constant time (store/applications); it is high-entropy, so there is no lockout.
 */
import type { FastifyRequest } from "fastify";
import type { Database } from "../db/database.ts";
import { parseBasic } from "../auth/basic.ts";
import { sha256Hex } from "../auth/secrets.ts";
import { consumeStoredTotp } from "../auth/totp-seeds.ts";
import { authenticatePassword, type Account } from "../store/accounts.ts";
import { verifyClientCredentials, type Application } from "../store/applications.ts";
import { remaining, type RateLimiter } from "./rate-limit.ts";

/** Failed Basic logins (wrong password or wrong two-factor code) allowed per login and hour. */
export const MAX_FAILED_LOGINS = 10;

export const MESSAGES = {
  missing: "Requires authentication",
  bad: "Bad credentials",
  otp: "Must specify two-factor authentication OTP code.",
  lockout: "Maximum number of login attempts exceeded. Please try again later.",
} as const;

export type BasicOutcome =
  | { kind: "user"; user: Account }
  | { kind: "app"; app: Application }
  | { kind: "refused"; status: 401 | 403; message: string; otp?: "app" | "sms" };

/** Which credentials an operation takes: applications manage their tokens under /applications/. */
export function basicKind(routeUrl: string): "user" | "app" {
  return routeUrl.startsWith("/applications/") ? "app" : "user";
}

function refused(status: 401 | 403, message: string, otp?: "app" | "sms"): BasicOutcome {
  return otp ? { kind: "refused", status, message, otp } : { kind: "refused", status, message };
}

/** The limiter key of a login's failures; hashed so made-up logins cannot grow keys without bound. */
function failureKey(login: string): string {
  return `basic-failures:${sha256Hex(login.toLowerCase())}`;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  // A repeated header is not one credential: treat it as malformed rather than pick one.
  return Array.isArray(value) ? undefined : value;
}

export async function authenticateBasic(
  db: Database,
  limiter: RateLimiter,
  request: FastifyRequest,
  kind: "user" | "app",
  now: () => number = Date.now,
): Promise<BasicOutcome> {
  const header = headerValue(request.headers.authorization);
  if (header === undefined || !/^basic(\s|$)/i.test(header)) return refused(401, MESSAGES.missing);
  const credentials = parseBasic(header);
  if (!credentials) return refused(401, MESSAGES.bad);

  if (kind === "app") {
    const app = await verifyClientCredentials(db, credentials.username, credentials.password);
    return app ? { kind: "app", app } : refused(401, MESSAGES.bad);
  }

  const key = failureKey(credentials.username);
  if (remaining(await limiter.peek(key, MAX_FAILED_LOGINS)) === 0) return refused(403, MESSAGES.lockout);
  const user = await authenticatePassword(db, credentials.username, credentials.password);
  if (!user) {
    await limiter.consume(key, MAX_FAILED_LOGINS);
    return refused(401, MESSAGES.bad);
  }
  if (user.two_factor) {
    const code = request.headers["x-service-otp"];
    // No code yet is the normal first step of a two-factor client, not a failed attempt.
    if (code === undefined) return refused(401, MESSAGES.otp, user.two_factor);
    const valid = typeof code === "string" && (await consumeStoredTotp(db, user, code.trim(), now()));
    if (!valid) {
      await limiter.consume(key, MAX_FAILED_LOGINS);
      return refused(401, MESSAGES.otp, user.two_factor);
    }
  }
  return { kind: "user", user };
}
