-- Webhook deliveries (reference/deliveries). A delivery is one payload for one hook, with the
-- guid sent as X-Service-Delivery on every attempt at it; an attempt is one HTTP request (first
-- try, automatic retry or redelivery) — the delivery log the API serves, newest first. A
-- delivery row is written with its first attempt (until then the payload travels in its pg-boss
-- job); the queue itself (jobs, scheduling, expiry of abandoned jobs) is pg-boss's, in its own
-- schema.

create table hook_deliveries (
  id            bigint generated always as identity primary key,
  guid          uuid not null unique,
  hook_id       bigint not null references hooks (id) on delete cascade,
  event         text not null,            -- a webhook event name or 'ping'
  action        text,                     -- the payload's action, when it has one
  content_type  text not null,            -- the Content-Type sent, fixed by the first attempt
  body          text not null,            -- the exact body sent, fixed by the first attempt
  payload       text,                     -- service hooks: the payload JSON (their body is their own format)
  attempts      integer not null default 0,
  created_at    timestamptz not null default now()
);
create index hook_deliveries_by_hook on hook_deliveries (hook_id);

create table hook_delivery_attempts (
  id                bigint generated always as identity primary key,
  delivery_id       bigint not null references hook_deliveries (id) on delete cascade,
  hook_id           bigint not null references hooks (id) on delete cascade,
  attempt           integer not null,     -- 1, 2, … per delivery, retries and redeliveries alike
  redelivery        boolean not null,
  delivered_at      timestamptz not null,
  duration          double precision not null,  -- seconds
  status            text not null,        -- 'OK' or why it failed
  status_code       integer not null,     -- 0 without an answer
  next_attempt_at   timestamptz,          -- the automatic retry this failure scheduled
  url               text not null,
  request_headers   jsonb not null,
  response_headers  jsonb not null,
  response_body     text                  -- an excerpt (the first 64 KB)
);
create index hook_delivery_attempts_by_hook on hook_delivery_attempts (hook_id, id desc);
