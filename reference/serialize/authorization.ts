/**
 * The contract's Authorization object (spec/schemas/authorization.json) for a stored row. The
 * plaintext token exists only in the call that created or reset it, so it is passed in there and
 * is `""` everywhere else; `hashed_token` is the stored SHA-256 digest. Tokens made without an
 * application (personal tokens of the authorizations API) belong to a built-in application, as
 * application.json says, named after the note the way the model service did ("<note> (API)").
 */
import type { components } from "../../generated/types.ts";
import type { Urls } from "../context.ts";
import type { Account } from "../store/accounts.ts";
import type { Application } from "../store/applications.ts";
import type { AuthorizationRow } from "../store/authorizations.ts";
import { normalize } from "../auth/scopes.ts";
import { isoRequired } from "./time.ts";
import { userJson } from "./user.ts";

export type AuthorizationJson = components["schemas"]["Authorization"];

/** The built-in application's client ID: 20 zeros, which no registered application is given. */
export const PERSONAL_CLIENT_ID = "00000000000000000000";

export interface AuthorizationExtras {
  /** The plaintext token, only in the response that creates or resets it. */
  token?: string;
  /** The owner, only in the application check and reset responses. */
  user?: Account;
}

function appJson(row: AuthorizationRow, app: Application | undefined, urls: Urls): AuthorizationJson["app"] {
  if (app) return { url: app.url, name: app.name, client_id: app.client_id };
  return { url: `${urls.api}/docs`, name: `${row.note || "Personal access token"} (API)`, client_id: PERSONAL_CLIENT_ID };
}

export function authorizationJson(row: AuthorizationRow, app: Application | undefined, urls: Urls, extras: AuthorizationExtras = {}): AuthorizationJson {
  const json: AuthorizationJson = {
    id: Number(row.id),
    url: `${urls.api}/authorizations/${row.id}`,
    scopes: normalize(row.scopes),
    token: extras.token ?? "",
    token_last_eight: row.token_last_eight,
    hashed_token: row.token_hash,
    app: appJson(row, app, urls),
    note: row.note,
    note_url: row.note_url,
    fingerprint: row.fingerprint,
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
  if (extras.user) json.user = userJson(extras.user, urls);
  return json;
}
