// access.ts — authorization guards used by route handlers (404 for what the caller may not see, 401/403 otherwise).
import type { FastifyRequest } from "fastify";
import { principalOf, type Principal } from "./api-auth.ts";
import { ApiError, notFound } from "./problem.ts";
import { expand, hasAny } from "./scopes.ts";
import { type Ctx, type Repo, type User, canRead, repoByName } from "./model.ts";

export type UserPrincipal = Extract<Principal, { kind: "user" }>;

export const params = (req: FastifyRequest): Record<string, string> => (req.params ?? {}) as Record<string, string>;

export function viewerOf(req: FastifyRequest): User | null {
  const p = principalOf(req);
  return p.kind === "user" ? p.user : null;
}

/** May this caller see private data it otherwise has access to? (Basic auth, or a token with `repo`.) */
export function privateOk(p: Principal): boolean {
  return p.kind === "user" && (p.via === "basic" || expand(p.scopes).has("repo"));
}

export function requireUser(req: FastifyRequest): UserPrincipal {
  const p = principalOf(req);
  if (p.kind === "anon") throw new ApiError(401, "Requires authentication");
  if (p.kind !== "user") throw notFound();
  return p;
}

export function requireBasic(req: FastifyRequest): UserPrincipal {
  const p = requireUser(req);
  if (p.via !== "basic") throw new ApiError(403, "This API can only be accessed with username and password Basic Auth");
  return p;
}

export function requireScope(p: UserPrincipal, accepted: readonly string[]): void {
  if (p.via === "token" && !hasAny(p.scopes, accepted)) {
    throw new ApiError(403, `This action requires one of these OAuth scopes: ${accepted.join(", ")}`);
  }
}

/** A repository the caller can see; private ones need access and a `repo`-capable credential. */
export function visibleRepo(ctx: Ctx, req: FastifyRequest): Repo {
  const { owner = "", repo: name = "" } = params(req);
  const repo = repoByName(ctx.store, owner, name);
  if (!repo) throw notFound();
  if (repo.private) {
    const p = principalOf(req);
    if (!(p.kind === "user" && privateOk(p) && canRead(ctx.store, p.user, repo))) throw notFound();
  }
  return repo;
}
