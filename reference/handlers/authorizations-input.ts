/**
 * Request rules of the authorizations API that the schemas leave to the server: length caps on
 * the free-text fields (the schemas set none; a note is a reminder, not storage), the
 * `already_exists` error for a duplicate note, and how `add_scopes` / `remove_scopes` change a
 * token's scopes. The schemas already enforce known scope names, `client_id` with
 * `client_secret`, and exactly one of `scopes` / `add_scopes` / `remove_scopes`.
 */
import { expand, normalize, type Scope } from "../auth/scopes.ts";
import { validationFailed, type ValidationItem } from "../http/errors.ts";

const RESOURCE = "OauthAccess";

export const MAX_LENGTH = { note: 1024, note_url: 2048, fingerprint: 255 } as const;

export function item(field: string, code: ValidationItem["code"], message?: string): ValidationItem {
  return message === undefined ? { resource: RESOURCE, field, code } : { resource: RESOURCE, field, code, message };
}

export function failed(...errors: ValidationItem[]) {
  return { status: 422, body: { ...validationFailed(errors), message: "Validation Failed" as const } } as const;
}

/** The model service reported a duplicate note on the field `description`. */
export const noteExists = () => failed(item("description", "already_exists", "An authorization with this note already exists."));

/** Fields over their cap, as 422 items (`invalid`, with the cap in the message). */
export function lengthErrors(fields: { note?: string; note_url?: string; fingerprint?: string | null }): ValidationItem[] {
  const out: ValidationItem[] = [];
  for (const field of ["note", "note_url", "fingerprint"] as const) {
    const value = fields[field];
    if (typeof value === "string" && value.length > MAX_LENGTH[field]) {
      out.push(item(field, "invalid", `${field} is longer than ${MAX_LENGTH[field]} characters.`));
    }
  }
  return out;
}

export interface ScopeChange {
  scopes?: readonly string[];
  add_scopes?: readonly string[];
  remove_scopes?: readonly string[];
}

/**
 * The scopes after a PATCH. `scopes` replaces; `add_scopes` adds. `remove_scopes` removes what
 * the scope grants, not just the name: removing `public_repo` from `repo` leaves `repo:status`,
 * `repo_deployment` and `notifications`, since a token that kept `repo` would still have it.
 */
export function updatedScopes(current: readonly Scope[], change: ScopeChange): Scope[] {
  if (change.scopes) return normalize(change.scopes as Scope[]);
  if (change.add_scopes) return normalize([...current, ...(change.add_scopes as Scope[])]);
  const removed = new Set((change.remove_scopes ?? []).flatMap((s) => [...expand(s as Scope)]));
  const granted = new Set(current.flatMap((s) => [...expand(s)]));
  return normalize([...granted].filter((s) => ![...expand(s)].some((g) => removed.has(g))));
}
