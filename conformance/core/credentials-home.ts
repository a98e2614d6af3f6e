/**
 * Credentials stay home, in bodies and URLs too. The http client keeps the headers that carry
 * credentials (Authorization, Cookie, the OTP) on the target's two origins (http.ts); this module
 * is the same promise for what a request carries elsewhere — the profile's passwords, tokens and
 * client secrets, and the codes the suite holds — in a form or JSON body or in the URL. A page or
 * link of the target's that would send one to another origin (a login form whose `action` is
 * elsewhere) fails its case against D-URL-ORIGINS, and nothing is sent.
 *
 * The authorize flow may name identity providers that do get the user's password
 * (`authorize.allowOrigins` in the profile): named, never implied.
 */
import { CaseFailure } from "./failure.ts";
import type { Profile } from "./profile.ts";

/** Every secret of the profile: users' passwords and tokens, the applications' client secrets, the 2FA user's. */
export function profileSecrets(profile: Profile): string[] {
  const all = [
    ...profile.users.flatMap((u) => [u.password, u.token]),
    profile.app?.clientSecret,
    profile.otherApp?.clientSecret,
    profile.twoFactor?.password,
    profile.twoFactor?.totpSecret,
  ];
  return [...new Set(all.filter((s): s is string => typeof s === "string" && s.length > 0))];
}

/** The forms a secret takes in a URL, a form body and a JSON body. */
function spellings(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const form = new URLSearchParams({ s: secret }).toString().slice(2);
  return [...new Set([secret, encodeURIComponent(secret), form, json, Buffer.from(secret).toString("base64")])];
}

/** Whether `text` (a URL or a body) carries one of `secrets`, as is or encoded as URLs, forms, JSON and Basic auth encode it. */
export function carriesSecret(text: string | undefined, secrets: readonly string[]): boolean {
  if (!text) return false;
  return secrets.some((s) => spellings(s).some((spelled) => text.includes(spelled)));
}

/** The origins credentials may go to: the target's two, and the ones a profile names. */
export function homeOrigins(urls: readonly string[], allowed: readonly string[] = []): Set<string> {
  const out = new Set<string>();
  for (const u of [...urls, ...allowed]) {
    try {
      out.add(new URL(u).origin);
    } catch {
      // a profile's allow-list is checked by its schema; a broken entry allows nothing
    }
  }
  return out;
}

/** The failure for a secret that would leave home, against D-URL-ORIGINS (as http.ts's for headers). */
export function secretLeavesHome(url: string, home: ReadonlySet<string>, what = "a credential of the profile (a password, token, client secret or code)"): CaseFailure {
  const origin = new URL(url).origin;
  const homes = [...home].join(" or ");
  return new CaseFailure(`the suite would send ${what} to ${origin}, which is neither of the target's origins (${homes}): a page or URL the target gave points elsewhere; nothing was sent`, {
    expected: `a URL on ${homes}`,
    actual: url.split("?")[0],
    rule: "D-URL-ORIGINS",
  });
}

export interface OutgoingRequest {
  url: string;
  /** The body as sent (form-encoded, JSON or text). */
  body?: string;
}

/**
 * Throws (D-URL-ORIGINS) when `request` goes to an origin outside `home` carrying one of
 * `secrets` in its URL or body. For the http client to call before sending anything.
 */
export function keepSecretsHome(request: OutgoingRequest, home: ReadonlySet<string>, secrets: readonly string[]): void {
  let origin: string;
  try {
    origin = new URL(request.url).origin;
  } catch {
    return; // not a URL: fetch refuses it before anything is sent
  }
  if (home.has(origin)) return;
  if (carriesSecret(request.url, secrets) || carriesSecret(request.body, secrets)) throw secretLeavesHome(request.url, home);
}
