/**
 * What `serve` and `simulate` say when the database cannot be opened: one line and exit 2
 * (a UsageError), never a stack trace. A locked PGlite folder says who holds it and, for
 * `simulate`, how to reach that server instead (its admin endpoint); the admin token itself is
 * never stored in the lock, so the user supplies it.
 */
import { UsageError } from "./exit-codes.ts";
import { DataDirLockedError } from "../reference/db/data-lock.ts";
import { DataDirError, DatabaseUnavailableError } from "../reference/db/database.ts";
import { FixtureError, readFixture } from "../reference/seed/load.ts";

function lockedAdvice(error: DataDirLockedError, command: "serve" | "simulate"): string {
  const { holder } = error;
  if (holder.command !== "serve") return "try again when it has finished";
  if (command === "serve") return `stop it first, or give this server another --data-dir`;
  const api = holder.api ?? "URL";
  if (holder.simulate) return `go through it: simulate --url ${api} --admin-token TOKEN (the token it printed, or its $SERVICE_CONTRACT_ADMIN_TOKEN)`;
  return `it runs without --simulate: stop it, restart it as serve --simulate, then use simulate --url ${api} --admin-token TOKEN`;
}

/** The one-line UsageError for an error of opening the database, or undefined for anything else. */
export function databaseUsageError(error: unknown, command: "serve" | "simulate"): UsageError | undefined {
  if (error instanceof DataDirLockedError) return new UsageError(`${error.message}: ${lockedAdvice(error, command)}`);
  if (error instanceof DataDirError || error instanceof DatabaseUnavailableError || error instanceof FixtureError) return new UsageError(error.message);
  return undefined;
}

/** Checks `--seed` (a keyword or a readable, valid fixture) before any database is opened or made. */
export function checkSeedChoice(choice: string): void {
  if (choice === "none") return;
  try {
    readFixture(choice);
  } catch (error) {
    throw databaseUsageError(error, "serve") ?? error;
  }
}
