/**
 * The HTTP request of one attempt: URL, headers (DESIGN.md) and the exact body. A webhook sends
 * the payload as JSON or as the form field `payload` per `config.content_type`; a service hook
 * sends what its catalog entry makes of the payload (hooks/catalog.ts). The body is fixed by the
 * first attempt and stored, so every retry and redelivery sends the same bytes even if the
 * hook's content type changes meanwhile; the signature is made per attempt with the hook's
 * current secret, which is what its receiver checks against.
 */
import { deliveryBody, deliveryHeaders, JSON_TYPE } from "../../runtime/client/webhooks/delivery.ts";
import { serviceDelivery } from "../hooks/catalog.ts";
import { openSecret } from "../hooks/secret-box.ts";
import { signatureHeaders } from "./signing.ts";

// Body and headers are the runtime's, shared with `webhooks send` and the receiver suite.
export { FORM_TYPE, JSON_TYPE, USER_AGENT } from "../../runtime/client/webhooks/delivery.ts";

/** What an attempt needs of its delivery and hook (from its job and store.ts `loadForSend`). */
export interface SendRow {
  guid: string;
  hook_id: number;
  event: string;
  action: string | null;
  /** The payload's JSON text: first attempts (from the job), and service hooks' later ones. */
  payload: string | null;
  /** Fixed by the first attempt: later ones send these. */
  content_type: string | null;
  body: string | null;
  hook_name: string;
  hook_active: boolean;
  config: Record<string, string>;
  secret_sealed: string | null;
  /** Whose hook it is (the organization or the repository's owner), for fair slots (fair-slots.ts). */
  owner?: number | null;
}

export interface DeliveryRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  contentType: string;
  /** The body was made by this attempt (the first): it must be stored with the attempt. */
  fresh: boolean;
  /** `insecure_ssl: "1"`: TLS certificates are not verified. */
  insecure: boolean;
}

function webBody(row: SendRow, payload: string): { url: string; contentType: string; body: string } {
  return { url: row.config.url ?? "", ...deliveryBody(payload, row.config.content_type) };
}

/** The payload JSON: from the job (first attempts) or kept with the delivery (service hooks). */
function payloadOf(row: SendRow): string {
  return row.payload ?? "{}";
}

// Opening a sealed secret is an AES-GCM decryption; the same few hooks sign most deliveries.
const secrets = new Map<string, string>();
function secretOf(sealed: string): string {
  let plain = secrets.get(sealed);
  if (plain === undefined) {
    plain = openSecret(sealed);
    if (secrets.size >= 1000) secrets.clear();
    secrets.set(sealed, plain);
  }
  return plain;
}

/** The request for `row`, or undefined when its service hook does not take the event. */
export function buildRequest(row: SendRow): DeliveryRequest | undefined {
  let made: { url: string; contentType: string; body: string } | undefined;
  if (row.hook_name === "web") made = row.body !== null ? { url: row.config.url ?? "", contentType: row.content_type ?? JSON_TYPE, body: row.body } : webBody(row, payloadOf(row));
  else made = serviceDelivery(row.hook_name, row.config, row.event, JSON.parse(payloadOf(row)) as Record<string, unknown>);
  if (!made) return undefined;
  const fresh = row.body === null;
  const body = row.body ?? made.body;
  const contentType = row.content_type ?? made.contentType;
  const headers = deliveryHeaders({ event: row.event, guid: row.guid, contentType, body });
  if (row.hook_name === "web" && row.secret_sealed) Object.assign(headers, signatureHeaders(secretOf(row.secret_sealed), body));
  return { url: made.url, headers, body, contentType, fresh, insecure: row.hook_name === "web" && row.config.insecure_ssl === "1" };
}
