/**
 * The public URLs of an instance: the addresses clients use (a load balancer's, a proxy's) when
 * they are not where the instance listens. Every absolute URL the server writes — `Link`,
 * `Location`, the `url` fields of resources, event and webhook payloads — is built from them, so
 * instances behind one address answer alike. Only an origin (`http(s)://host[:port]`) is taken:
 * the OAuth pages, their forms and the /docs page link with root-relative paths, which a path
 * prefix would break.
 */

export class PublicUrlError extends Error {
  override name = "PublicUrlError";
}

/** `value` as an origin without a trailing slash, or a PublicUrlError saying what is wrong. */
export function publicOrigin(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new PublicUrlError(`${name} must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new PublicUrlError(`${name} must be an http or https URL, got ${JSON.stringify(value)}`);
  if (url.username !== "" || url.password !== "") throw new PublicUrlError(`${name} must not carry user info, got ${JSON.stringify(value)}`);
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "" || /[?#]/.test(value)) {
    throw new PublicUrlError(`${name} must be an origin (scheme, host and port only: no path, query or fragment), got ${JSON.stringify(value)}`);
  }
  return url.origin;
}
