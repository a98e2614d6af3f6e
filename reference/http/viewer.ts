/**
 * Who is calling: resolved once per API request from `Authorization: token …` (or `bearer`) or
 * the `access_token` query parameter. A token that does not resolve is a 401 `Bad credentials`
 * even on operations that work anonymously, as the service does. Basic credentials are not
 * resolved here: only the operations that take them (non-web flow, application tokens) read them.
 */
import type { FastifyRequest } from "fastify";
import type { Database } from "../db/database.ts";
import { findAccountById, type Account } from "../store/accounts.ts";
import { findByToken, type AuthorizationRow } from "../store/authorizations.ts";
import type { Scope } from "../auth/scopes.ts";

export interface Viewer {
  user: Account | null;
  /** The token's scopes; empty for anonymous callers. */
  scopes: Scope[];
  authorization: AuthorizationRow | null;
}

export const ANONYMOUS: Viewer = Object.freeze({ user: null, scopes: [], authorization: null });

export type TokenLookup = { kind: "none" } | { kind: "token"; token: string } | { kind: "malformed" };

const TOKEN_HEADER = /^(?:token|bearer)\s+(\S+)\s*$/i;

/** The token of an `Authorization: token …` (or `bearer …`) header; undefined for anything else. */
export function tokenInHeader(header: string): string | undefined {
  return TOKEN_HEADER.exec(header)?.[1];
}

/** The presented token, if any. Both forms at once, a non-string or an empty `access_token=` is malformed. */
export function presentedToken(request: FastifyRequest): TokenLookup {
  const header = request.headers.authorization;
  const query = (request.query as Record<string, unknown> | undefined)?.access_token;
  const fromHeader = typeof header === "string" ? tokenInHeader(header) : undefined;
  if (typeof header === "string" && !fromHeader && !/^basic\s/i.test(header)) return { kind: "malformed" };
  // `?access_token=` with nothing after it is a credential that cannot be right, not no credential.
  if (query !== undefined && (typeof query !== "string" || query === "")) return { kind: "malformed" };
  if (fromHeader && query !== undefined) return { kind: "malformed" };
  const token = fromHeader ?? (query as string | undefined);
  return token ? { kind: "token", token } : { kind: "none" };
}

/** The viewer for a token, or undefined when the token is unknown (revoked, reset, made up). */
export async function viewerForToken(db: Database, token: string): Promise<Viewer | undefined> {
  const authorization = await findByToken(db, token);
  if (!authorization) return undefined;
  const user = await findAccountById(db, authorization.user_id);
  if (!user) return undefined;
  return { user, scopes: authorization.scopes, authorization };
}
