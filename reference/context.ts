/**
 * What every handler of the reference server gets: the database, the public URLs of the two
 * hosts (known only once they listen, hence getters), and the clock (injectable for tests of
 * expiry). Handlers are built by factories taking this context, one module per area.
 */
import type { Database } from "./db/database.ts";

export interface Urls {
  /** The API host, e.g. http://127.0.0.1:3000 (no trailing slash). */
  api: string;
  /** The web host for OAuth pages and the token exchange. */
  auth: string;
}

export interface Context {
  db: Database;
  urls: Urls;
  now: () => Date;
}
