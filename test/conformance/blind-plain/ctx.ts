// ctx.ts — shared types of the API host (World, request context) and the guards and list pager handlers use.
import type { IncomingMessage } from "node:http";
import type { Deliverer } from "./deliverer.ts";
import { fail, notFound, type Reply } from "./http.ts";
import type { Identity } from "./identity.ts";
import type { RateLimiter } from "./ratelimit.ts";
import { allows } from "./scopes.ts";
import type { Repo, Store, User } from "./store.ts";
import { linkHeader, paging, type JsonObject } from "./util.ts";

export interface World {
  store: Store; deliverer: Deliverer; limiter: RateLimiter;
  api: string; web: string; adminKey: string;
  main: string; mainRepo: string; org: string;
}

export interface ApiCtx {
  w: World; req: IncomingMessage; url: URL; q: URLSearchParams; id: Identity;
  /** Scopes this action checks for (X-Accepted-OAuth-Scopes). */
  accepted: string[];
  /** The JSON object body; throws a 400 reply when malformed. */
  json(): Promise<JsonObject>;
}

export const viewer = (c: ApiCtx): User | null => (c.id.kind === "user" ? c.id.user : null);

/** The token's scopes, or null for Basic / anonymous callers. */
export const tokenScopes = (c: ApiCtx): string[] | null =>
  c.id.kind === "user" && c.id.via === "token" ? c.id.auth.scopes : null;

/** Basic auth is unrestricted; a token needs one of `accepted`; anonymous has none. */
export function hasScopes(c: ApiCtx, accepted: readonly string[]): boolean {
  const t = tokenScopes(c);
  return t === null ? c.id.kind === "user" : allows(t, accepted);
}

export function needUser(c: ApiCtx): User {
  const u = viewer(c);
  if (!u) throw fail(401, "requires_authentication", "Requires authentication");
  return u;
}

export function needScopes(c: ApiCtx, accepted: string[]): void {
  c.accepted = accepted;
  if (!hasScopes(c, accepted)) throw fail(403, "insufficient_scope", `This action requires one of these scopes: ${accepted.join(", ")}`);
}

/** Read access to a repository for this caller, scopes included (private needs `repo`). */
export function canRead(c: ApiCtx, r: Repo): boolean {
  if (!r.private) return true;
  const u = viewer(c);
  return u !== null && c.w.store.canSee(u.login, r) && hasScopes(c, ["repo"]);
}

export function readableRepo(c: ApiCtx, owner: string | undefined, name: string | undefined): Repo {
  const r = c.w.store.repoOf(owner, name);
  if (!r) throw notFound();
  if (r.private) c.accepted = ["repo"];
  if (!canRead(c, r)) throw notFound();
  return r;
}

/** A 10-per-page (per_page ≤ 50) list with first/prev/next/last links. */
export function paged<T>(c: ApiCtx, items: readonly T[], map: (t: T) => unknown): Reply {
  const { page, perPage } = paging(c.q);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = linkHeader(c.url, page, last, ["next", "last", "first", "prev"]);
  return { status: 200, body: items.slice((page - 1) * perPage, page * perPage).map(map), headers: link ? { Link: link } : {} };
}
