/**
 * What a registered application may do with its users' tokens, authenticated with Basic
 * `client_id:client_secret` (checked in the API hooks): check a token (200 with its user), reset
 * it (200 with the new token; the old one stops working at once), revoke it (204), or revoke the
 * user's whole grant to the application (204: every token and pending code of that user for it).
 * A token that is unknown, revoked, or another application's is a 404, as is a path naming
 * another application than the credentials.
 */
import type { HostHandlers, RawRequest } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import { authorizationJson } from "../serialize/authorization.ts";
import { findAccountById } from "../store/accounts.ts";
import type { Application } from "../store/applications.ts";
import { findByToken, resetToken, type AuthorizationRow } from "../store/authorizations.ts";
import { revokeAppToken, revokeWholeGrant } from "../store/authorization-queries.ts";
import { basicApp, notFound, unauthenticated } from "./basic-caller.ts";
import type { Supplied } from "./supplied.ts";

type Handlers = HostHandlers<"api", Supplied>;

type Lookup = { kind: "unauthenticated" } | { kind: "not-found" } | { kind: "found"; app: Application; row: AuthorizationRow };

async function tokenOfApp(ctx: Context, raw: RawRequest, params: { client_id: string; access_token: string }): Promise<Lookup> {
  const app = basicApp(raw);
  if (!app) return { kind: "unauthenticated" };
  if (app.client_id !== params.client_id) return { kind: "not-found" };
  const row = await findByToken(ctx.db, params.access_token);
  if (!row || row.app_id === null || Number(row.app_id) !== Number(app.id)) return { kind: "not-found" };
  return { kind: "found", app, row };
}

async function withUser(ctx: Context, app: Application, row: AuthorizationRow, token?: string) {
  const user = await findAccountById(ctx.db, row.user_id);
  return authorizationJson(row, app, ctx.urls, user ? { user, token } : { token });
}

export function appTokenHandlers(ctx: Context): Pick<Handlers, "checkApplicationToken" | "resetApplicationToken" | "revokeApplicationToken" | "revokeApplicationGrant"> {
  return {
    async checkApplicationToken({ params, raw }) {
      const found = await tokenOfApp(ctx, raw, params);
      if (found.kind !== "found") return found.kind === "unauthenticated" ? unauthenticated : notFound;
      return { status: 200, body: await withUser(ctx, found.app, found.row) };
    },

    async resetApplicationToken({ params, raw }) {
      const found = await tokenOfApp(ctx, raw, params);
      if (found.kind !== "found") return found.kind === "unauthenticated" ? unauthenticated : notFound;
      const { row, token } = await resetToken(ctx.db, found.row.id);
      return { status: 200, body: await withUser(ctx, found.app, row, token) };
    },

    async revokeApplicationToken({ params, raw }) {
      const found = await tokenOfApp(ctx, raw, params);
      if (found.kind !== "found") return found.kind === "unauthenticated" ? unauthenticated : notFound;
      await ctx.db.transaction((tx) => revokeAppToken(tx, found.row.id, found.row.user_id, found.app.id));
      return { status: 204 };
    },

    async revokeApplicationGrant({ params, raw }) {
      const found = await tokenOfApp(ctx, raw, params);
      if (found.kind !== "found") return found.kind === "unauthenticated" ? unauthenticated : notFound;
      await ctx.db.transaction((tx) => revokeWholeGrant(tx, found.row.user_id, found.app.id));
      return { status: 204 };
    },
  };
}
