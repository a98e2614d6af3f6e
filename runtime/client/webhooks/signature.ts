/**
 * Webhook signatures: `X-Hub-Signature: sha1=<hex>` and `X-Hub-Signature-256: sha256=<hex>`,
 * HMACs of the exact body bytes keyed with the hook's secret. Verification never re-serialises
 * the payload (any whitespace change breaks the HMAC, which is the point) and compares digests
 * with timingSafeEqual, so the time taken says nothing about how much of a guess was right.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export type SignatureAlgorithm = "sha1" | "sha256";

export const SIGNATURE_HEADERS: Record<SignatureAlgorithm, string> = {
  sha1: "x-hub-signature",
  sha256: "x-hub-signature-256",
};

const HEX_LENGTH: Record<SignatureAlgorithm, number> = { sha1: 40, sha256: 64 };

/** The header value the service sends: `sha256=<hex>`. */
export function sign(secret: string, body: Uint8Array | string, algorithm: SignatureAlgorithm = "sha256"): string {
  return `${algorithm}=${createHmac(algorithm, secret).update(body).digest("hex")}`;
}

export type SignatureCheck =
  | { ok: true; verified: SignatureAlgorithm[] }
  | { ok: false; reason: "missing" | "malformed" | "mismatch"; message: string };

export interface SignatureInput {
  body: Uint8Array;
  /** Header values by algorithm, as received (undefined when the header is absent). */
  signatures: Partial<Record<SignatureAlgorithm, string | undefined>>;
  /** Accepted secrets; several during a rotation. Empty → nothing is checked. */
  secrets: readonly string[];
  /** Refuse deliveries that carry only the SHA-1 signature. */
  requireSha256?: boolean;
}

function digestOf(algorithm: SignatureAlgorithm, value: string): Buffer | undefined {
  const match = /^([a-z0-9]+)=([0-9a-fA-F]+)$/.exec(value.trim());
  if (!match || match[1] !== algorithm || match[2]!.length !== HEX_LENGTH[algorithm]) return undefined;
  return Buffer.from(match[2]!, "hex");
}

/**
 * Every signature header present must match, under one and the same secret; at least one must
 * be present when a secret is configured.
 */
export function verifySignatures(input: SignatureInput): SignatureCheck {
  if (input.secrets.length === 0) return { ok: true, verified: [] };
  const present = (["sha1", "sha256"] as const).filter((a) => input.signatures[a] !== undefined);
  if (present.length === 0) return { ok: false, reason: "missing", message: "Missing X-Hub-Signature-256 / X-Hub-Signature header" };
  if (input.requireSha256 && !present.includes("sha256")) return { ok: false, reason: "missing", message: "Missing X-Hub-Signature-256 header" };
  const expected = new Map<SignatureAlgorithm, Buffer>();
  for (const algorithm of present) {
    const digest = digestOf(algorithm, input.signatures[algorithm]!);
    if (!digest) return { ok: false, reason: "malformed", message: `Malformed ${algorithm === "sha1" ? "X-Hub-Signature" : "X-Hub-Signature-256"} header` };
    expected.set(algorithm, digest);
  }
  for (const secret of input.secrets) {
    let all = true;
    // No early exit inside one secret: every present header is computed and compared.
    for (const [algorithm, given] of expected) {
      const actual = createHmac(algorithm, secret).update(input.body).digest();
      all = timingSafeEqual(actual, given) && all;
    }
    if (all) return { ok: true, verified: present };
  }
  return { ok: false, reason: "mismatch", message: "Signature does not match the payload" };
}
