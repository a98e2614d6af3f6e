/**
 * The sending side of a delivery, shared by the reference server's delivery engine
 * (reference/deliveries/request.ts) and the tools that act as the service towards a receiver
 * (`service-contract webhooks send`, the receiver conformance suite): the body for a hook's
 * content type and the headers the service sends with it (DESIGN.md). One module, so what the
 * tools send is byte for byte what the reference sends.
 */
import { createHash } from "node:crypto";
import { sign } from "./signature.ts";
import { PACKAGE_JSON } from "../../../generators/package-files.ts";

export const JSON_TYPE = "application/json";
export const FORM_TYPE = "application/x-www-form-urlencoded";

const VERSION = PACKAGE_JSON.version;
/** `Service-Hookshot/<short id>`: a short hash of the release, like the service's build ids. */
export const USER_AGENT = `Service-Hookshot/${createHash("sha1").update(`service-contract ${VERSION}`).digest("hex").slice(0, 7)}`;

export type DeliveryContentType = "json" | "form";

/** A webhook's body: the payload's JSON text as is, or the form field `payload` (hook `content_type: form`). */
export function deliveryBody(payloadJson: string, contentType: DeliveryContentType | string | undefined): { contentType: string; body: string } {
  if (contentType === "form") return { contentType: FORM_TYPE, body: new URLSearchParams({ payload: payloadJson }).toString() };
  return { contentType: JSON_TYPE, body: payloadJson };
}

export interface SignatureHeaders {
  "X-Hub-Signature": string;
  "X-Hub-Signature-256": string;
}

/** Both signatures over exactly `signed` (the bytes sent, unless a caller deliberately signs others). */
export function signatureHeaders(secret: string, signed: Uint8Array | string): SignatureHeaders {
  return { "X-Hub-Signature": sign(secret, signed, "sha1"), "X-Hub-Signature-256": sign(secret, signed, "sha256") };
}

export interface DeliveryHeadersInput {
  event: string;
  /** `X-Service-Delivery`: a UUID, the same for every attempt of one delivery. */
  guid: string;
  /** The media type of the body (FORM_TYPE or JSON_TYPE for webhooks). */
  contentType: string;
  body: string;
  /** Signed when given. */
  secret?: string;
}

/** The headers of one attempt, in the order the service sends them. */
export function deliveryHeaders(input: DeliveryHeadersInput): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Service-Event": input.event,
    "X-Service-Delivery": input.guid,
    "User-Agent": USER_AGENT,
    "Content-Type": input.contentType,
  };
  if (input.secret) Object.assign(headers, signatureHeaders(input.secret, input.body));
  return headers;
}
