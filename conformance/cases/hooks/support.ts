/**
 * What the hook management and webhook delivery cases share: where hooks go (the profile's public
 * repository or its organization), the operations for each place, and a hook's lifetime. Every
 * case installs its own webhook pointing at its own path on the built-in receiver
 * (`/<case id>/<nonce>`, so two runs or two hooks never share a URL, which the contract refuses),
 * with a fresh random secret, and deletes it when done — `withHook` does the try/finally. The
 * delete after a passing body goes through the case's client (its 2xx is part of the case); after
 * a failure it goes through a client of its own, so the curl line reported stays the request
 * that showed the failure.
 */
import { nonce, randomHex } from "../../core/random.ts";
import type { CaseContext } from "../../core/types.ts";
import type { Receiver } from "../../core/receiver.ts";
import { HttpClient, type HttpResponse } from "../../core/http.ts";
import { check, type Checks } from "../../core/failure.ts";
import { stopAt } from "../profile.ts";

export const SEED = {
  subscription: "Events › Webhook subscription",
  headers: "Events › Delivery headers",
  ping: "Events › Ping event",
  authentication: "Authentication › Webhook authentication",
  payload: "Resources › Webhook delivery payload",
  pingPayload: "Resources › Ping payload",
  endpoints: "Endpoints › C. Webhook and service-hook related",
  services: "Events › Service hooks",
} as const;

/** The contract's Hook, as far as the cases read it (the full shape is checked by the validators). */
export interface Hook {
  id: number;
  url: string;
  test_url?: string;
  ping_url: string;
  deliveries_url: string;
  name: string;
  events: string[];
  active: boolean;
  config: Record<string, string | undefined>;
  created_at: string;
  updated_at: string;
  last_response: { code: number | null; status: string; message: string | null };
}

export type Place = { kind: "repo"; owner: string; repo: string; full: string } | { kind: "org"; org: string };

/** The operations of one place, so a case is written once for repository and organization hooks. */
const OPERATIONS = {
  repo: { list: "listRepoHooks", create: "createRepoHook", get: "getRepoHook", update: "updateRepoHook", remove: "deleteRepoHook", ping: "pingRepoHook" },
  org: { list: "listOrgHooks", create: "createOrgHook", get: "getOrgHook", update: "updateOrgHook", remove: "deleteOrgHook", ping: "pingOrgHook" },
} as const;

export type HookOperation = keyof (typeof OPERATIONS)["repo"];

export { nonce };

/** A fresh secret per hook, with characters a careless implementation might mangle. */
export function freshSecret(): string {
  return `conformance ${randomHex(12)} + it's secret`;
}

export function repoPlace(ctx: CaseContext): Place {
  const full = ctx.profile.repos?.public;
  if (!full) ctx.skip("profile has no public repository (repos.public)");
  const [owner = "", repo = ""] = full.split("/");
  return { kind: "repo", owner, repo, full };
}

export function orgPlace(ctx: CaseContext): Place {
  const org = ctx.profile.org;
  if (!org) ctx.skip("profile has no org");
  return { kind: "org", org };
}

export function placeName(place: Place): string {
  return place.kind === "repo" ? `/repos/${place.full}/hooks` : `/orgs/${place.org}/hooks`;
}

/** users[0]'s token: it administers the public repository and the organization. */
export function adminToken(ctx: CaseContext): string {
  const token = ctx.profile.users[0]?.token;
  if (!token) ctx.skip("profile has no token for users[0]");
  return token;
}

export function receiverOf(ctx: CaseContext): Receiver {
  if (!ctx.receiver) ctx.skip("the run has no webhook receiver");
  return ctx.receiver;
}

function placeParams(place: Place): Record<string, string> {
  return place.kind === "repo" ? { owner: place.owner, repo: place.repo } : { org: place.org };
}

/** One hook operation on a place, through `client` (the case's own by default), validated against the contract. */
export function hookRequest(
  ctx: CaseContext,
  place: Place,
  operation: HookOperation,
  options: { id?: number; json?: unknown; page?: number; client?: HttpClient; validate?: boolean } = {},
): Promise<HttpResponse> {
  const params: Record<string, string | number> = { ...placeParams(place), ...(options.id !== undefined ? { hook_id: options.id } : {}) };
  return (options.client ?? ctx.http).request({
    operationId: OPERATIONS[place.kind][operation],
    params,
    token: adminToken(ctx),
    ...(options.json !== undefined ? { json: options.json } : {}),
    ...(options.page !== undefined ? { query: { page: options.page } } : {}),
    ...(options.validate === false ? { validate: false } : {}),
  });
}

