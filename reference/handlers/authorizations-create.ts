/**
 * Creating tokens with Basic authentication: `POST /authorizations` (a personal token, or one for
 * an application when `client_id` and `client_secret` come along) and the get-or-create `PUT
 * /authorizations/clients/:client_id[/:fingerprint]` (201 with the token when it creates, 200 with
 * `token: ""` when the user already has that grant). The plaintext token leaves only in the 201.
 */
import type { HostHandlers } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import { normalize, type Scope } from "../auth/scopes.ts";
import { authorizationJson } from "../serialize/authorization.ts";
import { findApplication, verifyClientCredentials, type Application } from "../store/applications.ts";
import { createAuthorization, findForApp, type AuthorizationRow } from "../store/authorizations.ts";
import { isNoteConflict, lockGrant, noteTaken } from "../store/authorization-queries.ts";
import type { Account } from "../store/accounts.ts";
import { failed, item, lengthErrors, noteExists } from "./authorizations-input.ts";
import { basicUser, notFound, unauthenticated } from "./basic-caller.ts";
import type { Supplied } from "./supplied.ts";

type Handlers = HostHandlers<"api", Supplied>;

interface NewFields {
  scopes?: readonly string[];
  note?: string;
  note_url?: string;
  fingerprint: string | null;
}

type Outcome = { kind: "created"; row: AuthorizationRow; token: string } | { kind: "existing"; row: AuthorizationRow } | { kind: "note-taken" };

const suspended = () => failed(item("client_id", "custom", "The application is suspended."));

/**
 * Inserts a token after the note check; with `getExisting`, first returns the user's grant for
 * the application and fingerprint if there is one. One transaction, so check and insert agree.
 */
async function createOrFind(ctx: Context, user: Account, app: Application | undefined, fields: NewFields, getExisting: boolean): Promise<Outcome> {
  try {
    return await ctx.db.transaction(async (tx): Promise<Outcome> => {
      if (getExisting && app) {
        await lockGrant(tx, ctx.db.kind, user.id, app.id, fields.fingerprint);
        const existing = await findForApp(tx, user.id, app.id, fields.fingerprint);
        if (existing) return { kind: "existing", row: existing };
      }
      if (fields.note !== undefined && (await noteTaken(tx, user.id, fields.note, fields.fingerprint))) return { kind: "note-taken" };
      const created = await createAuthorization(tx, {
        userId: user.id,
        appId: app?.id ?? null,
        scopes: normalize((fields.scopes ?? []) as Scope[]),
        via: "api",
        note: fields.note ?? null,
        noteUrl: fields.note_url ?? null,
        fingerprint: fields.fingerprint,
      });
      return { kind: "created", ...created };
    });
  } catch (error) {
    // Two requests raced past the note check; the unique index decided.
    if (isNoteConflict(error)) return { kind: "note-taken" };
    throw error;
  }
}

function answer(ctx: Context, outcome: Exclude<Outcome, { kind: "note-taken" }>, app: Application | undefined) {
  const body = authorizationJson(outcome.row, app, ctx.urls, outcome.kind === "created" ? { token: outcome.token } : {});
  return outcome.kind === "created" ? ({ status: 201, headers: { Location: body.url }, body } as const) : ({ status: 200, body } as const);
}

/** Both PUT operations: the path's fingerprint, if any, takes precedence over the body's. */
async function getOrCreate(
  ctx: Context,
  user: Account,
  clientId: string,
  pathFingerprint: string | undefined,
  body: { client_secret: string; scopes?: readonly string[]; note?: string; note_url?: string; fingerprint?: string },
) {
  const fingerprint = pathFingerprint ?? body.fingerprint ?? null;
  const tooLong = lengthErrors({ ...body, fingerprint });
  if (tooLong.length > 0) return failed(...tooLong);
  if (!(await findApplication(ctx.db, clientId))) return notFound;
  const app = await verifyClientCredentials(ctx.db, clientId, body.client_secret);
  if (!app) return failed(item("client_secret", "invalid", "The client_secret does not match the application."));
  if (app.suspended) return suspended();
  const outcome = await createOrFind(ctx, user, app, { ...body, fingerprint }, true);
  return outcome.kind === "note-taken" ? noteExists() : answer(ctx, outcome, app);
}

export function createHandlers(ctx: Context): Pick<Handlers, "createAuthorization" | "getOrCreateAuthorizationForApp" | "getOrCreateAuthorizationForAppAndFingerprint"> {
  return {
    async createAuthorization({ body, raw }) {
      const user = basicUser(raw);
      if (!user) return unauthenticated;
      const tooLong = lengthErrors(body);
      if (tooLong.length > 0) return failed(...tooLong);
      let app: Application | undefined;
      // The schema requires client_id and client_secret together.
      if (body.client_id !== undefined && body.client_secret !== undefined) {
        app = await verifyClientCredentials(ctx.db, body.client_id, body.client_secret);
        if (!app) {
          // Client IDs are public, so saying which half is wrong reveals nothing secret.
          const known = await findApplication(ctx.db, body.client_id);
          return failed(known ? item("client_secret", "invalid", "The client_secret does not match the application.") : item("client_id", "invalid", "No application has this client_id."));
        }
        if (app.suspended) return suspended();
      }
      const outcome = await createOrFind(ctx, user, app, { ...body, fingerprint: body.fingerprint ?? null }, false);
      // Without getExisting the outcome is "created" or "note-taken".
      if (outcome.kind !== "created") return noteExists();
      const json = authorizationJson(outcome.row, app, ctx.urls, { token: outcome.token });
      return { status: 201, headers: { Location: json.url }, body: json };
    },

    async getOrCreateAuthorizationForApp({ params, body, raw }) {
      const user = basicUser(raw);
      return user ? getOrCreate(ctx, user, params.client_id, undefined, body) : unauthenticated;
    },

    async getOrCreateAuthorizationForAppAndFingerprint({ params, body, raw }) {
      const user = basicUser(raw);
      return user ? getOrCreate(ctx, user, params.client_id, params.fingerprint, body) : unauthenticated;
    },
  };
}
