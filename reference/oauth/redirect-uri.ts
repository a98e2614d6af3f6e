/**
 * The redirect_uri rules of the seed (Authentication › Redirect URI): optional, defaulting to the
 * registered callback URL; when given, its scheme, host and port must equal the callback's and
 * its path must be the callback's path or below it at a `/` boundary (`/callback/sub`, not
 * `/callbackx`). A fragment, userinfo, or a value that is not an absolute URL, does not match.
 *
 * Scheme, host and port are compared as written, not as a WHATWG parser would repair them
 * (DECISIONS: Redirect URI host and port as written): only the case of scheme and host and an
 * explicit default port (`http://a:80/` for `http://a/`) may differ from the callback. Other
 * spellings a parser maps onto the callback's host (`2130706433`, `0x7f000001`, `0177.0.0.1`,
 * `127.1`, a trailing dot, fullwidth digits, `:08080`, `http:/a`, `http:///a`, spaces, an empty
 * `:@` userinfo) do not match: another client's parser may not read them the same way.
 *
 * Paths that another parser could read as somewhere else do not match either (DECISIONS: redirect
 * URI path tricks): a dot segment (`.`, `..`, in any percent-encoding, even one WHATWG would
 * resolve to a path still below the callback), an encoded `/` or `\`, a raw `\`, and NUL or other
 * control characters, raw or encoded, also when encoded twice (`%252F`) or folded from fullwidth
 * forms (NFKC), and escapes that are not valid UTF-8 (`%c0%ae`, `%u002e`). `/callback/..%2Fevil`
 * is a subdirectory to the letter of the rule, but a client that decodes `%2F` before it
 * normalises the path lands outside the callback path.
 */

export type RedirectCheck = { ok: true; uri: string } | { ok: false };

function parse(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function pathWithin(path: string, base: string): boolean {
  if (path === base) return true;
  const prefix = base.endsWith("/") ? base : `${base}/`;
  return path.startsWith(prefix);
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { "http:": "80", "https:": "443" };

/**
 * The scheme, host and port of `value` as written: `scheme://host[:port]` followed by the path,
 * query or nothing. No whitespace or control character anywhere, no userinfo, exactly two slashes,
 * a host of ASCII name characters (or a bracketed IPv6 literal), a port of digits without a
 * leading zero.
 */
const RAW_AUTHORITY = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::([1-9][0-9]{0,4}))?(?=[/?#]|$)/;

/** Whether `given`, as written, names the callback's scheme, host and port (see the header). */
function sameAuthorityAsWritten(given: string, callback: URL): boolean {
  if (/[\u0000-\u0020\u007f]/.test(given)) return false;
  const match = RAW_AUTHORITY.exec(given);
  if (!match) return false;
  const [, scheme, host, port] = match;
  if (`${scheme!.toLowerCase()}:` !== callback.protocol || host!.toLowerCase() !== callback.hostname) return false;
  const effective = (p: string | undefined) => (p === undefined || p === "" ? DEFAULT_PORTS[callback.protocol] : p);
  return effective(port) === effective(callback.port);
}

/** The path of an absolute URL as written, before any parser resolves or re-encodes it. */
function rawPath(value: string): string {
  const match = /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]*[^/\\?#]*([^?#]*)/.exec(value);
  return match?.[1] ?? "";
}

/**
 * Percent-decodes until nothing changes (at most a few rounds), so `%252e` counts as `.`;
 * undefined when an escape is not valid UTF-8 (an overlong `%c0%ae`, IIS's `%u002e`, a stray
 * `%`), which some decoders would still read as a dot or a slash.
 */
function decodeFully(segment: string): string | undefined {
  let current = segment;
  for (let round = 0; round < 4; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return undefined;
    }
    if (next === current) break;
    current = next;
  }
  return current;
}

/** Whether a decoded segment is, or holds, something that changes where a path leads. */
function ambiguousSegment(decoded: string): boolean {
  if (decoded === "." || decoded === "..") return true;
  return /[/\\\u0000-\u001f\u007f]/.test(decoded);
}

/**
 * Whether a path, as written, holds something that decodes to a segment boundary, a dot segment
 * or a control character, also after Unicode compatibility folding (a fullwidth `．．` or `／`
 * becomes `..` or `/` under NFKC).
 */
export function ambiguousPath(path: string): boolean {
  if (path.includes("\\")) return true;
  for (const segment of path.split("/")) {
    const decoded = decodeFully(segment);
    if (decoded === undefined || ambiguousSegment(decoded) || ambiguousSegment(decoded.normalize("NFKC"))) return true;
  }
  return false;
}

/** The redirect target to use, or a mismatch. An empty `given` counts as not given. */
export function resolveRedirectUri(callbackUrl: string, given: string | undefined): RedirectCheck {
  if (given === undefined || given === "" || given === callbackUrl) return { ok: true, uri: callbackUrl };
  const target = parse(given);
  const callback = parse(callbackUrl);
  if (!target || !callback) return { ok: false };
  if (target.hash !== "" || given.includes("#")) return { ok: false };
  if (target.username !== "" || target.password !== "") return { ok: false };
  if (ambiguousPath(rawPath(given))) return { ok: false };
  if (!sameAuthorityAsWritten(given, callback)) return { ok: false };
  const same = target.protocol === callback.protocol && target.hostname === callback.hostname && target.port === callback.port;
  return same && pathWithin(target.pathname, callback.pathname) ? { ok: true, uri: target.href } : { ok: false };
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
