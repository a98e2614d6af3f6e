-- A delivery's row is now written when it is enqueued, in the same transaction as its pg-boss
-- job, so the payload is stored once, as text, instead of travelling in the job's JSON data
-- (reference/deliveries/queue.ts). Until the first attempt fixes what is sent, content_type is
-- null and body holds the payload JSON; the first attempt then sets content_type and, when the
-- hook sends something else than the payload itself (form bodies, service hooks), the body —
-- a service hook's payload moving to `payload` (reference/deliveries/store.ts).
alter table hook_deliveries alter column content_type drop not null;
-- Bodies are stored uncompressed: compressing and decompressing every 5 KB payload cost more
-- main-thread time on PGlite than the whole HTTP request that sends it.
alter table hook_deliveries alter column body set storage external;
