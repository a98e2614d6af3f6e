/**
 * Hook management on the API host: the service hook catalog (`GET /hooks`, anonymous allowed,
 * not paginated), repository hooks (hooks-repo.ts) and organization hooks (hooks-org.ts). Pings,
 * tests and the delivery log are the delivery engine's handlers, not these.
 */
import type { HostHandlers } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import { catalogJson } from "../hooks/catalog.ts";
import { orgHookHandlers } from "./hooks-org.ts";
import { repoHookHandlers } from "./hooks-repo.ts";
import type { Supplied } from "./supplied.ts";

export function hookHandlers(ctx: Context): Partial<HostHandlers<"api", Supplied>> {
  return {
    listServiceHooks: async () => ({ status: 200, body: catalogJson() }),
    ...repoHookHandlers(ctx),
    ...orgHookHandlers(ctx),
  };
}
