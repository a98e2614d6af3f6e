/**
 * Whether a value can name a row at all. PostgreSQL (and PGlite) cannot hold NUL in `text`, so a
 * lookup by a key holding one would fail in the database (a 500) where it should simply find
 * nothing: the lookups by client_id and login check here, so every caller of them — the OAuth
 * pages, the token exchange, Basic authentication — answers as for an unknown name.
 */
export function canNameRow(key: string): boolean {
  return !key.includes("\0");
}
