/**
 * The redirect_uri rules of the seed (Authentication › Redirect URI): optional, defaulting to the
 * registered callback URL; when given, its scheme, host and port must equal the callback's and
 * its path must be the callback's path or below it at a `/` boundary (`/callback/sub`, not
 * `/callbackx`). Parsing is WHATWG URL parsing, so `..` and `%2e%2e` segments are resolved
 * before the path is compared, and `http://a:80/` equals `http://a/`. A fragment, or a value that
 * is not an absolute URL, does not match.
 */
import type { Fault } from "../faults.ts";

export type RedirectCheck = { ok: true; uri: string } | { ok: false };

function parse(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function pathWithin(path: string, base: string, faults?: ReadonlySet<Fault>): boolean {
  if (path === base) return true;
  if (faults?.has("redirect-prefix")) return path.startsWith(base);
  const prefix = base.endsWith("/") ? base : `${base}/`;
  return path.startsWith(prefix);
}

/** The redirect target to use, or a mismatch. An empty `given` counts as not given. */
export function resolveRedirectUri(callbackUrl: string, given: string | undefined, faults?: ReadonlySet<Fault>): RedirectCheck {
  if (given === undefined || given === "") return { ok: true, uri: callbackUrl };
  const target = parse(given);
  const callback = parse(callbackUrl);
  if (!target || !callback) return { ok: false };
  if (target.hash !== "" || given.includes("#")) return { ok: false };
  if (target.username !== "" || target.password !== "") return { ok: false };
  const same = target.protocol === callback.protocol && target.hostname === callback.hostname && target.port === callback.port;
  return same && pathWithin(target.pathname, callback.pathname, faults) ? { ok: true, uri: target.href } : { ok: false };
}

/** `uri` with `params` added to its query (existing parameters of the same name are replaced). */
export function withQuery(uri: string, params: Readonly<Record<string, string | undefined>>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.href;
}

/** The origin of a URL, for Content-Security-Policy `form-action` (redirects after a form post). */
export function originOf(uri: string): string | undefined {
  const url = parse(uri);
  return url && url.origin !== "null" ? url.origin : undefined;
}
