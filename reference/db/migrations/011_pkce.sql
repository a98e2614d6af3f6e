-- PKCE (RFC 7636, S256 only): the challenge a code was issued with; null for a code issued without.
alter table oauth_codes add column code_challenge text;
