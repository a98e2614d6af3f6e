/**
 * How the token exchange learns which client is calling (spec/DECISIONS.md, D-OAUTH-CLIENT-BASIC):
 * the seed's `client_id` / `client_secret` body parameters, or HTTP Basic authentication (RFC 6749
 * §2.3.1, which an authorization server MUST support and which simple-oauth2 and openid-client
 * send by default): `Authorization: Basic base64(urlencode(client_id):urlencode(client_secret))`.
 *
 * One method a request (RFC 6749 §2.3): Basic together with a `client_secret` in the body, or with
 * a body `client_id` naming another client, is refused like wrong credentials. A body `client_id`
 * equal to the Basic one is allowed (clients send it; it says nothing more). A Basic header that
 * cannot be read (bad base64, no colon, a bad escape) is wrong credentials too, never a fallback
 * to the body. Another scheme in `Authorization` is not client authentication and is not read.
 * The secret itself is compared where it always is, in constant time (store/applications.ts).
 */
import type { TokenFields } from "./token.ts";

export type ClientAuthentication = { ok: true; fields: TokenFields } | { ok: false };

const BASIC = /^basic[ \t]+([A-Za-z0-9+/]*={0,2})[ \t]*$/i;

/** RFC 6749 Appendix B: application/x-www-form-urlencoded, so `+` is a space. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/** The Basic credentials of the header: undefined when there is no Basic header, "unreadable" when it cannot be read. */
function basicCredentials(header: string | string[] | undefined): { id: string; secret: string } | "unreadable" | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) return header.some((h) => /^basic\b/i.test(h.trim())) ? "unreadable" : undefined;
  const value = header.trim();
  if (!/^basic\b/i.test(value)) return undefined;
  const match = BASIC.exec(value);
  if (!match) return "unreadable";
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return "unreadable";
  const id = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  if (id === undefined || secret === undefined) return "unreadable";
  return { id, secret };
}

/** The fields the exchange checks, with the client's credentials taken from the one method it used. */
export function authenticateClient(authorization: string | string[] | undefined, body: TokenFields): ClientAuthentication {
  const basic = basicCredentials(authorization);
  if (basic === undefined) return { ok: true, fields: body };
  if (basic === "unreadable") return { ok: false };
  // An empty field is no credential (as an empty redirect_uri counts as omitted).
  if (body.client_secret !== undefined && body.client_secret !== "") return { ok: false };
  if (body.client_id !== undefined && body.client_id !== "" && body.client_id !== basic.id) return { ok: false };
  return { ok: true, fields: { ...body, client_id: basic.id, client_secret: basic.secret } };
}
