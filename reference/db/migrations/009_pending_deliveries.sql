-- A delivery's row is now written when it is enqueued, in the same transaction as its pg-boss
-- job, so the payload is stored once, as text, instead of travelling in the job's JSON data
-- (reference/deliveries/queue.ts). Until the first attempt fixes what is sent, content_type is
-- null and body holds the payload JSON; the first attempt then sets content_type and, when the
-- hook sends something else than the payload itself (form bodies, service hooks), the body —
-- a service hook's payload moving to `payload` (reference/deliveries/store.ts).
alter table hook_deliveries alter column content_type drop not null;
-- Bodies are stored uncompressed, out of line: compressing every 5 KB payload cost PGlite more
-- main-thread time than the HTTP request that sends it, and the first attempt's update of the
-- row then copies a TOAST pointer, not the body (inline storage made the insert cheaper by
-- about as much as it made that update dearer).
alter table hook_deliveries alter column body set storage external;
