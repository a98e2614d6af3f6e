/**
 * The service hook catalog: the services a repository can install with `name` set to the
 * service (seed *Service hooks*), served by `GET /hooks` after the plain webhook `web`, and the
 * delivery format of each, which the delivery engine asks for with `serviceDelivery`. The
 * catalog is deliberately small — the seed says no new services are accepted — and every format
 * is documented in README.md beside this file.
 */
import type { components } from "../../generated/types.ts";
import { HOOK_EVENT_NAMES } from "./events.ts";
import { isSealed, openSecret } from "./secret-box.ts";
import { chat } from "./services/chat.ts";
import type { ServiceDefinition, ServiceRequest } from "./services/service.ts";
import { travis } from "./services/travis.ts";

export type { ServiceDefinition, ServiceRequest } from "./services/service.ts";
export type ServiceHookJson = components["schemas"]["ServiceHook"];

/** The installable services, sorted by name (`web` is not one: it is the plain webhook). */
export const SERVICES: readonly ServiceDefinition[] = Object.freeze([chat, travis].sort((a, b) => a.name.localeCompare(b.name)));

const BY_NAME: ReadonlyMap<string, ServiceDefinition> = new Map(SERVICES.map((s) => [s.name, s]));

export const WEB = "web";

/** The catalog entry of the plain webhook: every event, and the HookConfig keys. */
const WEB_ENTRY: ServiceHookJson = {
  name: WEB,
  title: "Web",
  events: ["push"],
  supported_events: [...HOOK_EVENT_NAMES],
  schema: [
    ["string", "url"],
    ["string", "content_type"],
    ["password", "secret"],
    ["boolean", "insecure_ssl"],
  ],
};

export function findService(name: string): ServiceDefinition | undefined {
  return BY_NAME.get(name);
}

/** Whether a hook named `name` (web or a service) may receive `event` at all. */
export function serviceSupports(name: string, event: string): boolean {
  if (name === WEB) return true;
  return (BY_NAME.get(name)?.supported_events as readonly string[] | undefined)?.includes(event) ?? false;
}

/** `GET /hooks`: `web` first (the contract says so), then the services by name. */
export function catalogJson(): ServiceHookJson[] {
  const services = SERVICES.map((s) => ({
    name: s.name,
    title: s.title,
    events: [...s.events],
    supported_events: [...s.supported_events],
    schema: s.schema.map(([type, key]) => [type, key] as [ConfigKeyTypeJson, string]),
  }));
  return [WEB_ENTRY, ...services];
}

type ConfigKeyTypeJson = "string" | "boolean" | "password";

/** The `password` keys of a service: write-only, sealed at rest, never served. */
export function passwordKeys(service: ServiceDefinition): string[] {
  return service.schema.filter(([type]) => type === "password").map(([, key]) => key);
}

/**
 * A stored config with its sealed `password` values opened (a value stored before its key became
 * a password one is plain and used as it is). Needs the secret key loaded, as serviceDelivery.
 */
export function openedConfig(service: ServiceDefinition, config: Readonly<Record<string, string>>): Record<string, string> {
  const plain: Record<string, string> = { ...config };
  for (const key of passwordKeys(service)) {
    const value = plain[key];
    if (value !== undefined && isSealed(value)) plain[key] = openSecret(value);
  }
  return plain;
}

/**
 * The request a delivery of `event` (a webhook event or `ping`) to a service hook sends, or
 * undefined when the service does not take that event (or `name` is no service). `config` is the
 * hook's stored config (HookRow.config): its sealed `password` values are opened here, so the
 * secret key must be loaded (store/hooks.ts hookById and matchingHooks do that); plain values
 * are used as they are.
 */
export function serviceDelivery(
  name: string,
  config: Record<string, string>,
  event: string,
  payload: Record<string, unknown>,
): { url: string; contentType: "application/json" | "application/x-www-form-urlencoded"; body: string } | undefined {
  const service = BY_NAME.get(name);
  if (!service) return undefined;
  if (event !== "ping" && !(service.supported_events as readonly string[]).includes(event)) return undefined;
  const request: ServiceRequest | undefined = service.deliver(openedConfig(service, config), event, payload);
  return request;
}
