/**
 * The one rule for every URL a hook posts to (a webhook's `config.url`, a service's URL keys, a
 * travis `domain` given as a URL): absolute http or https with a host, at most 2048 bytes in
 * UTF-8, and no user info. Bytes, not characters: the webhook URL is a key of a unique index
 * (one webhook per URL per repository or organization), whose entries must fit a third of a
 * page — 2048 CJK characters (~6 KB) made the insert fail with a 500. User info: the sender
 * sends no Authorization for it, so such a hook would be delivered to without the credentials,
 * while every hook response and the delivery log showed them (DECISIONS).
 */

/** Longest URL a hook may post to, in UTF-8 bytes. */
export const MAX_URL_BYTES = 2048;

/** Why `value` is not a URL a hook can post to, or undefined when it is one. */
export function urlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute http or https URL";
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") return "must be an absolute http or https URL";
  if (Buffer.byteLength(value, "utf8") > MAX_URL_BYTES) return `must be at most ${MAX_URL_BYTES} bytes long (UTF-8)`;
  if (url.username !== "" || url.password !== "" || /^[a-z][a-z0-9+.-]*:\/*[^/?#]*@/i.test(value)) {
    return "must not contain a user name or password; use config.secret to let the receiver check deliveries";
  }
  return undefined;
}
