/**
 * Parses an `Authorization: Basic …` header; anything malformed is simply "not Basic". A NUL in
 * the login or password is malformed too: no account has one, and the database cannot look it up.
 */
export interface BasicCredentials {
  username: string;
  password: string;
}

export function parseBasic(header: string | undefined): BasicCredentials | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0 || decoded.includes("\0")) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
