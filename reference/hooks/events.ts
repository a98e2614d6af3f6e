/**
 * The event names a hook subscribes to, and the one rule of their lists: `*` matches every
 * current and future event, so a list holding it is exactly `["*"]`; any other list is stored
 * sorted and without repeats, so equal subscriptions compare equal. The names are typed over the
 * contract's `WebhookEventName`, so a name added to the spec fails the type check until listed.
 */
import type { components } from "../../generated/types.ts";

export type HookEventName = components["schemas"]["WebhookEventName"];

// In the contract's order (the catalog's `web` entry lists them so).
const NAMES: { readonly [E in HookEventName]: true } = {
  "*": true,
  commit_comment: true,
  create: true,
  delete: true,
  deployment: true,
  deployment_status: true,
  fork: true,
  gollum: true,
  issue_comment: true,
  issues: true,
  member: true,
  membership: true,
  page_build: true,
  public: true,
  pull_request_review_comment: true,
  pull_request: true,
  push: true,
  repository: true,
  release: true,
  status: true,
  team_add: true,
  watch: true,
};

export const WILDCARD = "*";

/** Every subscribable name, `*` first, in the contract's order. */
export const HOOK_EVENT_NAMES: readonly HookEventName[] = Object.freeze(Object.keys(NAMES) as HookEventName[]);

/** Seed: "Organization hooks only" — a repository hook cannot subscribe to them. */
export const ORGANIZATION_ONLY_EVENTS: readonly string[] = Object.freeze(["membership", "repository"] satisfies HookEventName[]);

export const DEFAULT_EVENTS: readonly string[] = Object.freeze(["push"]);

export function isHookEventName(name: string): name is HookEventName {
  return Object.hasOwn(NAMES, name);
}

/** `["*"]` when the wildcard is present; otherwise sorted and unique. */
export function normalizeEvents(names: Iterable<string>): string[] {
  const unique = [...new Set(names)];
  return unique.includes(WILDCARD) ? [WILDCARD] : unique.sort();
}

/** Whether a hook subscribed to `events` receives `event`. */
export function subscribes(events: readonly string[], event: string): boolean {
  return events.includes(WILDCARD) || events.includes(event);
}
