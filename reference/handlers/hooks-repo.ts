/**
 * Repository hooks: webhooks and service hooks (seed *Service hooks*: repositories only, one per
 * service per repository — creating it again updates the existing one and answers 200). Every
 * operation needs a token with a repository-hook scope (checked by the API hooks) and a caller
 * who administers the repository; anyone else gets 404.
 */
import type { HostHandlers } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import { findService, WEB, type ServiceDefinition } from "../hooks/catalog.ts";
import { ensureSecretKey } from "../hooks/secret-box.ts";
import { hookJson } from "../serialize/hook.ts";
import { findServiceHook, isHookConflict, updateHook } from "../store/hooks.ts";
import { administeredRepo, hookCaller, notFound, unauthenticated, type HookCaller } from "./hooks-access.ts";
import { DEFAULT_EGRESS } from "../hooks/egress.ts";
import { failed, item, parseCreate, type CreateBody } from "./hooks-input.ts";
import { created, createWebHook, deletePlaceHook, getPlaceHook, insertAndPing, listPlaceHooks, placeFull, tooManyHooks, updatePlaceHook, type Place } from "./hooks-manage.ts";
import type { Supplied } from "./supplied.ts";

type Handlers = HostHandlers<"api", Supplied>;

const SERVICE_INDEX = "hooks_one_service_per_repo";

/** Installs the service, or updates its hook when the repository has one already. */
async function installService(ctx: Context, place: Place, service: ServiceDefinition, body: CreateBody, caller: HookCaller) {
  await ensureSecretKey(ctx.db);
  const attempt = () =>
    ctx.db.transaction(async (tx) => {
      const existing = await findServiceHook(tx, place.id, service.name);
      const parsed = parseCreate(body, "repo", service, ctx.hookEgress ?? DEFAULT_EGRESS, existing);
      if (!parsed.ok) return failed(parsed.errors);
      if (existing) {
        const row = await updateHook(tx, existing.id, { ...parsed.value, now: ctx.now() });
        return { status: 200 as const, body: hookJson(row, ctx.urls, place.owner) };
      }
      if (await placeFull(ctx, tx, place)) return tooManyHooks("repo");
      return created(ctx, place, await insertAndPing(ctx, tx, place, service.name, parsed.value, caller));
    });
  try {
    return await attempt();
  } catch (error) {
    // Two requests installed the service at once: this one lost, so it updates the winner's hook.
    if (isHookConflict(error, SERVICE_INDEX)) return attempt();
    throw error;
  }
}

export function repoHookHandlers(ctx: Context): Pick<Handlers, "listRepoHooks" | "createRepoHook" | "getRepoHook" | "updateRepoHook" | "deleteRepoHook"> {
  /** The caller and the repository they administer, or the refusal to answer. */
  async function place(params: { owner: string; repo: string }, raw: Parameters<Handlers["listRepoHooks"]>[0]["raw"]) {
    const caller = hookCaller(raw);
    if (!caller) return { ok: false, refusal: unauthenticated } as const;
    const repo = await administeredRepo(ctx.db, params.owner, params.repo, caller.user.id);
    if (!repo) return { ok: false, refusal: notFound } as const;
    const at: Place = { kind: "repo", id: repo.id, owner: repo.owner, scope: { repoId: repo.id } };
    return { ok: true, caller, place: at } as const;
  }

  return {
    async listRepoHooks({ params, query, raw }) {
      const p = await place(params, raw);
      return !p.ok ? p.refusal : listPlaceHooks(ctx, p.place, query.page ?? 1);
    },

    async createRepoHook({ params, body, raw }) {
      const p = await place(params, raw);
      if (!p.ok) return p.refusal;
      if (body.name === WEB) return createWebHook(ctx, p.place, body, p.caller);
      const service = findService(body.name);
      if (!service) return failed([item("name", "invalid", `${body.name} is neither web nor a service of GET /hooks.`)]);
      return installService(ctx, p.place, service, body, p.caller);
    },

    async getRepoHook({ params, raw }) {
      const p = await place(params, raw);
      return !p.ok ? p.refusal : getPlaceHook(ctx, p.place, params.hook_id);
    },

    async updateRepoHook({ params, body, raw }) {
      const p = await place(params, raw);
      return !p.ok ? p.refusal : updatePlaceHook(ctx, p.place, params.hook_id, body);
    },

    async deleteRepoHook({ params, raw }) {
      const p = await place(params, raw);
      return !p.ok ? p.refusal : deletePlaceHook(ctx, p.place, params.hook_id);
    },
  };
}