export interface HookSpec {
  /** Left out of the request when undefined (the default subscription). */
  events?: string[];
  contentType?: "json" | "form";
  /** A secret to configure; none when undefined. */
  secret?: string;
  active?: boolean;
}

export interface Installed {
  place: Place;
  hook: Hook;
  id: number;
  /** The receiver path the hook delivers to, and the full URL configured. */
  path: string;
  url: string;
  secret?: string;
  response: HttpResponse;
}

/** The create request body for a webhook delivering to `url`. */
export function createBody(url: string, spec: HookSpec): Record<string, unknown> {
  const config: Record<string, string> = { url };
  if (spec.contentType) config.content_type = spec.contentType;
  if (spec.secret !== undefined) config.secret = spec.secret;
  return { name: "web", config, ...(spec.events ? { events: spec.events } : {}), ...(spec.active !== undefined ? { active: spec.active } : {}) };
}

/** A new receiver path for one hook of a case. */
export function hookPath(caseId: string, label = "hook"): string {
  return `/${caseId}/${label}-${nonce()}`;
}

export function is2xx(status: number): boolean {
  return status >= 200 && status < 300;
}

/**
 * A hook API answer (the contract's; the seed shows none): any 2xx or the case stops, and the
 * contract's exact status counts against D-HOOK-STATUSES alone, so a target whose hook API
 * answers other 2xx statuses declares that one switch and keeps every other check of the case.
 */
export function checkHookStatus(ctx: CaseContext, status: number, expected: number, what: string): void {
  check.ok(is2xx(status), `${what} answers a 2xx (the contract's is ${expected})`, { expected: "2xx", actual: status, pointer: "/status" });
  ctx.rule("D-HOOK-STATUSES").status(status, expected, what);
}

/**
 * Creates a webhook on `place` delivering to a fresh receiver path; any 2xx or the case fails.
 * The hook API is the contract's (the seed shows none of it), so the exact status (201) is
 * HOOKS-CREATE-001's check under D-HOOK-STATUSES, not every case's that needs a hook.
 */
export async function installHook(ctx: CaseContext, place: Place, caseId: string, spec: HookSpec, label?: string): Promise<Installed> {
  const path = hookPath(caseId, label);
  const url = receiverOf(ctx).url(path);
  const response = await hookRequest(ctx, place, "create", { json: createBody(url, spec) });
  // A form hook is the contract's (D-DELIVERY-CONTENT-TYPE; the seed's deliveries are JSON): refused, that is its departure.
  if (spec.contentType === "form" && !is2xx(response.status)) stopAt(ctx, "D-DELIVERY-CONTENT-TYPE", `POST ${placeName(place)} creates a webhook of content_type form`, { expected: "2xx", actual: `${response.status} ${response.text.slice(0, 200)}`, pointer: "/status" });
  check.ok(is2xx(response.status), `POST ${placeName(place)} creates the webhook (a 2xx; the contract's is 201)`, { expected: "2xx", actual: `${response.status} ${response.text.slice(0, 200)}`, pointer: "/status" });
  const hook = response.json<Hook>();
  check.ok(hook !== null && typeof hook === "object" && Number.isInteger(hook.id), "the created hook has an id", { actual: hook?.id, pointer: "/body/id" });
  return { place, hook, id: hook.id, path, url, secret: spec.secret, response };
}

/** Deletes the hook; when `strict`, the answer must be a 2xx (the contract's 204 is HOOKS-DELETE-001's check). */
export async function removeHook(ctx: CaseContext, installed: Installed, strict: boolean): Promise<void> {
  if (strict) {
    const res = await hookRequest(ctx, installed.place, "remove", { id: installed.id });
    check.ok(is2xx(res.status), `DELETE ${placeName(installed.place)}/${installed.id} deletes the hook (a 2xx; the contract's is 204)`, { expected: "2xx", actual: res.status, pointer: "/status" });
    return;
  }
  // After a failure: a side client, so the case's last request (its curl line) stays the one that failed.
  await removeQuietly(ctx, installed.place, installed.id);
}

/**
 * Deletes a hook the case made, on a side client, whatever the case's checks said; a hook that
 * could not be deleted is noted ("left behind: …"), so a report says what the run left on the target.
 */
