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
interface Read {
  at: number;
  max: Promise<string>;
  /** `max` once read. */
  value: string | undefined;
  /** The version string last made from this read, and the counter it was made with. */
  text: string | undefined;
  counter: number;
}
const lastRead = new WeakMap<object, Read>();

async function maxId(db: Queryable): Promise<string> {
  const rows = await db.query<{ v: string | null }>("select max(id)::text as v from events");
  return rows[0]?.v ?? "0";
}

/** The current read of `max(id)` on PGlite, started again when older than `REREAD_MS`. */
function currentRead(db: Queryable): Read {
  const now = Date.now();
  let read = lastRead.get(db);
  if (!read || now - read.at >= REREAD_MS) {
    const fresh: Read = { at: now, max: maxId(db), value: undefined, text: undefined, counter: -1 };
    lastRead.set(db, (read = fresh));
    fresh.max.then(
      (value) => (fresh.value = value),
      () => lastRead.get(db) === fresh && lastRead.delete(db),
    );
  }
  return read;
}

/** The version under `read` (whose max is `max`), made once per counter value. */
function versionText(read: Read, max: string): string {
  if (read.text === undefined || read.counter !== counter) {
    read.text = `c${counter}:m${max}`;
    read.counter = counter;
  }
  return read.text;
}

export async function eventsVersion(db: Queryable & { kind?: string }): Promise<string> {
  if (db.kind === "postgres") return `m${await maxId(db)}`;
  const read = currentRead(db);
  return versionText(read, await read.max);
}

/**
 * The version without waiting, when it is known in this process (PGlite, `max(id)` read within
 * the last `REREAD_MS`): the polling shortcut answers from it without a promise. Undefined on
 * PostgreSQL and while the first read is under way; then use `eventsVersion`.
 */
export function eventsVersionNow(db: Queryable & { kind?: string }): string | undefined {
  if (db.kind === "postgres") return undefined;
  const read = currentRead(db);
  return read.value === undefined ? undefined : versionText(read, read.value);
}
