/** The web host: OAuth pages and token exchange (placeholder until the web flow lands). */
import type { FastifyInstance } from "fastify";
import type { HostHandlers } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";

export function oauthHandlers(_ctx: Context): Partial<HostHandlers<"auth">> {
  return {};
}

/** Routes of the web host that are not part of the contract (form posts of the HTML pages). */
export async function registerOAuthPages(_app: FastifyInstance, _ctx: Context): Promise<void> {}
