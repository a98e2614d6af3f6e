// tokens.ts — lifecycle of OAuth tokens (authorizations) and of grants (a user's authorization of an application).
import { type Authz, type Ctx, nextId } from "./model.ts";
import { randomHex, sha256 } from "./util.ts";

export function issueToken(ctx: Ctx, userId: number, appId: number | null, scopes: string[], note: string | null, seed = false): { authz: Authz; token: string } {
  const token = randomHex(20);
  const now = Date.now();
  const authz: Authz = {
    id: nextId(ctx.store, "authz", 1000), userId, appId, tokenHash: sha256(token), lastEight: token.slice(-8), scopes: [...scopes],
    note, noteUrl: null, fingerprint: null, createdAt: now, updatedAt: now, seed,
  };
  ctx.store.authz.push(authz);
  return { authz, token };
}

/** Creates or refreshes the user's grant for an application (its scopes are those of the latest token). */
export function upsertGrant(ctx: Ctx, userId: number, appId: number, scopes: string[]): void {
  const g = ctx.store.grants.find((x) => x.userId === userId && x.appId === appId);
  const now = Date.now();
  if (g) { g.scopes = [...scopes]; g.updatedAt = now; return; }
  ctx.store.grants.push({ id: nextId(ctx.store, "grant", 1), userId, appId, scopes: [...scopes], createdAt: now, updatedAt: now, seed: false });
}

/** Revokes a user's grant for an application together with all its tokens. */
export function revokeGrant(ctx: Ctx, userId: number, appId: number): void {
  ctx.store.grants = ctx.store.grants.filter((g) => !(g.userId === userId && g.appId === appId));
  ctx.store.authz = ctx.store.authz.filter((a) => !(a.userId === userId && a.appId === appId));
}

