/**
 * Secrets out of the repro `curl` lines the reports print (HTML, JSON, the terminal): a report is
 * shared and archived, and the profile's password and client secret must not travel with it. The
 * line stays runnable: the secret becomes a shell variable the reader sets first —
 * `$CONFORMANCE_PASSWORD` for a user's Basic password, `$CONFORMANCE_CLIENT_SECRET` for an
 * application's secret (Basic on `/applications/…`, or `client_secret` in a query or a body).
 */
import type { SentRequest } from "./http.ts";

export const PASSWORD_VARIABLE = "CONFORMANCE_PASSWORD";
export const CLIENT_SECRET_VARIABLE = "CONFORMANCE_CLIENT_SECRET";

/** Marks a variable inside a string until it is quoted (NUL never occurs in a recorded request). */
const mark = (variable: string) => `\u0000${variable}\u0000`;

/** One shell word: single-quoted text, with marked variables in double quotes between the pieces. */
export function shellWord(s: string): string {
  return s
    .split(/\u0000([A-Z_]+)\u0000/)
    .map((piece, i) => (i % 2 === 1 ? `"$${piece}"` : piece === "" ? "" : `'${piece.replace(/'/g, `'\\''`)}'`))
    .join("") || "''";
}

/** `client_secret=<value>` in a query or a form body, and `"client_secret": "<value>"` in JSON, marked. */
function markClientSecret(text: string): string {
  return text
    .replace(/((?:^|[?&])client_secret=)[^&#]*/g, (_m, key: string) => `${key}${mark(CLIENT_SECRET_VARIABLE)}`)
    .replace(/("client_secret"\s*:\s*")(?:[^"\\]|\\.)*(")/g, (_m, open: string, close: string) => `${open}${mark(CLIENT_SECRET_VARIABLE)}${close}`);
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
    else parts.push("-H", shellWord(`${k}: ${v}`));
  }
  if (e.requestBody !== undefined) parts.push("--data-raw", shellWord(markClientSecret(e.requestBody)));
  return parts;
}
