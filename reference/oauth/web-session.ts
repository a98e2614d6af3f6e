/**
 * Who is signed in on the web host, and the login form's CSRF token. The session cookie names a
 * row of store/sessions; the login form, used before any session exists, protects itself with a
 * double-submit cookie (the same random value in a cookie and in the form).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Context } from "../context.ts";
import { randomHex } from "../auth/secrets.ts";
import { findAccountById, type Account } from "../store/accounts.ts";
import { findSession, SESSION_LIFETIME_MS, type Session } from "../store/sessions.ts";
import { clearCookie, LOGIN_CSRF_COOKIE, readCookie, SESSION_COOKIE, setCookie } from "./cookies.ts";

export interface SignedIn {
  user: Account;
  session: Session;
  /** The cookie value (needed to end the session). */
  sessionId: string;
}

export function secureCookies(ctx: Context): boolean {
  return ctx.urls.auth.startsWith("https:");
}

export async function signedIn(ctx: Context, headers: IncomingHttpHeaders): Promise<SignedIn | undefined> {
  const sessionId = readCookie(headers, SESSION_COOKIE);
  if (!sessionId) return undefined;
  const session = await findSession(ctx.db, sessionId, ctx.now());
  if (!session) return undefined;
  const user = await findAccountById(ctx.db, session.userId);
  return user && user.type === "User" ? { user, session, sessionId } : undefined;
}

export function sessionCookie(ctx: Context, sessionId: string): string {
  return setCookie(SESSION_COOKIE, sessionId, { maxAge: Math.floor(SESSION_LIFETIME_MS / 1000), secure: secureCookies(ctx) });
}

export function endSessionCookie(ctx: Context): string {
  return clearCookie(SESSION_COOKIE, secureCookies(ctx));
}

/** One hour is plenty to fill in a login form. */
const LOGIN_CSRF_MAX_AGE = 3600;

/** The login form's token: the browser's existing one (other tabs keep working), else a new one. */
export function loginCsrf(ctx: Context, headers: IncomingHttpHeaders): { token: string; cookie?: string } {
  const existing = readCookie(headers, LOGIN_CSRF_COOKIE);
  if (existing) return { token: existing };
  const token = randomHex(32);
  return { token, cookie: setCookie(LOGIN_CSRF_COOKIE, token, { maxAge: LOGIN_CSRF_MAX_AGE, secure: secureCookies(ctx) }) };
}

export function loginCsrfCookieValue(headers: IncomingHttpHeaders): string | undefined {
  return readCookie(headers, LOGIN_CSRF_COOKIE);
}

export function endLoginCsrfCookie(ctx: Context): string {
  return clearCookie(LOGIN_CSRF_COOKIE, secureCookies(ctx));
}
