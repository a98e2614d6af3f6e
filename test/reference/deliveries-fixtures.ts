/**
 * Shared pieces of the delivery tests: a fast retry schedule, tokens, hook creation through the
 * API, events made through the admin endpoint, and reading a hook's delivery log.
 */
import type { DeliveryOptions } from "../../reference/deliveries/options.ts";
import type { Database } from "../../reference/db/database.ts";
import type { Scope } from "../../reference/auth/scopes.ts";
import { call, type Reply } from "./authorizations-client.ts";
import { tokenFor } from "./feeds-fixtures.ts";
import { ceiling } from "../ceilings.ts";

export const ADMIN_TOKEN = "deliveries-admin-token-0123456789";

/** Retries after ~50, 100, 200, 400 ms; a time-out short enough to test, long enough for a loaded CI machine. */
export const FAST: DeliveryOptions = {
  schedule: { attempts: 5, baseDelayMs: 50, factor: 2, jitter: 0.2 },
  timeoutMs: 1500,
  pollIntervalMs: 200,
};

export const HOOK_SCOPES: Scope[] = ["admin:repo_hook", "admin:org_hook", "repo"];

export async function hookToken(db: Database, login: string, scopes: Scope[] = HOOK_SCOPES): Promise<string> {
  return tokenFor(db, login, scopes);
}

export const auth = (token: string) => `token ${token}`;

export interface HookJson {
  id: number;
  url: string;
  last_response: { code: number | null; status: string; message: string | null };
  [key: string]: unknown;
}

/** Creates a hook at `place` (`repos/octocat/hello-world` or `orgs/octo-org`); fails the test unless 201. */
export async function createHook(api: string, token: string, place: string, body: Record<string, unknown>): Promise<HookJson> {
  const res = await call<HookJson>(api, "POST", `/${place}/hooks`, { auth: auth(token), body: { name: "web", ...body } });
  if (res.status !== 201) throw new Error(`create hook: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function simulate(api: string, event: string, body: Record<string, unknown> = {}): Promise<{ events: { id: string; type: string }[] }> {
  const res = await fetch(`${api}/_admin/simulate/${event}`, {
    method: "POST",
    headers: { "x-admin-token": ADMIN_TOKEN, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`simulate ${event}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { events: { id: string; type: string }[] };
}

export interface DeliveryJson {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  attempt: number;
  next_attempt_at: string | null;
  url: string;
}

export async function deliveries(api: string, token: string, hookPath: string, page = 1): Promise<Reply<DeliveryJson[]>> {
  return call<DeliveryJson[]>(api, "GET", `${hookPath}/deliveries${page === 1 ? "" : `?page=${page}`}`, { auth: auth(token) });
}

/** Polls `probe` until it returns something truthy, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined | false>, timeoutMs = ceiling(15_000), what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The path of a hook (`/repos/…/hooks/:id`) from its API URL. */
export function hookPath(hook: HookJson): string {
  return new URL(hook.url).pathname;
}
