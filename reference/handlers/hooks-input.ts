/**
 * What a hook create or edit request means, checked beyond what the contract's schemas can say:
 * organization-only events on repository hooks, a service's supported events and config keys,
 * webhook URLs that can actually be delivered to (hooks/urls.ts), `*` replacing every other name, and the
 * write-only values — the webhook `secret` and service `password` keys — sealed on the way in,
 * kept when an edit leaves them out and removed by `""` (DECISIONS). The request schemas have
 * already run, so this mostly meets well-typed values; it still refuses anything else with a 422
 * rather than trusting that.
 */
import { validationFailed, type ValidationItem } from "../http/errors.ts";
import { WEB, openedConfig, type ServiceDefinition } from "../hooks/catalog.ts";
import { DEFAULT_EVENTS, isHookEventName, normalizeEvents, ORGANIZATION_ONLY_EVENTS, WILDCARD } from "../hooks/events.ts";
import { sealSecret } from "../hooks/secret-box.ts";
import { urlProblem } from "../hooks/urls.ts";
import { urlEgressProblem, type EgressPolicy } from "../hooks/egress.ts";
import type { HookRow } from "../store/hooks.ts";

/** Where the hook is installed: repository hooks may not take organization-only events. */
export type HookPlace = "repo" | "org";

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: ValidationItem[] };

/** Everything stored about a hook that a request can set. */
export interface HookValues {
  events: string[];
  active: boolean;
  config: Record<string, string>;
  secretSealed: string | null;
}

export interface CreateBody {
  name: string;
  config: Record<string, unknown>;
  events?: readonly string[];
  active?: boolean;
}

export interface UpdateBody {
  config?: Record<string, unknown>;
  events?: readonly string[];
  add_events?: readonly string[];
  remove_events?: readonly string[];
  active?: boolean;
}

export function item(field: string, code: ValidationItem["code"], message: string): ValidationItem {
  return { resource: "Hook", field, code, message };
}

export function failed(errors: ValidationItem[]) {
  return { status: 422, body: { ...validationFailed(errors), message: "Validation Failed" as const } } as const;
}

export const urlTaken = () => failed([item("config.url", "already_exists", "A webhook with this URL is already installed here.")]);

/** Problems with one list of event names from the request (`field` names it in the 422). */
function eventErrors(names: readonly string[] | undefined, field: string, place: HookPlace, service: ServiceDefinition | undefined): ValidationItem[] {
  const errors: ValidationItem[] = [];
  for (const name of names ?? []) {
    if (!isHookEventName(name)) errors.push(item(field, "invalid", `${name} is not an event name.`));
    else if (place === "repo" && ORGANIZATION_ONLY_EVENTS.includes(name)) errors.push(item(field, "invalid", `${name} is an organization hook event; repository hooks cannot subscribe to it.`));
    else if (service && !(service.supported_events as readonly string[]).includes(name)) errors.push(item(field, "invalid", `${service.name} does not support the ${name} event.`));
  }
  return errors;
}

/** The events after an edit: `events` replaces, then `add_events` adds, then `remove_events` removes. */
function editedEvents(current: readonly string[], body: UpdateBody): Parsed<string[]> {
  let list = body.events !== undefined ? normalizeEvents(body.events) : [...current];
  if (body.add_events) list = normalizeEvents([...list, ...body.add_events]);
  const remove = body.remove_events ?? [];
  if (list.includes(WILDCARD) && !remove.includes(WILDCARD) && remove.length > 0) {
    // "All events but these" cannot be expressed: `*` would silently keep delivering them.
    return { ok: false, errors: [item("remove_events", "invalid", "The hook subscribes to * (every event); remove * or set events to the list wanted.")] };
  }
  return { ok: true, value: normalizeEvents(list.filter((name) => !remove.includes(name))) };
}

/** A hook URL the egress policy refuses from its literal address or name (hooks/egress.ts), worded for a 422. */
function egressProblem(url: string, egress: EgressPolicy): string | undefined {
  const problem = urlEgressProblem(url, egress);
  return problem ? `is refused by the hook egress policy: ${problem}` : undefined;
}

/** A webhook's config: `url` (http or https), `content_type`, `insecure_ssl`, and the sealed secret. */
function webConfig(input: Record<string, unknown>, currentSecret: string | null, egress: EgressPolicy): Parsed<{ config: Record<string, string>; secretSealed: string | null }> {
  const errors: ValidationItem[] = [];
  const text = (key: string): string | undefined => {
    const value = input[key];
    if (value === undefined) return undefined;
    if (typeof value !== "string") {
      errors.push(item(`config.${key}`, "invalid", `config.${key} must be a string.`));
      return undefined;
    }
    return value;
  };
  const url = text("url");
  const contentType = text("content_type") ?? "json";
  const insecure = text("insecure_ssl") ?? "0";
  const secret = text("secret");
  if (input.url === undefined) errors.push(item("config.url", "missing_field", "config.url is required."));
  else if (url !== undefined) {
    const problem = urlProblem(url) ?? egressProblem(url, egress);
    if (problem) errors.push(item("config.url", "invalid", `config.url ${problem}.`));
  }
  if (contentType !== "json" && contentType !== "form") errors.push(item("config.content_type", "invalid", 'config.content_type must be "json" or "form".'));
  if (insecure !== "0" && insecure !== "1") errors.push(item("config.insecure_ssl", "invalid", 'config.insecure_ssl must be "0" or "1".'));
  if (errors.length > 0 || url === undefined) return { ok: false, errors };
  // Left out: keep (it cannot be read back to resend it); "": remove.
  const secretSealed = secret === undefined ? currentSecret : secret === "" ? null : sealSecret(secret);
  // Other keys are not a webhook's: ignored, like unknown top-level keys.
  return { ok: true, value: { config: { url, content_type: contentType, insecure_ssl: insecure }, secretSealed } };
}

