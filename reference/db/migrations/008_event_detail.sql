-- What an activity event's webhook needs beyond the event's feed body, kept beside it so that
-- `POST …/hooks/:id/tests` can rebuild the same delivery later: for a push, the whole commit
-- list (the feed's PushEvent shows at most 20, the push webhook is not capped). Null for most events.
alter table events add column detail jsonb;
