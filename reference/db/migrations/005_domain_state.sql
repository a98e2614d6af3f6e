-- State the domain actions (reference/domain) keep besides the events themselves: branch and
-- tag heads (so a push knows its `before`), issue comments (counted in `issues.comments`), and
-- the pull-request side of an issue row with pull_request = true.

create table git_refs (
  repo_id  bigint not null references repositories (id) on delete cascade,
  ref      text not null,                          -- refs/heads/main, refs/tags/v1.0
  sha      text not null,
  primary key (repo_id, ref)
);

create table issue_comments (
  id          bigint generated always as identity primary key,
  repo_id     bigint not null references repositories (id) on delete cascade,
  issue_id    bigint not null references issues (id) on delete cascade,
  user_id     bigint not null references accounts (id),
  body        text not null,
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now()
);
create index issue_comments_by_issue on issue_comments (issue_id, id);

create table pull_requests (
  issue_id          bigint primary key references issues (id) on delete cascade,
  head_repo_id      bigint references repositories (id) on delete set null,
  head_ref          text not null,
  head_sha          text not null,
  base_ref          text not null,
  base_sha          text not null,
  merged_at         timestamptz,
  merged_by_id      bigint references accounts (id),
  merge_commit_sha  text
);

-- Objects some events carry that have no API of their own yet: their ids come from one sequence
-- (commit comments, review comments, statuses, page builds, gollum edits).
create sequence domain_object_ids;

create table releases (
  id          bigint generated always as identity primary key,
  repo_id     bigint not null references repositories (id) on delete cascade,
  tag_name    text not null,
  target      text not null,
  name        text,
  body        text,
  author_id   bigint not null references accounts (id),
  created_at  timestamptz not null default now(),
  unique (repo_id, tag_name)
);

create table deployments (
  id           bigint generated always as identity primary key,
  repo_id      bigint not null references repositories (id) on delete cascade,
  sha          text not null,
  ref          text not null,
  environment  text not null,
  description  text,
  creator_id   bigint not null references accounts (id),
  created_at   timestamptz not null default now()
);

create table teams (
  id          bigint generated always as identity primary key,
  org_id      bigint not null references accounts (id) on delete cascade,
  name        text not null,
  slug        text not null,
  permission  text not null default 'pull' check (permission in ('pull', 'push', 'admin')),
  unique (org_id, slug)
);
create table team_members (
  team_id  bigint not null references teams (id) on delete cascade,
  user_id  bigint not null references accounts (id) on delete cascade,
  primary key (team_id, user_id)
);
create table team_repos (
  team_id  bigint not null references teams (id) on delete cascade,
  repo_id  bigint not null references repositories (id) on delete cascade,
  primary key (team_id, repo_id)
);