/** A service hook's config: only the service's keys; `password` values sealed; left-out ones kept. */
function serviceConfig(service: ServiceDefinition, input: Record<string, unknown>, current: Record<string, string> | undefined, egress: EgressPolicy): Parsed<Record<string, string>> {
  const errors: ValidationItem[] = [];
  const types = new Map(service.schema.map(([type, key]) => [key, type]));
  const config: Record<string, string> = {};
  for (const [key, value] of Object.entries(input)) {
    const type = types.get(key);
    const badUrl = typeof value === "string" && service.urlKeys.includes(key) ? urlProblem(value) : undefined;
    const problem = !type
      ? `${key} is not a config key of ${service.name} (see GET /hooks).`
      : typeof value !== "string"
        ? `config.${key} must be a string.`
        : value === ""
          ? undefined
          : type === "boolean" && value !== "0" && value !== "1"
            ? `config.${key} must be "0" or "1".`
            : badUrl
              ? `config.${key} ${badUrl}.`
              : service.check?.(key, value);
    if (problem) errors.push(item(`config.${key}`, "invalid", problem));
    // "" is no value: a string key left empty, a password removed.
    else if (typeof value === "string" && value !== "") config[key] = type === "password" ? sealSecret(value) : value;
  }
  for (const [type, key] of service.schema) {
    const kept = current?.[key];
    if (type === "password" && input[key] === undefined && kept !== undefined) config[key] = kept;
  }
  // Where the service will post (its URL keys, or a URL it builds from a key): the egress policy.
  // A URL key may be a password one (chat's webhook_url): checked in plaintext, a kept one opened.
  const plain = openedConfig(service, config);
  const targets = service.targets ? service.targets(plain) : service.urlKeys.filter((k) => plain[k] !== undefined).map((k) => [k, plain[k]!] as const);
  for (const [key, url] of targets) {
    const problem = errors.some((e) => e.field === `config.${key}`) ? undefined : egressProblem(url, egress);
    if (problem) errors.push(item(`config.${key}`, "invalid", `config.${key} ${problem}.`));
  }
  for (const key of service.required) {
    if (config[key] === undefined && !errors.some((e) => e.field === `config.${key}`)) errors.push(item(`config.${key}`, "missing_field", `config.${key} is required by ${service.name}.`));
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: config };
}

/**
 * A create request, or — for a service already installed (`current`) — the update that
 * "creating it again" is: the request's values with the create defaults, passwords the request
 * leaves out kept.
 */
export function parseCreate(body: CreateBody, place: HookPlace, service: ServiceDefinition | undefined, egress: EgressPolicy, current?: HookRow): Parsed<HookValues> {
  const errors = eventErrors(body.events, "events", place, service);
  const events = normalizeEvents(body.events ?? service?.events ?? DEFAULT_EVENTS);
  const active = body.active ?? true;
  if (body.name === WEB || !service) {
    const config = webConfig(body.config, current?.secret_sealed ?? null, egress);
    if (!config.ok) errors.push(...config.errors);
    return errors.length > 0 || !config.ok ? { ok: false, errors } : { ok: true, value: { events, active, ...config.value } };
  }
  const config = serviceConfig(service, body.config, current?.config, egress);
  if (!config.ok) errors.push(...config.errors);
  return errors.length > 0 || !config.ok ? { ok: false, errors } : { ok: true, value: { events, active, config: config.value, secretSealed: null } };
}

/** An edit of `current`: keys left out keep their value. */
export function parseUpdate(body: UpdateBody, current: HookRow, place: HookPlace, service: ServiceDefinition | undefined, egress: EgressPolicy): Parsed<HookValues> {
  const errors = [
    ...eventErrors(body.events, "events", place, service),
    ...eventErrors(body.add_events, "add_events", place, service),
    ...(body.remove_events ?? []).filter((n) => !isHookEventName(n)).map((n) => item("remove_events", "invalid", `${n} is not an event name.`)),
  ];
  const events = editedEvents(current.events, body);
  if (!events.ok) errors.push(...events.errors);
  let config = current.config;
  let secretSealed = current.secret_sealed;
  if (body.config !== undefined) {
    if (service) {
      const parsed = serviceConfig(service, body.config, current.config, egress);
      if (parsed.ok) config = parsed.value;
      else errors.push(...parsed.errors);
    } else {
      const parsed = webConfig(body.config, current.secret_sealed, egress);
      if (parsed.ok) ({ config, secretSealed } = parsed.value);
      else errors.push(...parsed.errors);
    }
  }
  if (errors.length > 0 || !events.ok) return { ok: false, errors };
  return { ok: true, value: { events: events.value, active: body.active ?? current.active, config, secretSealed } };
}
