/**
 * One delivery to a receiver, as the service sends it: the body for the content type and the
 * headers from the runtime (runtime/client/webhooks/delivery.ts), the POST itself by the
 * reference's delivery engine (reference/deliveries/send.ts: undici, redirects not followed, one
 * time limit over the whole exchange, a 64 KB excerpt of the answer). `webhooks send` and the
 * receiver suite both send through here, so they send what the reference sends.
 */
import { randomUUID } from "node:crypto";
import { Agent, type Dispatcher } from "undici";
import { deliveryBody, deliveryHeaders, type DeliveryContentType } from "../../runtime/client/webhooks/delivery.ts";
import { sendAttempt, type AttemptOutcome } from "../../reference/deliveries/send.ts";

/** The service waits this long for a receiver's answer (DESIGN.md). */
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface DeliveryInput {
  url: string;
  event: string;
  /** The payload's JSON text, sent byte for byte (or as the form field `payload`). */
  payloadJson: string;
  contentType?: DeliveryContentType;
  /** Signs the delivery when given. */
  secret?: string;
  /** `X-Service-Delivery`; a new UUID by default (the same one again is a redelivery). */
  guid?: string;
  /**
   * Changes to the headers after signing (a name mapped to undefined is removed): how the
   * receiver suite sends a delivery with a missing, wrong or malformed signature.
   */
  alter?: (headers: Record<string, string>, body: string) => Record<string, string | undefined>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface PreparedDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
  contentType: string;
}

export function prepareDelivery(input: DeliveryInput): PreparedDelivery {
  const { contentType, body } = deliveryBody(input.payloadJson, input.contentType ?? "json");
  let headers = deliveryHeaders({ event: input.event, guid: input.guid ?? randomUUID(), contentType, body, secret: input.secret });
  if (input.alter) {
    const changes = input.alter({ ...headers }, body);
    headers = Object.fromEntries(Object.entries({ ...headers, ...changes }).filter((e): e is [string, string] => e[1] !== undefined));
  }
  return { url: input.url, headers, body, contentType };
}

/**
 * A connection pool for one run of sends; close it when done, so a one-shot command exits at
 * once instead of waiting for idle keep-alive connections to time out.
 */
export function deliveryPool(): Agent {
  return new Agent({ keepAliveTimeout: 4_000, connections: 64 });
}

export async function sendPrepared(d: PreparedDelivery, options: { timeoutMs?: number; signal?: AbortSignal; pool?: Dispatcher } = {}): Promise<AttemptOutcome> {
  return sendAttempt({ ...d, fresh: true, insecure: false }, options.timeoutMs ?? DELIVERY_TIMEOUT_MS, options.signal, { dispatcher: options.pool });
}

export function isSuccess(outcome: Pick<AttemptOutcome, "statusCode">): boolean {
  return outcome.statusCode >= 200 && outcome.statusCode <= 299;
}

export type { AttemptOutcome };
