/**
 * The web host's two cookies, read and written by hand (Fastify has no cookie support built in
 * and the project adds no plugin for two values): the sign-in session and the login form's CSRF
 * token. Both are HttpOnly and SameSite=Lax, Secure when the web host is served over https, and
 * hold 64 hex characters; anything else in them is ignored.
 */
import type { IncomingHttpHeaders } from "node:http";

export const SESSION_COOKIE = "service_session";
export const LOGIN_CSRF_COOKIE = "service_login_csrf";

const VALUE = /^[0-9a-f]{64}$/;

/** Our cookie `name` from the request, if present and well-formed (the first one wins). */
export function readCookie(headers: IncomingHttpHeaders, name: string): string | undefined {
  const header = headers.cookie;
  if (typeof header !== "string") return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    if (VALUE.test(value)) return value;
  }
  return undefined;
}

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie. */
  maxAge: number;
  secure: boolean;
}

export function setCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, "Path=/", `Max-Age=${options.maxAge}`, "HttpOnly", "SameSite=Lax"];
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

export function clearCookie(name: string, secure: boolean): string {
  return setCookie(name, "", { maxAge: 0, secure });
}
