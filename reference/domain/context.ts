/**
 * The domain layer's frame: what an action needs (database, public URLs, clock), the errors it
 * reports, and the hook for work that must happen in the same transaction as the events an
 * action records — webhook deliveries will register here (`listeners`), so a delivery exists
 * exactly when its event does.
 */
import type { Database, Queryable } from "../db/database.ts";
import type { Urls } from "../context.ts";

export type Json = Record<string, unknown>;

/** One thing an action recorded, handed to every listener inside the action's transaction. */
export type Recorded =
  | {
      kind: "activity";
      id: number;
      type: string;
      repoId: number;
      actorId: number;
      public: boolean;
      body: Json;
      /** What the event's webhook needs beyond the feed body (a push's whole commit list); stored in `events.detail`. */
      detail?: Json;
    }
  | { kind: "issue"; id: number; repoId: number; issueId: number; event: string; body: Json };

export type Listener = (tx: Queryable, recorded: Recorded) => Promise<void>;

export interface DomainContext {
  db: Database;
  urls: Urls;
  now: () => Date;
  /** Run in order after each record, in the same transaction; a throw rolls the action back. */
  listeners?: Listener[];
}

/** `not_found`: unknown repository, account, issue (CLI exit 2, HTTP 404); `invalid`: bad parameters or a state that forbids the action (exit 2, HTTP 422). */
export class DomainError extends Error {
  override name = "DomainError";
  constructor(
    readonly code: "not_found" | "invalid",
    message: string,
  ) {
    super(message);
  }
}

export interface ActionResult {
  events: Json[];
  issueEvents: Json[];
}

/** What every action gets: who, where, when, and free-form key=value parameters. */
export interface ActionInput {
  repo: string;
  actor: string;
  params: Record<string, string>;
  /** When it happened (history seeding); default ctx.now(). */
  at?: Date;
}
