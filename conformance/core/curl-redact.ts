/**
 * Secrets out of the repro `curl` lines the reports print (HTML, JSON, the terminal): a report is
 * shared and archived, and the profile's password and client secret must not travel with it. The
 * line stays runnable: the secret becomes a shell variable the reader sets first —
 * `$CONFORMANCE_PASSWORD` for a user's Basic password, `$CONFORMANCE_CLIENT_SECRET` for an
 * application's secret (Basic on `/applications/…`, or `client_secret` in a query or a body,
 * whatever its JSON type), `$CONFORMANCE_OTP` for a two-factor code. The profile's other secrets
 * (tokens, a TOTP secret, a trigger's admin token) are found by value (secret-redact.ts).
 */
import type { SentRequest } from "./http.ts";

export const PASSWORD_VARIABLE = "CONFORMANCE_PASSWORD";
export const CLIENT_SECRET_VARIABLE = "CONFORMANCE_CLIENT_SECRET";
export const OTP_VARIABLE = "CONFORMANCE_OTP";
/** The most of a request body a curl line carries. */
export const CURL_BODY_LIMIT = 16 * 1024;

/** Marks a variable inside a string until it is quoted (NUL never occurs in a recorded request). */
const mark = (variable: string) => `\u0000${variable}\u0000`;

/** One shell word: single-quoted text, with marked variables in double quotes between the pieces. */
export function shellWord(s: string): string {
  return s
    .split(/\u0000([A-Z_]+)\u0000/)
    .map((piece, i) => (i % 2 === 1 ? `"$${piece}"` : piece === "" ? "" : `'${piece.replace(/'/g, `'\\''`)}'`))
    .join("") || "''";
}

/**
 * `client_secret=<value>` in a query or a form body, and `"client_secret": <value>` in JSON,
 * marked — whatever the JSON value's type: a string, a number, or every string and number inside
 * an array or an object (a case sends `"client_secret": [secret]` to see it refused).
 */
function markClientSecret(text: string): string {
  const query = text.replace(/((?:^|[?&])client_secret=)[^&#]*/g, (_m, key: string) => `${key}${mark(CLIENT_SECRET_VARIABLE)}`);
  let out = "";
  let from = 0;
  const key = /"client_secret"\s*:\s*/g;
  for (let m = key.exec(query); m !== null; m = key.exec(query)) {
    const start = m.index + m[0].length;
    const end = jsonValueEnd(query, start);
    out += query.slice(from, start) + markScalars(query.slice(start, end));
    from = end;
    key.lastIndex = end;
  }
  return out + query.slice(from);
}

/** Where the JSON value starting at `start` ends (brackets balanced, strings skipped); linear. */
function jsonValueEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      i = stringEnd(text, i) - 1;
      if (depth === 0) return i + 1;
    } else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && (c === "," || /\s/.test(c))) return i;
  }
  return text.length;
}

/** The index just past the JSON string opening at `open` (or the end of the text). */
function stringEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/** Every string's content and every number in a piece of JSON, marked as the client secret. */
function markScalars(json: string): string {
  let out = "";
  for (let i = 0; i < json.length; ) {
    if (json[i] === '"') {
      const end = stringEnd(json, i);
      // A key inside an object stays (it is no secret, and the line must still send it).
      out += /^\s*:/.test(json.slice(end, end + 64)) ? json.slice(i, end) : `"${mark(CLIENT_SECRET_VARIABLE)}"`;
      i = end;
    } else if (/[-0-9]/.test(json[i]!)) {
      let end = i;
      while (end < json.length && /[-+0-9.eE]/.test(json[end]!)) end++;
      out += mark(CLIENT_SECRET_VARIABLE);
      i = end;
    } else out += json[i++];
  }
  return out;
}

/** A Basic header as `-u user:$VARIABLE`, or undefined when it is not a readable Basic header. */
function basicUser(value: string, url: string): string | undefined {
  const m = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0 || decoded.includes("\u0000")) return undefined;
  const variable = /\/applications\//.test(url) ? CLIENT_SECRET_VARIABLE : PASSWORD_VARIABLE;
  return shellWord(`${decoded.slice(0, colon + 1)}${mark(variable)}`);
}

/** The parts of a curl command for the request, secrets replaced by variables. */
export function redactedCurlParts(e: SentRequest): string[] {
  const parts = ["curl", "-i", "-X", e.method, shellWord(markClientSecret(e.url))];
  for (const [k, v] of Object.entries(e.requestHeaders)) {
    const user = k.toLowerCase() === "authorization" ? basicUser(v, e.url) : undefined;
    if (user !== undefined) parts.push("-u", user);
    // A Basic header that cannot be read back is still a credential: the variable stands for it whole.
    else if (k.toLowerCase() === "authorization" && /^basic\s/i.test(v)) parts.push("-H", shellWord(`${k}: Basic ${mark(PASSWORD_VARIABLE)}`));
    // A one-time code of the profile's two-factor user: spent, but derived from its TOTP secret.
    else if (k.toLowerCase() === "x-service-otp" && /^\d+$/.test(v.trim())) parts.push("-H", shellWord(`${k}: ${mark(OTP_VARIABLE)}`));
    else parts.push("-H", shellWord(`${k}: ${v}`));
  }
  if (e.requestBody !== undefined && e.requestBody.length > CURL_BODY_LIMIT) {
    // A body of megabytes (a size-limit case sends one) would make every report megabytes: the
    // line keeps its beginning and says so; it no longer reproduces the request exactly.
    parts.push("--data-raw", shellWord(markClientSecret(e.requestBody.slice(0, CURL_BODY_LIMIT))), `# the body is cut here: its first ${CURL_BODY_LIMIT} of ${e.requestBody.length} characters`);
  } else if (e.requestBody !== undefined) parts.push("--data-raw", shellWord(markClientSecret(e.requestBody)));
  return parts;
}
