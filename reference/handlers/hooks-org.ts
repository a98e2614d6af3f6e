/**
 * Organization hooks: webhooks only (a service name is a 422 — services are installed on
 * repositories), managed by an admin of the organization with `admin:org_hook` (checked by the
 * API hooks). Seed: an OAuth token acts only on the hooks its application created, a personal
 * token only on those a user created with a personal token; any other hook is a 404, as are
 * organizations the caller does not administer.
 */
import type { HostHandlers } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import { findService, WEB } from "../hooks/catalog.ts";
import { administeredOrg, hookCaller, notFound, unauthenticated } from "./hooks-access.ts";
import { failed, item } from "./hooks-input.ts";
import { createWebHook, deletePlaceHook, getPlaceHook, listPlaceHooks, updatePlaceHook, type Place } from "./hooks-manage.ts";
import type { Supplied } from "./supplied.ts";

type Handlers = HostHandlers<"api", Supplied>;

export function orgHookHandlers(ctx: Context): Pick<Handlers, "listOrgHooks" | "createOrgHook" | "getOrgHook" | "updateOrgHook" | "deleteOrgHook"> {
  async function place(params: { org: string }, raw: Parameters<Handlers["listOrgHooks"]>[0]["raw"]) {
    const caller = hookCaller(raw);
    if (!caller) return { ok: false, refusal: unauthenticated } as const;
    const org = await administeredOrg(ctx.db, params.org, caller.user.id);
    if (!org) return { ok: false, refusal: notFound } as const;
    const at: Place = { kind: "org", id: org.id, owner: org.owner, scope: { orgId: org.id, appId: caller.appId } };
    return { ok: true, caller, place: at } as const;
  }

  return {
    async listOrgHooks({ params, query, raw }) {
      const p = await place(params, raw);
      return !p.ok ? p.refusal : listPlaceHooks(ctx, p.place, query.page ?? 1);
    },

    async createOrgHook({ params, body, raw }) {
      const p = await place(params, raw);
      if (!p.ok) return p.refusal;
      if (body.name !== WEB) {
        const message = findService(body.name)
          ? `${body.name} is a service: service hooks are installed on repositories only.`
          : `${body.name} is not web; organizations take webhooks only.`;
        return failed([item("name", "invalid", message)]);
      }
      return createWebHook(ctx, p.place, body, p.caller);
    },

    async getOrgHook({ params, raw }) {
      const p = await place(params, raw);
      return !p.ok ? p.refusal : getPlaceHook(ctx, p.place, params.hook_id);
    },

    async updateOrgHook({ params, body, raw }) {
      const p = await place(params, raw);
      return !p.ok ? p.refusal : updatePlaceHook(ctx, p.place, params.hook_id, body);
    },

    async deleteOrgHook({ params, raw }) {
      const p = await place(params, raw);
      return !p.ok ? p.refusal : deletePlaceHook(ctx, p.place, params.hook_id);
    },
  };
}