export async function removeQuietly(ctx: CaseContext, place: Place, id: number): Promise<void> {
  const side = new HttpClient(ctx.baseUrl, ctx.authUrl);
  try {
    // Not validated: tidying up checks nothing, it only has to know whether the hook is gone.
    const res = await hookRequest(ctx, place, "remove", { id, client: side, validate: false });
    if (!is2xx(res.status) && res.status !== 404) ctx.note(`left behind: hook ${id} on ${placeName(place)} (DELETE answered ${res.status})`);
  } catch (error) {
    ctx.note(`left behind: hook ${id} on ${placeName(place)} (DELETE failed: ${(error as Error).message})`);
  }
}

/** A create the case expected to be refused answered 2xx: the hook it made (when its id can be read) is removed. */
export async function removeCreated(ctx: CaseContext, place: Place, res: HttpResponse): Promise<void> {
  let id: unknown;
  try {
    id = (res.json<{ id?: unknown }>() ?? {}).id;
  } catch {
    id = undefined;
  }
  if (Number.isInteger(id)) await removeQuietly(ctx, place, id as number);
  else ctx.note(`left behind: a hook on ${placeName(place)} whose create answered ${res.status} without an id to delete it by`);
}

/** Installs a webhook, runs `body` with it, and deletes it whatever happens. */
export async function withHook(ctx: CaseContext, place: Place, caseId: string, spec: HookSpec, body: (hook: Installed) => Promise<void>): Promise<void> {
  const installed = await installHook(ctx, place, caseId, spec);
  let passed = false;
  try {
    await body(installed);
    passed = true;
  } finally {
    await removeHook(ctx, installed, passed);
  }
}

/** Set equality of event lists, order aside (implementations may sort them). */
export function sameEvents(actual: readonly string[] | undefined, expected: readonly string[]): boolean {
  if (!Array.isArray(actual) || actual.length !== expected.length) return false;
  return [...actual].sort().join(",") === [...expected].sort().join(",");
}

export function checkEvents(actual: readonly string[] | undefined, expected: readonly string[], message: string, pointer = "/body/events"): void {
  if (!sameEvents(actual, expected)) check.fail(message, { expected: [...expected].sort(), actual, pointer });
}

/** The write-only secret must not appear anywhere in a response's raw text. */
export function checkSecretHidden(text: string, secret: string | undefined, where: string, checks: Checks = check): void {
  if (!secret) return;
  const leaked = [secret, JSON.stringify(secret).slice(1, -1)].some((form) => text.includes(form));
  checks.ok(!leaked, `${where}: the config secret is write-only and never returned`, { expected: "no secret in the response", actual: "the secret appears in the body", pointer: "/body/config/secret" });
}

/**
 * What a server of this contract answers for a webhook it created (D-SCHEMA-HOOK-RESPONSE):
 * `deliveries_url`, and the config the request set — its `url`, `content_type` `json` or `form`
 * (the one asked for, `json` by default), `insecure_ssl` `"0"` or `"1"`. The response schema
 * takes less, as the real service sends less (D-RECEIVED-RESPONSES), so the case holds an
 * implementation to it.
 */
export function checkHookResponse(ctx: CaseContext, installed: Installed, spec: HookSpec, where: string): void {
  if (ctx.decisions.off("D-SCHEMA-HOOK-RESPONSE")) return;
  const rule = ctx.rule("D-SCHEMA-HOOK-RESPONSE");
  const hook = installed.hook;
  rule.ok(typeof hook.deliveries_url === "string" && hook.deliveries_url.length > 0, `${where}: deliveries_url, the hook's delivery log`, { expected: "a URL", actual: hook.deliveries_url, pointer: "/body/deliveries_url" });
  const config = (hook.config ?? {}) as Record<string, unknown>;
  rule.equal(config.url, installed.url, `${where}: config.url is the URL the request set`, "/body/config/url");
  rule.equal(config.content_type, spec.contentType ?? "json", `${where}: config.content_type is the one asked for (json by default)`, "/body/config/content_type");
  rule.ok(config.insecure_ssl === "0" || config.insecure_ssl === "1", `${where}: config.insecure_ssl is "0" or "1"`, { expected: '"0" or "1"', actual: config.insecure_ssl, pointer: "/body/config/insecure_ssl" });
}
