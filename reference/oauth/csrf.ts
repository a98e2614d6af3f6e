/**
 * Cross-site request forgery defences of the web host's form posts, in depth: every form carries
 * a token (the session's for signed-in forms, a double-submit cookie for the login form) compared
 * in constant time, the cookies are SameSite=Lax, and the request's Origin (or, without one, its
 * Referer) must be this host. A request with neither header relies on the token alone, as OWASP
 * recommends; browsers send Origin on every POST.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Context } from "../context.ts";
import { constantTimeEqual } from "../auth/secrets.ts";

function origin(value: string): string | undefined {
  try {
    const o = new URL(value).origin;
    return o === "null" ? undefined : o;
  } catch {
    return undefined;
  }
}

/**
 * Whether Origin/Referer name this host: the advertised web URL, or the Host the request was sent
 * to (a forged cross-site request still carries the victim's Host but the attacker's Origin).
 */
export function fromThisSite(ctx: Context, headers: IncomingHttpHeaders): boolean {
  const allowed = new Set<string>();
  const advertised = origin(ctx.urls.auth);
  if (advertised) allowed.add(advertised);
  if (typeof headers.host === "string" && advertised) {
    const own = origin(`${new URL(advertised).protocol}//${headers.host}`);
    if (own) allowed.add(own);
  }
  const claimed = headers.origin ?? headers.referer;
  if (claimed === undefined) return true;
  if (typeof claimed !== "string") return false;
  const o = origin(claimed);
  return o !== undefined && allowed.has(o);
}

export function tokensMatch(expected: string | undefined, given: unknown): boolean {
  return typeof expected === "string" && expected !== "" && typeof given === "string" && given !== "" && constantTimeEqual(expected, given);
}
