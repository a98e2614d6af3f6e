/**
 * The delivery engine's operations (reference/deliveries): each hook's delivery log (list, 30 a
 * page with `Link`, newest first; one attempt in detail; redeliver → 202), pings (→ 204) for
 * repository and organization hooks, and `tests` (→ 204, the latest push) for repository hooks.
 * Access is the hook's own (hooks-access.ts): a caller who does not administer the repository or
 * organization — or, for organization hooks, whose token's application did not create the hook —
 * gets 404. Work is enqueued in a transaction and delivered asynchronously; without a running
 * engine nothing is sent.
 */
import type { HostHandlers, RawRequest } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import { linkHeader, pageWindow } from "../http/pagination.ts";
import { hookUrl } from "../serialize/hook.ts";
import { findHook, type HookOwner, type HookRow } from "../store/hooks.ts";
import { DeliveryQueue } from "../deliveries/queue.ts";
import { deliveryDetailJson, deliveryJson } from "../deliveries/serialize.ts";
import { findService } from "../hooks/catalog.ts";
import { deliveryOfAttempt, getAttempt, listAttempts } from "../deliveries/store.ts";
import { administeredOrg, administeredRepo, hookCaller, notFound, unauthenticated, validHookId, type HookCaller } from "./hooks-access.ts";
import type { Supplied } from "./supplied.ts";

type Handlers = HostHandlers<"api", Supplied>;

interface Found {
  ok: true;
  caller: HookCaller;
  hook: HookRow;
  owner: HookOwner;
}
type Lookup = Found | { ok: false; refusal: typeof notFound | typeof unauthenticated };

// A page far past any list reads nothing (and keeps the offset inside the database's integers).
const MAX_OFFSET = 1_000_000_000;

export function deliveryHandlers(ctx: Context): Pick<
  Handlers,
  | "listRepoHookDeliveries" | "getRepoHookDelivery" | "redeliverRepoHookDelivery" | "pingRepoHook" | "testRepoHook"
  | "listOrgHookDeliveries" | "getOrgHookDelivery" | "redeliverOrgHookDelivery" | "pingOrgHook"
> {
  const { db } = ctx;
  // Set once the engine has started (server.ts); read per request.
  const queue = () => (ctx.pings instanceof DeliveryQueue ? ctx.pings : undefined);

  async function repoHook(params: { owner: string; repo: string; hook_id: number }, raw: RawRequest): Promise<Lookup> {
    const caller = hookCaller(raw);
    if (!caller) return { ok: false, refusal: unauthenticated };
    const repo = await administeredRepo(db, params.owner, params.repo, caller.user.id);
    const hook = repo && validHookId(params.hook_id) ? await findHook(db, { repoId: repo.id }, params.hook_id) : undefined;
    return repo && hook ? { ok: true, caller, hook, owner: repo.owner } : { ok: false, refusal: notFound };
  }

  async function orgHook(params: { org: string; hook_id: number }, raw: RawRequest): Promise<Lookup> {
    const caller = hookCaller(raw);
    if (!caller) return { ok: false, refusal: unauthenticated };
    const org = await administeredOrg(db, params.org, caller.user.id);
    const hook = org && validHookId(params.hook_id) ? await findHook(db, { orgId: org.id, appId: caller.appId }, params.hook_id) : undefined;
    return org && hook ? { ok: true, caller, hook, owner: org.owner } : { ok: false, refusal: notFound };
  }

  async function list(found: Found, page: number) {
    const { limit, offset } = pageWindow(page);
    const far = offset > MAX_OFFSET;
    const { rows, total } = await listAttempts(db, found.hook.id, far ? 0 : limit, far ? 0 : offset);
    const link = linkHeader(`${hookUrl(found.owner, found.hook.id, ctx.urls)}/deliveries`, page, total);
    return { status: 200 as const, headers: link ? { Link: link } : {}, body: rows.map((row) => deliveryJson(row, findService(found.hook.name)?.redact)) };
  }

  async function detail(found: Found, attemptId: number) {
    const row = validHookId(attemptId) ? await getAttempt(db, found.hook.id, attemptId) : undefined;
    return row ? { status: 200 as const, body: deliveryDetailJson(row, findService(found.hook.name)?.redact) } : notFound;
  }

  async function redeliver(found: Found, attemptId: number) {
    const guid = validHookId(attemptId) ? await deliveryOfAttempt(db, found.hook.id, attemptId) : undefined;
    if (guid === undefined) return notFound;
    const q = queue();
    if (q) await db.transaction((tx) => q.redeliver(tx, guid));
    return { status: 202 as const };
  }

  async function ping(found: Found) {
    const pings = ctx.pings;
    if (pings) await db.transaction((tx) => pings.ping(tx, found.hook.id, found.caller.user.id));
    return { status: 204 as const };
  }

  return {
    async listRepoHookDeliveries({ params, query, raw }) {
      const found = await repoHook(params, raw);
      return found.ok ? list(found, query.page ?? 1) : found.refusal;
    },
    async getRepoHookDelivery({ params, raw }) {
      const found = await repoHook(params, raw);
      return found.ok ? detail(found, params.delivery_id) : found.refusal;
    },
    async redeliverRepoHookDelivery({ params, raw }) {
      const found = await repoHook(params, raw);
      return found.ok ? redeliver(found, params.delivery_id) : found.refusal;
    },
    async pingRepoHook({ params, raw }) {
      const found = await repoHook(params, raw);
      return found.ok ? ping(found) : found.refusal;
    },
    async testRepoHook({ params, raw }) {
      const found = await repoHook(params, raw);
      if (!found.ok) return found.refusal;
      const q = queue();
      // 204 whether or not anything is sent (not subscribed to push, no push yet, paused).
      if (q) await db.transaction((tx) => q.testPush(tx, found.hook));
      return { status: 204 as const };
    },
    async listOrgHookDeliveries({ params, query, raw }) {
      const found = await orgHook(params, raw);
      return found.ok ? list(found, query.page ?? 1) : found.refusal;
    },
    async getOrgHookDelivery({ params, raw }) {
      const found = await orgHook(params, raw);
      return found.ok ? detail(found, params.delivery_id) : found.refusal;
    },
    async redeliverOrgHookDelivery({ params, raw }) {
      const found = await orgHook(params, raw);
      return found.ok ? redeliver(found, params.delivery_id) : found.refusal;
    },
    async pingOrgHook({ params, raw }) {
      const found = await orgHook(params, raw);
      return found.ok ? ping(found) : found.refusal;
    },
  };
}
