/**
 * Delivery signatures (DESIGN.md): `X-Hub-Signature: sha1=<hex>` and `X-Hub-Signature-256:
 * sha256=<hex>`, HMACs keyed with the hook's secret over the exact bytes sent — so they are
 * computed from the body bytes, never from a re-serialised payload, and only when the hook has a
 * secret. The signing itself is the runtime's (runtime/client/webhooks/delivery.ts), shared with
 * `webhooks send` and the receiver suite, so the reference and the tools sign alike.
 */
export { signatureHeaders, type SignatureHeaders } from "../../runtime/client/webhooks/delivery.ts";
