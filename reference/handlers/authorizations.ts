/**
 * The non-web flow on the API host (DECISIONS / DESIGN "Non-web flow"): the authorizations API
 * with Basic username and password (and two-factor codes), and the application token endpoints
 * with Basic client credentials. Authentication itself happens in the API hooks
 * (http/basic-auth.ts); these handlers find the caller in `request.basic`.
 */
import type { HostHandlers } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import { appTokenHandlers } from "./app-tokens.ts";
import { createHandlers } from "./authorizations-create.ts";
import { manageHandlers } from "./authorizations-manage.ts";
import type { Supplied } from "./supplied.ts";

export function authorizationHandlers(ctx: Context): Partial<HostHandlers<"api", Supplied>> {
  return { ...manageHandlers(ctx), ...createHandlers(ctx), ...appTokenHandlers(ctx) };
}
