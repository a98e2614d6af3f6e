-- Activity events and issue events. Each row keeps the complete JSON the API serves (`body`), a
-- snapshot taken in the transaction of the action that caused it: events are immutable, as in
-- the service, and feeds are read without joins. The columns beside `body` exist to filter.

create table events (
  id          bigint generated always as identity primary key,
  type        text not null,                        -- PushEvent, IssuesEvent, …
  actor_id    bigint not null references accounts (id) on delete cascade,
  repo_id     bigint not null references repositories (id) on delete cascade,
  org_id      bigint references accounts (id) on delete cascade,
  public      boolean not null,                     -- false for events of private repositories
  body        jsonb not null,                       -- the activity event as served; body->>'id' = id::text
  created_at  timestamptz not null default now()
);
create index events_by_repo on events (repo_id, id desc);
create index events_by_actor on events (actor_id, id desc);
create index events_by_org on events (org_id, id desc);
create index events_public on events (id desc) where public;

create table labels (
  id       bigint generated always as identity primary key,
  repo_id  bigint not null references repositories (id) on delete cascade,
  name     text not null,
  color    text not null,
  unique (repo_id, name)
);

create table issue_labels (
  issue_id  bigint not null references issues (id) on delete cascade,
  label_id  bigint not null references labels (id) on delete cascade,
  primary key (issue_id, label_id)
);

create table milestones (
  id           bigint generated always as identity primary key,
  repo_id      bigint not null references repositories (id) on delete cascade,
  number       integer not null,
  title        text not null,
  description  text,
  state        text not null default 'open' check (state in ('open', 'closed')),
  creator_id   bigint not null references accounts (id),
  due_on       timestamptz,
  created_at   timestamptz not null default now(),
  updated_at   timestamptz not null default now(),
  closed_at    timestamptz,
  unique (repo_id, number)
);
alter table issues add column milestone_id bigint references milestones (id) on delete set null;

create table issue_events (
  id          bigint generated always as identity primary key,
  repo_id     bigint not null references repositories (id) on delete cascade,
  issue_id    bigint not null references issues (id) on delete cascade,
  actor_id    bigint not null references accounts (id) on delete cascade,
  event       text not null,                        -- closed, labeled, …
  body        jsonb not null,                       -- the issue event as served, without `issue`
  created_at  timestamptz not null default now()
);
create index issue_events_by_issue on issue_events (issue_id, id);
create index issue_events_by_repo on issue_events (repo_id, id desc);
