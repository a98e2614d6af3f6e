/**
 * The contract's HookDelivery (one attempt, as the log lists it) and HookDeliveryDetail (with
 * the request sent and the response received). The request payload is the body that was sent:
 * the JSON object for JSON deliveries, the form text `payload=…` for form deliveries (DECISIONS),
 * with what a service marks as secret redacted (`redact`, hooks/services/service.ts).
 */
import type { components } from "../../generated/types.ts";
import { iso, isoRequired } from "../serialize/time.ts";
import { JSON_TYPE } from "./request.ts";
import type { LoggedRequest } from "../hooks/services/service.ts";

/** How the hook's service shows a request in the log; none for a plain webhook. */
export type Redact = ((logged: LoggedRequest) => LoggedRequest) | undefined;
import type { AttemptDetailRow, AttemptRow } from "./store.ts";

export type HookDeliveryJson = components["schemas"]["HookDelivery"];
export type HookDeliveryDetailJson = components["schemas"]["HookDeliveryDetail"];

export function deliveryJson(row: AttemptRow, redact?: Redact): HookDeliveryJson {
  return {
    id: row.id,
    guid: row.guid,
    delivered_at: isoRequired(row.delivered_at),
    redelivery: row.redelivery,
    duration: Math.round(row.duration * 1000) / 1000,
    status: row.status,
    status_code: row.status_code,
    event: row.event as HookDeliveryJson["event"],
    action: row.action,
    attempt: row.attempt,
    next_attempt_at: iso(row.next_attempt_at),
    url: redact ? redact({ url: row.url, body: "" }).url : row.url,
  };
}

function requestPayload(contentType: string, body: string): Record<string, unknown> | string {
  if (contentType !== JSON_TYPE) return body;
  const parsed = JSON.parse(body) as unknown;
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : body;
}

export function deliveryDetailJson(row: AttemptDetailRow, redact?: Redact): HookDeliveryDetailJson {
  const logged = redact ? redact({ url: row.url, body: row.body }) : { url: row.url, body: row.body };
  return {
    ...deliveryJson(row, redact),
    request: { headers: row.request_headers as HookDeliveryDetailJson["request"]["headers"], payload: requestPayload(row.content_type, logged.body) },
    response: { headers: row.response_headers, payload: row.response_body },
  } as HookDeliveryDetailJson;
}
