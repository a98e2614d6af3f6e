/**
 * The contract's webhook examples as deliveries to send: for every event the contract defines
 * (the generated validators' `webhookEvents`), its valid example payloads from
 * spec/examples/webhooks/<event>/valid-*.json, and the actions its schema allows. Used by
 * `webhooks send` (the default payload) and the receiver suite (a delivery of every event).
 */
import { packageFile } from "../../generators/package-files.ts";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { webhookEvents } from "../../generated/validators/index.js";

const SPEC = packageFile("spec");

/** The most typical example where an event has several (a branch push, not a deletion). */
const PREFERRED: Record<string, string> = { push: "valid-branch-push.json", ping: "valid-repository-hook.json", issues: "valid-opened.json" };

export interface WebhookExample {
  event: string;
  /** The example's `action`, where the event has one. */
  action?: string;
  /** spec/examples/webhooks/<event>/<file> */
  file: string;
  payload: Record<string, unknown>;
}

export const WEBHOOK_EVENTS: readonly string[] = [...webhookEvents].sort();

export function isWebhookEvent(event: string): boolean {
  return WEBHOOK_EVENTS.includes(event);
}

/** The valid examples of `event`, the preferred one first. */
export function examplesOf(event: string): WebhookExample[] {
  const dir = join(SPEC, "examples/webhooks", event);
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.startsWith("valid-") && f.endsWith(".json")).sort();
  } catch {
    return [];
  }
  const preferred = PREFERRED[event];
  if (preferred && files.includes(preferred)) files = [preferred, ...files.filter((f) => f !== preferred)];
  return files.map((file) => {
    const payload = JSON.parse(readFileSync(join(dir, file), "utf8")) as Record<string, unknown>;
    return { event, file: `spec/examples/webhooks/${event}/${file}`, payload, ...(typeof payload.action === "string" ? { action: payload.action } : {}) };
  });
}

function enumOf(file: string): string[] | undefined {
  try {
    const schema = JSON.parse(readFileSync(join(SPEC, "schemas", file), "utf8")) as { properties?: { action?: { enum?: unknown } } };
    const values = schema.properties?.action?.enum;
    return Array.isArray(values) ? values.map(String) : undefined;
  } catch {
    return undefined;
  }
}

/** The actions the contract allows for `event` (empty when its payload has no action). */
export function actionsOf(event: string): string[] {
  // The webhook schema extends the activity payload, where the action's enum is written.
  const declared = enumOf(`webhooks/${event}.json`) ?? enumOf(`activity-payloads/${event}.json`);
  if (declared) return declared;
  return [...new Set(examplesOf(event).flatMap((e) => (e.action ? [e.action] : [])))];
}

/**
 * The example to send for `event` (and `action`): one with that action when the contract has
 * one, else the preferred example with its action replaced — the caller validates the result,
 * so an action the contract does not allow is reported, not sent by surprise.
 */
export function exampleFor(event: string, action?: string): WebhookExample | undefined {
  const all = examplesOf(event);
  if (all.length === 0) return undefined;
  if (action === undefined) return all[0];
  const exact = all.find((e) => e.action === action);
  if (exact) return exact;
  const base = all[0]!;
  return { ...base, action, payload: { ...base.payload, action } };
}
