/** The non-web flow (placeholder until it lands): authorizations API and application tokens. */
import type { HostHandlers } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import type { Supplied } from "./supplied.ts";

export function authorizationHandlers(_ctx: Context): Partial<HostHandlers<"api", Supplied>> {
  return {};
}
