/**
 * Signing in and out on the web host (`POST /session`, `POST /session/end`; outside the
 * contract). Sign-in checks the login form's double-submit CSRF token and the Origin, then the
 * password (scrypt, store/accounts) and, for a user with two-factor authentication, the TOTP code.
 * Wrong passwords and wrong codes count against the login in one-hour windows, in the same count
 * as Basic authentication on the API (auth/login-failures.ts); a locked login is refused even
 * with the right password, and a two-factor code is good once, whichever host accepted it. A new session id is issued at every sign-in (no session
 * fixation) and the user goes back to the page that asked (a same-site path only).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Context } from "../context.ts";
import { loginFailed, loginLocked } from "../auth/login-failures.ts";
import { acceptStoredTotp } from "../auth/totp-seeds.ts";
import type { RateLimiter } from "../http/rate-limit.ts";
import { authenticatePassword } from "../store/accounts.ts";
import { createSession, deleteSession } from "../store/sessions.ts";
import { targetsForReturn } from "./authorize.ts";
import { fromThisSite, tokensMatch } from "./csrf.ts";
import { readForm, safeReturnTo, sendPage, sendRedirect } from "./forms.ts";
import { page, html } from "./html.ts";
import { errorPage, loginPage, signedOutPage } from "./pages.ts";
import { endLoginCsrfCookie, endSessionCookie, loginCsrf, loginCsrfCookieValue, sessionCookie, signedIn } from "./web-session.ts";

const MESSAGES = {
  csrf: "Your sign-in form expired or did not come from this site. Please try again.",
  bad: "Incorrect username or password.",
  otpMissing: "Two-factor authentication is on for this account: enter the 6-digit code from your authenticator app.",
  otpBad: "That two-factor code is not valid. Please try again.",
  lockout: "Too many failed sign-in attempts for this account. Please try again later.",
} as const;

export function signInRoute(ctx: Context, limiter: RateLimiter) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const form = readForm(request);
    if (!form.ok) return sendPage(reply, errorPage(form.status, "Bad request", form.reason));
    const f = form.fields;
    const returnTo = safeReturnTo(f.return_to);
    const login = f.login ?? "";

    /** The login page again, with a message, a fresh token if needed, and the status. */
    const again = async (status: number, error: string) => {
      const csrf = loginCsrf(ctx, request.headers);
      const p = loginPage({ returnTo: returnTo ?? "", csrf: csrf.token, error, login, status, formTargets: returnTo ? await targetsForReturn(ctx, returnTo) : [] });
      return sendPage(reply, p, csrf.cookie ? [csrf.cookie] : []);
    };

    if (!tokensMatch(loginCsrfCookieValue(request.headers), f.csrf_token) || !fromThisSite(ctx, request.headers)) return again(403, MESSAGES.csrf);
    if (await loginLocked(limiter, login)) return again(429, MESSAGES.lockout);
    const user = await authenticatePassword(ctx.db, login, f.password ?? "");
    if (!user) {
      await loginFailed(limiter, login);
      return again(401, MESSAGES.bad);
    }
    if (user.two_factor) {
      const otp = (f.otp ?? "").trim();
      // No code yet is the normal first try of a two-factor user, not a failed attempt.
      if (otp === "") return again(401, MESSAGES.otpMissing);
      if (!(await acceptStoredTotp(ctx.db, user, otp, ctx.now().getTime()))) {
        await loginFailed(limiter, login);
        return again(401, MESSAGES.otpBad);
      }
    }

    const old = await signedIn(ctx, request.headers);
    if (old) await deleteSession(ctx.db, old.sessionId);
    const session = await createSession(ctx.db, user.id, ctx.now());
    const cookies = [sessionCookie(ctx, session.id), endLoginCsrfCookie(ctx)];
    if (returnTo) return sendRedirect(reply, returnTo, cookies, await targetsForReturn(ctx, returnTo));
    return sendPage(reply, page("Signed in", html`<div class="card"><h1>Signed in</h1><p>You are signed in as <strong>${user.login}</strong>.</p></div>`), cookies);
  };
}

export function signOutRoute(ctx: Context) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const form = readForm(request);
    if (!form.ok) return sendPage(reply, errorPage(form.status, "Bad request", form.reason));
    const who = await signedIn(ctx, request.headers);
    if (who) {
      if (!tokensMatch(who.session.csrfToken, form.fields.csrf_token) || !fromThisSite(ctx, request.headers)) {
        return sendPage(reply, errorPage(403, "Forbidden", "This form has expired or did not come from this site."));
      }
      await deleteSession(ctx.db, who.sessionId);
    }
    const returnTo = safeReturnTo(form.fields.return_to);
    const cookies = [endSessionCookie(ctx)];
    return returnTo ? sendRedirect(reply, returnTo, cookies) : sendPage(reply, signedOutPage(), cookies);
  };
}
