/**
 * Every API-host handler of the reference server, one factory per area. Operations whose area
 * has not landed yet answer the generated 501.
 */
import type { HostHandlers } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import { authorizationHandlers } from "./authorizations.ts";
import { deliveryHandlers } from "./deliveries.ts";
import { feedHandlers } from "./feeds.ts";
import { hookHandlers } from "./hooks.ts";
import { issueEventHandlers } from "./issue-events.ts";
import type { Supplied } from "./supplied.ts";

export function apiHandlers(ctx: Context): Partial<HostHandlers<"api", Supplied>> {
  return { ...authorizationHandlers(ctx), ...feedHandlers(ctx), ...issueEventHandlers(ctx), ...hookHandlers(ctx), ...deliveryHandlers(ctx) };
}
