/**
 * A user's own authorizations with Basic authentication: list (30 a page, `Link`), get, update
 * (scopes with exactly one of `scopes` / `add_scopes` / `remove_scopes`, plus note, note_url,
 * fingerprint) and delete (the token stops working at once). Another user's authorization is a
 * 404, as a missing one is. `token` is always `""` here: it is shown only on creation.
 *
 * Narrowing an application's authorization also ends the user's codes for that application not
 * yet exchanged (D-REF-NARROW-ENDS-CODES): a code carries the scopes of its grant as they were, and
 * exchanged after the narrowing it would bring the wider access back.
 */
import type { HostHandlers } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import { linkHeader, pageWindow } from "../http/pagination.ts";
import { authorizationJson } from "../serialize/authorization.ts";
import { findApplicationById } from "../store/applications.ts";
import { expand, type Scope } from "../auth/scopes.ts";
import { deletePendingCodes } from "../store/codes.ts";
import { findAuthorization, listAuthorizations, updateAuthorization, type AuthorizationRow } from "../store/authorizations.ts";
import { applicationsByIds, deleteOwnedAuthorization, isNoteConflict, noteTaken } from "../store/authorization-queries.ts";
import { failed, lengthErrors, noteExists, updatedScopes } from "./authorizations-input.ts";
import { basicUser, notFound, unauthenticated } from "./basic-caller.ts";
import type { Supplied } from "./supplied.ts";

type Handlers = HostHandlers<"api", Supplied>;

/** An id the database can hold; anything larger names no authorization. */
function validId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1;
}

/** Whether `after` grants less than `before` did (a scope of `before`, or one it implies, is gone). */
function narrowed(before: readonly Scope[], after: readonly Scope[]): boolean {
  const kept = new Set(after.flatMap((s) => [...expand(s)]));
  return before.some((s) => [...expand(s)].some((g) => !kept.has(g)));
}

async function withApp(ctx: Context, row: AuthorizationRow) {
  const app = row.app_id === null ? undefined : await findApplicationById(ctx.db, row.app_id);
  return authorizationJson(row, app, ctx.urls);
}

export function manageHandlers(ctx: Context): Pick<Handlers, "listAuthorizations" | "getAuthorization" | "updateAuthorization" | "deleteAuthorization"> {
  return {
    async listAuthorizations({ query, raw }) {
      const user = basicUser(raw);
      if (!user) return unauthenticated;
      const page = query.page ?? 1;
      const { limit, offset } = pageWindow(page);
      const { rows, total } = await listAuthorizations(ctx.db, user.id, limit, offset);
      const apps = await applicationsByIds(ctx.db, rows.map((r) => r.app_id));
      const body = rows.map((r) => authorizationJson(r, r.app_id === null ? undefined : apps.get(Number(r.app_id)), ctx.urls));
      const link = linkHeader(`${ctx.urls.api}/authorizations`, page, total);
      return { status: 200, headers: link ? { Link: link } : {}, body };
    },

    async getAuthorization({ params, raw }) {
      const user = basicUser(raw);
      if (!user) return unauthenticated;
      const row = validId(params.authorization_id) ? await findAuthorization(ctx.db, params.authorization_id, user.id) : undefined;
      return row ? { status: 200, body: await withApp(ctx, row) } : notFound;
    },

    async updateAuthorization({ params, body, raw }) {
      const user = basicUser(raw);
      if (!user) return unauthenticated;
      const tooLong = lengthErrors(body);
      if (tooLong.length > 0) return failed(...tooLong);
      if (!validId(params.authorization_id)) return notFound;
      try {
        const result = await ctx.db.transaction(async (tx) => {
          const row = await findAuthorization(tx, params.authorization_id, user.id);
          if (!row) return "not-found" as const;
          const note = body.note ?? row.note;
          const fingerprint = body.fingerprint ?? row.fingerprint;
          const renamed = body.note !== undefined || body.fingerprint !== undefined;
          if (renamed && note !== null && (await noteTaken(tx, user.id, note, fingerprint, row.id))) return "note-taken" as const;
          const scopes = updatedScopes(row.scopes, body);
          if (row.app_id !== null && narrowed(row.scopes, scopes)) await deletePendingCodes(tx, Number(row.user_id), Number(row.app_id));
          return updateAuthorization(tx, row.id, {
            scopes,
            note: body.note,
            noteUrl: body.note_url,
            fingerprint: body.fingerprint,
          });
        });
        if (result === "not-found") return notFound;
        if (result === "note-taken") return noteExists();
        return { status: 200, body: await withApp(ctx, result) };
      } catch (error) {
        if (isNoteConflict(error)) return noteExists();
        throw error;
      }
    },

    async deleteAuthorization({ params, raw }) {
      const user = basicUser(raw);
      if (!user) return unauthenticated;
      const deleted = validId(params.authorization_id) && (await deleteOwnedAuthorization(ctx.db, params.authorization_id, user.id));
      return deleted ? { status: 204 } : notFound;
    },
  };
}
