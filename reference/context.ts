/**
 * What every handler of the reference server gets: the database, the public URLs of the two
 * hosts (known only once they listen, hence getters), and the clock (injectable for tests of
 * expiry). Handlers are built by factories taking this context, one module per area.
 */
import type { Database, Queryable } from "./db/database.ts";
import type { FeedServing } from "./handlers/feeds.ts";
import type { EgressPolicy } from "./hooks/egress.ts";
import type { RateLimiter } from "./http/rate-limit.ts";

export interface Urls {
  /** The API host, e.g. http://127.0.0.1:3000 (no trailing slash). */
  api: string;
  /** The web host for OAuth pages and the token exchange. */
  auth: string;
}

/**
 * What hook management needs from the delivery engine (reference/deliveries): a ping enqueued
 * in the caller's transaction, so a created hook and its ping exist together or not at all.
 * Absent while no engine runs (then nothing is delivered).
 */
export interface HookPings {
  ping(tx: Queryable, hookId: number, senderId: number | null): Promise<void>;
}

export interface Context {
  db: Database;
  urls: Urls;
  now: () => Date;
  pings?: HookPings;
  /** The feed caches, shared by the feed handlers and the polling shortcut (http/feed-shortcut.ts). */
  feeds?: FeedServing;
  hookEgress?: EgressPolicy;
  /** The API host's rate limiter, which also counts failed logins for both hosts (auth/login-failures.ts). */
  limiter?: RateLimiter;
}
