/**
 * Delivery signatures (DESIGN.md): `X-Hub-Signature: sha1=<hex>` and `X-Hub-Signature-256:
 * sha256=<hex>`, HMACs keyed with the hook's secret over the exact bytes sent — so they are
 * computed here from the body bytes, never from a re-serialised payload, and only when the hook
 * has a secret. The signing itself is the runtime's (runtime/client/webhooks/delivery.ts), shared
 * with `webhooks send` and the receiver suite; this adds the deliberate fault.
 */
import { signatureHeaders as signBody, type SignatureHeaders } from "../../runtime/client/webhooks/delivery.ts";
import { reserializedBody, type Fault } from "../faults.ts";

export type { SignatureHeaders };

export function signatureHeaders(secret: string, body: Uint8Array | string, faults?: ReadonlySet<Fault>): SignatureHeaders {
  return signBody(secret, faults?.has("signature-reserialized") ? reserializedBody(body) : body);
}
