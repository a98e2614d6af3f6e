-- Accounts (users and organizations share one id space, as in the service), repositories and
-- issues that the seed data and OAuth need, and the OAuth state itself. Secrets are stored only
-- as hashes: passwords with scrypt, tokens, client secrets, codes and sessions with SHA-256.

create table accounts (
  id             bigint generated always as identity primary key,
  login          text not null,
  type           text not null check (type in ('User', 'Organization')),
  name           text,
  email          text,
  password_hash  text,                       -- scrypt$N$r$p$salt$hash; null for organizations
  totp_secret    text,                       -- base32; null unless two-factor is on
  two_factor     text check (two_factor in ('app', 'sms')),
  site_admin     boolean not null default false,
  created_at     timestamptz not null default now()
);
create unique index accounts_login on accounts (lower(login));

create table org_members (
  org_id   bigint not null references accounts (id) on delete cascade,
  user_id  bigint not null references accounts (id) on delete cascade,
  role     text not null default 'member' check (role in ('member', 'admin')),
  public   boolean not null default true,
  primary key (org_id, user_id)
);

create table follows (
  follower_id  bigint not null references accounts (id) on delete cascade,
  followee_id  bigint not null references accounts (id) on delete cascade,
  primary key (follower_id, followee_id)
);

create table repositories (
  id              bigint generated always as identity primary key,
  owner_id        bigint not null references accounts (id) on delete cascade,
  name            text not null,
  description     text,
  private         boolean not null default false,
  fork_of         bigint references repositories (id) on delete set null,
  default_branch  text not null default 'main',
  created_at      timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  pushed_at       timestamptz
);
create unique index repositories_owner_name on repositories (owner_id, lower(name));

create table collaborators (
  repo_id     bigint not null references repositories (id) on delete cascade,
  user_id     bigint not null references accounts (id) on delete cascade,
  permission  text not null default 'push' check (permission in ('pull', 'push', 'admin')),
  primary key (repo_id, user_id)
);

create table watches (
  user_id  bigint not null references accounts (id) on delete cascade,
  repo_id  bigint not null references repositories (id) on delete cascade,
  primary key (user_id, repo_id)
);

create table issues (
  id            bigint generated always as identity primary key,
  repo_id       bigint not null references repositories (id) on delete cascade,
  number        integer not null,
  title         text not null,
  body          text,
  state         text not null default 'open' check (state in ('open', 'closed')),
  user_id       bigint not null references accounts (id),
  assignee_id   bigint references accounts (id),
  locked        boolean not null default false,
  pull_request  boolean not null default false,
  created_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now(),
  closed_at     timestamptz,
  unique (repo_id, number)
);

create table oauth_applications (
  id                  bigint generated always as identity primary key,
  client_id           text not null unique,
  client_secret_hash  text not null,             -- sha256 hex of the secret
  name                text not null,
  url                 text not null,
  callback_url        text not null,
  owner_id            bigint references accounts (id) on delete set null,
  suspended           boolean not null default false,
  created_at          timestamptz not null default now()
);

-- Every token is an authorization: the web flow, the non-web flow and personal tokens alike.
create table authorizations (
  id                bigint generated always as identity primary key,
  user_id           bigint not null references accounts (id) on delete cascade,
  app_id            bigint references oauth_applications (id) on delete cascade,
  scopes            text[] not null default '{}',
  token_hash        text not null unique,        -- sha256 hex of the token
  token_last_eight  text not null,
  note              text,
  note_url          text,
  fingerprint       text,
  via               text not null check (via in ('web', 'api')),
  created_at        timestamptz not null default now(),
  updated_at        timestamptz not null default now()
);
create index authorizations_user_app on authorizations (user_id, app_id);

create table oauth_codes (
  code_hash     text primary key,                -- sha256 hex of the code
  app_id        bigint not null references oauth_applications (id) on delete cascade,
  user_id       bigint not null references accounts (id) on delete cascade,
  redirect_uri  text not null,                   -- the redirect_uri the code was issued for
  scopes        text[] not null,
  expires_at    timestamptz not null,
  used_at       timestamptz
);

create table sessions (
  id_hash     text primary key,                  -- sha256 hex of the cookie value
  user_id     bigint not null references accounts (id) on delete cascade,
  csrf_token  text not null,
  created_at  timestamptz not null default now(),
  expires_at  timestamptz not null
);

-- Shared rate-limit windows, so several instances on one PostgreSQL count together.
create table rate_limits (
  key           text primary key,
  window_start  timestamptz not null,
  used          integer not null
);
