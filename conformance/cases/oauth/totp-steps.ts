/**
 * Two-factor codes for requests that must succeed (seed: two-factor authentication handled where
 * enabled; D-NONWEB-TWO-FACTOR: each code good once, none of an earlier time step than the last
 * accepted). A case spends a step when it creates a token, and its clean-up must delete that token
 * with a later step's code — so a run spends two steps, and a rerun straight after finds its
 * steps spent. `withFreshCode` sends the code of the first step no request of this process spent
 * (remembered per target and user), at once when that step is the next one (RFC 6238 §5.2's
 * tolerance for one step of drift, which most targets allow), and when the target refuses it:
 * once that step has begun (a target taking only the current step's), or the next step's (the
 * step was spent by another process). At most three attempts and one period's wait or two.
 */
import { Secret, TOTP } from "otpauth";
import type { CaseContext } from "../../core/types.ts";
import type { ProfileTwoFactorUser } from "../../core/profile.ts";
import type { HttpResponse } from "../../core/http.ts";

function totpOf(user: ProfileTwoFactorUser): TOTP {
  return new TOTP({ secret: Secret.fromBase32(user.totpSecret.toUpperCase()), digits: user.digits ?? 6, period: user.period ?? 30, algorithm: user.algorithm ?? "SHA1" });
}

/** The user's code of the time step `offset` steps from now (RFC 6238). */
export function totpCode(user: ProfileTwoFactorUser, offset = 0, now = Date.now()): string {
  return totpOf(user).generate({ timestamp: now + offset * (user.period ?? 30) * 1000 });
}

const periodOf = (user: ProfileTwoFactorUser) => (user.period ?? 30) * 1000;

/** The time step a code of `user` belongs to, among the steps near now (undefined: none of them). */
export function stepOfCode(user: ProfileTwoFactorUser, code: string, now = Date.now()): number | undefined {
  const step = Math.floor(now / periodOf(user));
  for (const offset of [0, -1, 1, -2, 2, -3, 3]) if (totpCode(user, offset, now) === code) return step + offset;
  return undefined;
}

/** The last step a request of this process had accepted, per target and user. */
const spent = new Map<string, number>();
const keyOf = (ctx: CaseContext, user: ProfileTwoFactorUser) => `${ctx.baseUrl} ${user.login.toLowerCase()}`;

/** Records that the target accepted `code` (a 2xx answer to a request carrying it). */
export function codeAccepted(ctx: CaseContext, user: ProfileTwoFactorUser, code: string): void {
  const step = stepOfCode(user, code);
  if (step !== undefined) spent.set(keyOf(ctx, user), Math.max(step, spent.get(keyOf(ctx, user)) ?? step));
}

/** Waits (in short sleeps, bounded) until the time step `step` has begun. */
async function untilStep(user: ProfileTwoFactorUser, step: number, now: () => number): Promise<void> {
  const period = periodOf(user);
  for (let i = 0; i < (2 * period) / 250 + 8 && Math.floor(now() / period) < step; i++) await new Promise((r) => setTimeout(r, Math.min(250, Math.max(1, step * period - now()))));
}

/**
 * Sends `send(code)` with a code no request of this process spent, later than `after` (a code this
 * case sent last); answers the last response and the code it carried. `onRetry` hears why a
 * code was sent again.
 */
export async function withFreshCode(
  ctx: CaseContext,
  user: ProfileTwoFactorUser,
  send: (code: string) => Promise<HttpResponse>,
  options: { after?: string; onRetry?: (why: string) => void; now?: () => number } = {},
): Promise<{ res: HttpResponse; code: string }> {
  const now = options.now ?? Date.now;
  const period = periodOf(user);
  const afterStep = options.after !== undefined ? stepOfCode(user, options.after, now()) : undefined;
  const last = Math.max(spent.get(keyOf(ctx, user)) ?? -Infinity, afterStep ?? -Infinity);
  let step = Math.max(Math.floor(now() / period), last + 1);
  await untilStep(user, step - 1, now);
  for (let attempt = 0; ; attempt++) {
    const code = totpCode(user, 0, step * period + 1);
    const res = await send(code);
    if (res.status >= 200 && res.status < 300) codeAccepted(ctx, user, code);
    if (res.status !== 401 || attempt === 2) return { res, code };
    if (Math.floor(now() / period) < step) {
      options.onRetry?.(`the code of the next time step was refused; waited ${Math.ceil((step * period - now()) / 1000)} s for that step to begin`);
      await untilStep(user, step, now);
    } else {
      options.onRetry?.("the current time step's code was refused (an earlier run may have used it); sent the next step's");
      step += 1;
    }
  }
}
