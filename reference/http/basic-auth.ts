/**
 * Basic authentication for the operations whose only credential is Basic (the contract's
 * `security: [{basic: []}]`): a user's login and password on the authorizations API, an
 * application's `client_id:client_secret` under `/applications/...`. It runs in the API hooks,
 * before body validation and the rate-limit check, so a failed login is a 401 whatever the body
 * and a signed-in user is counted against their own 5000/hour rather than the address's 60.
 *
 * Users: the password is checked with scrypt (store/accounts), then, for a user with two-factor
 * authentication, the `X-Service-OTP` code (TOTP, auth/totp; each code good once). Brute force: every
 * wrong password or wrong code counts against the claimed login (auth/login-failures.ts, one count
 * shared with the web sign-in); after
 * MAX_FAILED_LOGINS the login is refused with 403 until the window ends, the right password
 * included (otherwise the lockout would only slow an attacker down). Unknown logins count the
 * same way, so the answer never tells which logins exist. Applications: the secret is compared
 * as digests in constant time (store/applications); it is high-entropy, so there is no lockout.
 */
import type { FastifyRequest } from "fastify";
import type { Database } from "../db/database.ts";
import { parseBasic } from "../auth/basic.ts";
import { loginFailed, loginLocked, MAX_FAILED_LOGINS } from "../auth/login-failures.ts";
import { acceptStoredTotp } from "../auth/totp-seeds.ts";
import { authenticatePassword, type Account } from "../store/accounts.ts";
import { verifyClientCredentials, type Application } from "../store/applications.ts";
import type { RateLimiter } from "./rate-limit.ts";

/** Failed logins allowed per login and hour, shared with the web sign-in (auth/login-failures.ts). */
export { MAX_FAILED_LOGINS };

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

  const login = credentials.username;
  if (await loginLocked(limiter, login)) return refused(403, MESSAGES.lockout);
  const user = await authenticatePassword(db, login, credentials.password);
  if (!user) {
    await loginFailed(limiter, login);
    return refused(401, MESSAGES.bad);
  }
  if (user.two_factor) {
    const code = request.headers["x-service-otp"];
    // No code yet is the normal first step of a two-factor client, not a failed attempt.
    if (code === undefined) return refused(401, MESSAGES.otp, user.two_factor);
    // A code is spent once accepted: a replayed one is a wrong one.
    const valid = typeof code === "string" && (await acceptStoredTotp(db, user, code.trim(), now()));
    if (!valid) {
      await loginFailed(limiter, login);
      return refused(401, MESSAGES.otp, user.two_factor);
    }
  }
  return { kind: "user", user };
}
