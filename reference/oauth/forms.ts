/**
 * The plumbing of the hand-registered form posts: reading a URL-encoded body (whatever Fastify's
 * content-type parser left: the generated runtime installs a catch-all that keeps the raw bytes),
 * checking where a post may send the user afterwards, and writing a page or a redirect with the
 * pages' security headers.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Page } from "./html.ts";
import { securityHeaders } from "./html.ts";

export type FormResult = { ok: true; fields: Record<string, string> } | { ok: false; status: 400 | 415; reason: string };

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function readForm(request: FastifyRequest): FormResult {
  const type = String(request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return { ok: false, status: 415, reason: "The form must be sent as application/x-www-form-urlencoded." };
  const body = request.body;
  let text: string;
  try {
    text = Buffer.isBuffer(body) ? utf8.decode(body) : typeof body === "string" ? body : "";
  } catch {
    return { ok: false, status: 400, reason: "The form is not valid UTF-8." };
  }
  const fields: Record<string, string> = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    // A field sent twice is ambiguous (which one did the user mean?): refuse rather than guess.
    if (key in fields) return { ok: false, status: 400, reason: `The form field "${key}" was sent more than once.` };
    fields[key] = value;
  }
  return { ok: true, fields };
}

/**
 * A same-site path to send the user to after signing in or out; anything else (absolute URLs,
 * `//host`, `/\host`, control characters) becomes undefined, so no form can be turned into an
 * open redirect. The check is on what is actually sent: the path resolved (dot segments, `%2e`)
 * must still start with one `/` and not `//` or `/\` — `/.//evil.test` resolves to
 * `//evil.test`, which a browser reads as another host — and resolving it again must change
 * nothing, so the browser lands where this check looked.
 */
export function safeReturnTo(value: string | undefined): string | undefined {
  if (!value || value.length > 8192 || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return undefined;
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return undefined;
  const resolve = (path: string): string | undefined => {
    try {
      const url = new URL(path, "http://same.invalid");
      return url.origin === "http://same.invalid" ? url.pathname + url.search : undefined;
    } catch {
      return undefined;
    }
  };
  const resolved = resolve(value);
  if (resolved === undefined || !/^\/(?![/\\])/.test(resolved) || resolve(resolved) !== resolved) return undefined;
  return resolved;
}

export async function sendPage(reply: FastifyReply, p: Page, cookies: readonly string[] = []): Promise<void> {
  reply.code(p.status).headers(p.headers).header("content-type", "text/html; charset=utf-8");
  if (cookies.length > 0) reply.header("set-cookie", cookies);
  await reply.send(p.body);
}

export async function sendRedirect(reply: FastifyReply, location: string, cookies: readonly string[] = [], formTargets: readonly string[] = []): Promise<void> {
  reply.code(303).headers(securityHeaders(formTargets)).header("location", location);
  if (cookies.length > 0) reply.header("set-cookie", cookies);
  await reply.send();
}
