/**
 * A counter of changes to authorizations (tokens revoked, reset, re-scoped, deleted), which keys
 * the in-process cache of token lookups (http/viewer-cache.ts). Every store function that changes
 * or deletes an authorization row bumps it once its statement has run. On PGlite a transaction
 * holds the one connection, so no lookup can read the old row after that point; on PostgreSQL
 * the cache is not used at all (another instance may change a token), so the counter is moot.
 */
let version = 0;

export function bumpTokensVersion(): void {
  version += 1;
}

export function tokensVersion(): number {
  return version;
}
