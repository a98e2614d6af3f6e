/**
 * A scratch database on the PostgreSQL of TEST_DATABASE_URL (an admin URL; CI starts the server
 * with .ci/start-postgres.sh) for the multi-instance tests. Without the variable those tests are
 * skipped locally; under CI its absence is an error, so they can never silently not run.
 */
import pg from "pg";

export const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl && process.env.CI) throw new Error("TEST_DATABASE_URL must be set under CI (see .ci/run)");

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface ScratchDatabase {
  url: string;
  create(): Promise<void>;
  drop(): Promise<void>;
}

/** A uniquely named database: `create()` before the servers start, `drop()` after they close. */
export function scratchDatabase(prefix: string): ScratchDatabase {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const url = new URL(adminUrl ?? "postgres://unused/");
  url.pathname = `/${name}`;
  return {
    url: url.href,
    create: () => admin(`create database ${name}`),
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}
