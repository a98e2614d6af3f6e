-- Repository and organization hooks (webhooks, `name = 'web'`, and service hooks, `name` = a
-- service of the catalog). Exactly one of repo_id / org_id is set. The secret is an HMAC key the
-- server must use to sign, so it cannot be stored as a digest: it is kept sealed (AES-256-GCM,
-- reference/hooks/secret-box.ts) and never returned by the API.

create table hooks (
  id             bigint generated always as identity primary key,
  repo_id        bigint references repositories (id) on delete cascade,
  org_id         bigint references accounts (id) on delete cascade,
  name           text not null,                       -- 'web' or a catalog service name
  events         text[] not null,                     -- ['*'] or event names, sorted
  active         boolean not null default true,
  config         jsonb not null,                      -- as served, without the secret; service `password` values sealed
  secret_sealed  text,                                -- null: no secret, no signature headers
  app_id         bigint references oauth_applications (id) on delete set null, -- created with an OAuth token of this app
  creator_id     bigint references accounts (id) on delete set null,
  last_response  jsonb not null default '{"code": null, "status": "unused", "message": null}',
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now(),
  check ((repo_id is null) <> (org_id is null)),
  check (org_id is null or name = 'web')
);
create index hooks_by_repo on hooks (repo_id, id) where repo_id is not null;
create index hooks_by_org on hooks (org_id, id) where org_id is not null;
-- One service hook per service per repository (creating it again updates it).
create unique index hooks_one_service_per_repo on hooks (repo_id, name) where name <> 'web';
-- One webhook per URL per repository or organization (the contract's 422 "a webhook with the
-- same URL already installed"); the handlers check first, these indexes settle races.
create unique index hooks_one_web_url_per_repo on hooks (repo_id, (config->>'url')) where repo_id is not null and name = 'web';
create unique index hooks_one_web_url_per_org on hooks (org_id, (config->>'url')) where org_id is not null and name = 'web';

-- Keys the server generates once and every instance on this database shares. `hook-secrets`:
-- the AES-256-GCM key of reference/hooks/secret-box.ts when SERVICE_CONTRACT_SECRET_KEY is not
-- set. Kept apart from `hooks`, so a dump of the hooks table alone does not reveal the secrets.
create table server_keys (
  name        text primary key,
  key         text not null,                         -- base64 of the key bytes
  created_at  timestamptz not null default now()
);
