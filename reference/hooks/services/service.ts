/**
 * What a catalog service is: its catalog entry (`GET /hooks`), the validation rules of its
 * config that the catalog's `[type, name]` pairs cannot express (required keys, URL values), and
 * its delivery format — the request a delivery engine sends for one event. A service decides
 * per event whether it takes it at all.
 */
import type { HookEventName } from "../events.ts";

export type ConfigKeyType = "string" | "boolean" | "password";

/** The request for one delivery to a service; the engine adds the common delivery headers. */
export interface ServiceRequest {
  url: string;
  contentType: "application/json" | "application/x-www-form-urlencoded";
  body: string;
}

export interface ServiceDefinition {
  name: string;
  title: string;
  /** Subscribed when the hook is created without `events`. */
  events: readonly HookEventName[];
  supported_events: readonly HookEventName[];
  schema: readonly (readonly [ConfigKeyType, string])[];
  /** Keys a hook of this service must have (a 422 `missing_field` otherwise). */
  required: readonly string[];
  /** Keys whose value must be an absolute http(s) URL. */
  urlKeys: readonly string[];
  /** Where a hook with this config posts, as `[config key, URL]` pairs (for the egress policy); default: the `urlKeys` values. */
  targets?: (config: Readonly<Record<string, string>>) => (readonly [string, string])[];
  /** Extra per-key checks; a message when the value is not acceptable. */
  check?: (key: string, value: string) => string | undefined;
  /**
   * The request for `event` (a supported event, or `ping`), given the config with its password
   * values in plaintext; undefined when the service does not take the event.
   */
  deliver(config: Readonly<Record<string, string>>, event: string, payload: Record<string, unknown>): ServiceRequest | undefined;
  /**
   * The request as the delivery log shows it: whatever carries a secret, or is derived from one
   * (a digest the receiver checks is as good as the secret to whoever reads it), replaced by
   * REDACTED. The request sent, and the one a redelivery sends, are not changed.
   */
  redact?: (logged: LoggedRequest) => LoggedRequest;
}

/** What the delivery log shows of a request sent: its URL and body. */
export interface LoggedRequest {
  url: string;
  body: string;
}

/** What stands in the log for a secret value. */
export const REDACTED = "********";

/** A secret URL (an incoming-webhook URL is its own credential): its origin, the rest redacted. */
export function redactUrl(url: string): string {
  try {
    return `${new URL(url).origin}/${REDACTED}`;
  } catch {
    return REDACTED;
  }
}
