/**
 * How long the feeds' in-process caches (the page cache, the lookups' memo and the polling
 * shortcut's index) keep an answer under an unchanged events version. Every new event changes the
 * version, so this only bounds what records no event: events ageing out of the 90-day window, and
 * follows, which only a seed fixture makes. It outlives the longest `X-Poll-Interval` the server
 * sends (180 s, poll-interval.ts): a poller that obeys the interval still finds its page, its
 * lookups and its last answer cached, which is the polling the caches are for — with 30 s, every
 * such poll took the full path and read the database again.
 */
export const CACHE_TTL_MS = 300_000;
