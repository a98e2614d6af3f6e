/**
 * PKCE (RFC 7636; RFC 9700 §2.1.1), beyond the seed and optional for clients. On the authorize
 * step a `code_challenge` must come with `code_challenge_method=S256` and be what S256 makes
 * (43 base64url characters); `plain` — which would put the verifier itself in the browser's
 * history — and a challenge without a method (RFC 7636 reads that as `plain`) are refused with
 * `invalid_request`. At the token exchange a code issued with a challenge needs the verifier that
 * hashes to it (compared in constant time); one issued without must not come with a verifier: a
 * client that sent a challenge expects it to be checked.
 */
import { createHash, timingSafeEqual } from "node:crypto";

export type ChallengeCheck = { ok: true; challenge: string | undefined } | { ok: false };

const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** The challenge to bind the code to (undefined: none asked), or a refusal. Empty values count as not given. */
export function checkChallenge(challenge: string | undefined, method: string | undefined): ChallengeCheck {
  const given = challenge !== undefined && challenge !== "";
  const methodGiven = method !== undefined && method !== "";
  if (!given) return methodGiven ? { ok: false } : { ok: true, challenge: undefined };
  if (method !== "S256" || !S256_CHALLENGE.test(challenge)) return { ok: false };
  return { ok: true, challenge };
}

export function s256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/** Whether the exchange's `verifier` fits the code's `challenge` (both absent fits too). */
export function verifierFits(challenge: string | null, verifier: string | undefined): boolean {
  const given = verifier !== undefined && verifier !== "";
  if (challenge === null) return !given;
  if (!given || !VERIFIER.test(verifier)) return false;
  const a = Buffer.from(s256(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
