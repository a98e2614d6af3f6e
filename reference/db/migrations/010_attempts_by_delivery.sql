-- Deleting a hook cascades to its deliveries and from each delivery to its attempts: without an
-- index on delivery_id every deleted delivery scans the whole attempt log (quadratic in the log's
-- size, holding PGlite's one connection for minutes on a busy hook). Redelivery and the
-- per-delivery lookups read attempts by delivery too.
create index hook_delivery_attempts_by_delivery on hook_delivery_attempts (delivery_id);
