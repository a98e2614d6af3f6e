// oauth-rules.ts — OAuth rules shared by the web host: redirect_uri matching, error descriptions, and the
// token endpoint's response formats (form, JSON or XML by Accept).
import type { FastifyReply } from "fastify";

/** Same scheme, host and port as the callback; path equal to the callback path or below it. */
export function redirectAllowed(callback: string, given: string): boolean {
  let cb: URL, u: URL;
  try { cb = new URL(callback); u = new URL(given); } catch { return false; }
  if (cb.protocol !== u.protocol || cb.host !== u.host || u.username !== "" || u.password !== "") return false;
  const base = cb.pathname.endsWith("/") ? cb.pathname : `${cb.pathname}/`;
  return u.pathname === cb.pathname || u.pathname.startsWith(base);
}

export const OAUTH_ERRORS: Record<string, string> = {
  application_suspended: "Your application has been suspended. Contact support.",
  redirect_uri_mismatch: "The redirect_uri MUST match the registered callback URL for this application.",
  access_denied: "The user has denied your application access.",
  incorrect_client_credentials: "The client_id and/or client_secret passed are incorrect.",
  bad_verification_code: "The code passed is incorrect or expired.",
};
export const errorUri = (web: string, error: string): string => `${web}/developer/v3/oauth/#${error.replace(/_/g, "-")}`;
export const errorPairs = (web: string, error: string): [string, string][] =>
  [["error", error], ["error_description", OAUTH_ERRORS[error] ?? error], ["error_uri", errorUri(web, error)]];

const XML_ORDER = ["token_type", "scope", "access_token", "error", "error_description", "error_uri"];
const xmlEscape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Writes the token endpoint answer in the format the Accept header asks for (default: URL-encoded form). */
export function tokenReply(reply: FastifyReply, accept: string, status: number, pairs: [string, string][]): FastifyReply {
  reply.code(status).header("Cache-Control", "no-store");
  if (/application\/json/i.test(accept)) {
    return reply.type("application/json; charset=utf-8").send(JSON.stringify(Object.fromEntries(pairs)));
  }
  if (/(application|text)\/xml/i.test(accept)) {
    const sorted = [...pairs].sort((a, b) => XML_ORDER.indexOf(a[0]) - XML_ORDER.indexOf(b[0]));
    const body = sorted.map(([k, v]) => `<${k}>${xmlEscape(v)}</${k}>`).join("");
    return reply.type("application/xml; charset=utf-8").send(`<?xml version="1.0" encoding="UTF-8"?>\n<OAuth>${body}</OAuth>`);
  }
  return reply.type("application/x-www-form-urlencoded; charset=utf-8").send(new URLSearchParams(pairs).toString());
}
