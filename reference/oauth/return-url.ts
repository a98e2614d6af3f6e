/**
 * The URL a page of the web host comes back to (a login form's `return_to`, a sign-out form's),
 * which the page writes into its HTML. Credentials a caller put in the query (`access_token`,
 * `client_secret`: nothing these pages read) are dropped, so the page never echoes them into
 * HTML that browsers, extensions and the history keep.
 */
const CREDENTIAL_PARAMETERS = ["access_token", "client_secret"] as const;

/** `url` (a request's path and query) without credential parameters. */
export function returnUrl(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  if (!CREDENTIAL_PARAMETERS.some((name) => params.has(name))) return url;
  for (const name of CREDENTIAL_PARAMETERS) params.delete(name);
  const rest = params.toString();
  return rest === "" ? url.slice(0, q) : `${url.slice(0, q)}?${rest}`;
}
