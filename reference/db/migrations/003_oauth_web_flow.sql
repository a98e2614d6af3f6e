-- The web flow (reference/oauth): a code remembers the authorization its exchange created, so a
-- second exchange of the same code can revoke that token (RFC 6749 §4.1.2), and codes and
-- sessions get the indexes their cleanup and revocation queries use.
alter table oauth_codes add column authorization_id bigint references authorizations (id) on delete set null;
alter table oauth_codes add column created_at timestamptz not null default now();
create index oauth_codes_user_app on oauth_codes (user_id, app_id);
create index oauth_codes_expires on oauth_codes (expires_at);
create index sessions_expires on sessions (expires_at);
