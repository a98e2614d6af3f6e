/**
 * Delivery signatures (DESIGN.md): `X-Hub-Signature: sha1=<hex>` and `X-Hub-Signature-256:
 * sha256=<hex>`, HMACs keyed with the hook's secret over the exact bytes sent — so they are
 * computed here from the body bytes, never from a re-serialised payload, and only when the hook
 * has a secret.
 */
import { createHmac } from "node:crypto";

export function hmacHex(algorithm: "sha1" | "sha256", secret: string, body: Uint8Array | string): string {
  return createHmac(algorithm, secret).update(body).digest("hex");
}

export interface SignatureHeaders {
  "X-Hub-Signature": string;
  "X-Hub-Signature-256": string;
}

export function signatureHeaders(secret: string, body: Uint8Array | string): SignatureHeaders {
  return {
    "X-Hub-Signature": `sha1=${hmacHex("sha1", secret, body)}`,
    "X-Hub-Signature-256": `sha256=${hmacHex("sha256", secret, body)}`,
  };
}
