-- Attempts begun and not yet logged (reference/deliveries/starts.ts): written just before the
-- request is sent, removed in the transaction that logs the attempt's outcome. One left behind
-- belongs to a process that died (or was stopped) mid-attempt; when pg-boss hands that job out
-- again, it becomes an `interrupted` attempt in the delivery log, beside the retry.
create table hook_delivery_starts (
  id               bigint generated always as identity primary key,
  job_id           uuid not null,
  guid             uuid not null,
  hook_id          bigint not null,
  redelivery       boolean not null,
  started_at       timestamptz not null,
  url              text not null,
  request_headers  jsonb not null
);
create index hook_delivery_starts_by_job on hook_delivery_starts (job_id);
