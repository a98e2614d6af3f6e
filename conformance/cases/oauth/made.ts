/**
 * What an OAuth case made on the target, recorded where it was made — every access token a code
 * exchange handed out, every authorization a Basic request created (the non-web flow) — so the
 * case's `finally` (cleanup.ts, wrapped around every OAuth case in index.ts) removes whatever
 * the case itself did not, whatever its checks said: the first token of a flow that went on to a
 * second, a token of an exchange that should have been refused, an authorization created by an
 * input the case expected to be refused. Kept per case context; no imports, so the helpers that
 * record and the clean-up that reads can import it without a cycle.
 */
import type { CaseContext } from "../../core/types.ts";

export interface MadeAuthorization {
  id: number;
  basic: { username: string; password: string };
  /** The two-factor code that created it, when the user has two-factor authentication: the clean-up sends a later one. */
  otp?: string;
}

interface Made {
  tokens: Set<string>;
  authorizations: Map<number, MadeAuthorization>;
  /** A code exchange handed the case a token: users[0] may now hold a grant for the application that the case made. */
  grant: boolean;
}

const made = new WeakMap<CaseContext, Made>();

function of(ctx: CaseContext): Made {
  let m = made.get(ctx);
  if (!m) made.set(ctx, (m = { tokens: new Set(), authorizations: new Map(), grant: false }));
  return m;
}

export function rememberToken(ctx: CaseContext, token: string | undefined): void {
  if (!token) return;
  of(ctx).tokens.add(token);
  of(ctx).grant = true;
}

export function forgetToken(ctx: CaseContext, token: string): void {
  of(ctx).tokens.delete(token);
}

export function rememberAuthorization(ctx: CaseContext, a: MadeAuthorization): void {
  of(ctx).authorizations.set(a.id, a);
  // One made for the application (client_id in the body) may leave a grant behind its deletion.
  of(ctx).grant = true;
}

/** The case went through the authorize page to a code: users[0] may now hold a grant the case made. */
export function rememberGrant(ctx: CaseContext): void {
  of(ctx).grant = true;
}

/** Strikes off an authorization deleted (or found gone) by `username` — not another user's 404 for it. */
export function forgetAuthorization(ctx: CaseContext, id: number, username?: string): void {
  const a = of(ctx).authorizations.get(id);
  if (a && (username === undefined || a.basic.username === username)) of(ctx).authorizations.delete(id);
}

/** What is still to remove, in the order it was made. */
export function leftToRemove(ctx: CaseContext): { tokens: string[]; authorizations: MadeAuthorization[]; grant: boolean } {
  const m = of(ctx);
  return { tokens: [...m.tokens], authorizations: [...m.authorizations.values()], grant: m.grant };
}
