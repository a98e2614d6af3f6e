/**
 * The contract's HookDelivery (one attempt, as the log lists it) and HookDeliveryDetail (with
 * the request sent and the response received). The request payload is the body that was sent:
 * the JSON object for JSON deliveries, the form text `payload=…` for form deliveries (DECISIONS).
 */
import type { components } from "../../generated/types.ts";
import { iso, isoRequired } from "../serialize/time.ts";
import { JSON_TYPE } from "./request.ts";
import type { AttemptDetailRow, AttemptRow } from "./store.ts";

export type HookDeliveryJson = components["schemas"]["HookDelivery"];
export type HookDeliveryDetailJson = components["schemas"]["HookDeliveryDetail"];

export function deliveryJson(row: AttemptRow): HookDeliveryJson {
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
    url: row.url,
  };
}

function requestPayload(row: AttemptDetailRow): Record<string, unknown> | string {
  if (row.content_type !== JSON_TYPE) return row.body;
  const parsed = JSON.parse(row.body) as unknown;
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : row.body;
}

export function deliveryDetailJson(row: AttemptDetailRow): HookDeliveryDetailJson {
  return {
    ...deliveryJson(row),
    request: { headers: row.request_headers as HookDeliveryDetailJson["request"]["headers"], payload: requestPayload(row) },
    response: { headers: row.response_headers, payload: row.response_body },
  } as HookDeliveryDetailJson;
}
