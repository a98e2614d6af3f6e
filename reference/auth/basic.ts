/** Parses an `Authorization: Basic …` header; anything malformed is simply "not Basic". */
export interface BasicCredentials {
  username: string;
  password: string;
}

export function parseBasic(header: string | undefined): BasicCredentials | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
