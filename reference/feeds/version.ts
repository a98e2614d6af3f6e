/**
 * The version of "all recorded activity events", which keys the feed page cache (cache.ts) and
 * the lookups (memo.ts): any new event must change it, and reading it must be cheap, since every
 * poll reads it.
 *
 * On PostgreSQL several instances share the database, so the version is read from it on every
 * request: `max(id)` of `events`, one lookup on the primary key index. On PGlite one process owns
 * the database: the domain layer calls `bumpEventsVersion()` after the transaction that recorded
 * an event commits (bumping before the commit could let a concurrent poll cache the old page
 * under the new version), which changes the version at no cost; as a safety net for writers that
 * do not bump, `max(id)` is also re-read at most once a second and is part of the version.
 */
import type { Queryable } from "../db/database.ts";

let counter = 0;

/** Call after committing a transaction that recorded activity events. */
export function bumpEventsVersion(): void {
  counter += 1;
}

const REREAD_MS = 1000;
const lastRead = new WeakMap<object, { at: number; max: Promise<string> }>();

async function maxId(db: Queryable): Promise<string> {
  const rows = await db.query<{ v: string | null }>("select max(id)::text as v from events");
  return rows[0]?.v ?? "0";
}

export async function eventsVersion(db: Queryable & { kind?: string }): Promise<string> {
  if (db.kind === "postgres") return `m${await maxId(db)}`;
  const now = Date.now();
  let read = lastRead.get(db);
  if (!read || now - read.at >= REREAD_MS) {
    read = { at: now, max: maxId(db) };
    lastRead.set(db, read);
    const failed = read;
    failed.max.catch(() => lastRead.get(db) === failed && lastRead.delete(db));
  }
  return `c${counter}:m${await read.max}`;
}
