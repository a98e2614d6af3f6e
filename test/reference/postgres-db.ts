/**
 * A scratch database on the PostgreSQL of TEST_DATABASE_URL (an admin URL; CI starts the server
 * with .ci/start-postgres.sh) for the multi-instance tests, and `useTwoInstances`, the two
 * reference servers most of them run on it. Without the variable those tests are skipped
 * locally; under CI its absence is an error, so they can never silently not run.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { startServer, type RunningServer, type ServerOptions } from "../../reference/server.ts";
import { ceiling } from "../ceilings.ts";

export const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl && process.env.CI) throw new Error("TEST_DATABASE_URL must be set under CI (see .ci/run)");

/** Why the PostgreSQL tests did not run, in the skipped suite's name and once on the console. */
export const POSTGRES_SKIP_REASON = "skipped: needs TEST_DATABASE_URL, a PostgreSQL admin URL (bash .ci/start-postgres.sh prints one)";

/**
 * `describe` for tests on PostgreSQL: without TEST_DATABASE_URL the suite is skipped with the
 * reason in its name (reporters list it), not silently.
 */
export function describePostgres(name: string, fn: () => void): void {
  if (adminUrl) describe(name, fn);
  else describe.skip(`${name} — ${POSTGRES_SKIP_REASON}`, fn);
}
if (!adminUrl) console.warn(`PostgreSQL tests ${POSTGRES_SKIP_REASON}`);

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

export interface TwoInstances {
  a: RunningServer;
  b: RunningServer;
  db: ScratchDatabase;
  /** Contract violations either server reported while answering. */
  violations: unknown[];
}

export interface TwoInstanceOptions {
  /** For both instances, over the defaults (demo seed, response validation). */
  both?: ServerOptions;
  /** For one instance only, over `both`: e.g. a delivery hook that tells the senders apart. */
  a?: ServerOptions;
  b?: ServerOptions;
  /** Start both at once instead of one after the other, to race their migrations and seed. */
  together?: boolean;
}

/**
 * Two reference servers on one scratch database, as behind a load balancer. Call it inside a
 * `describePostgres`, so nothing starts without TEST_DATABASE_URL. Registers
 * beforeAll/afterAll hooks; the returned object is filled in before the first test.
 */
export function useTwoInstances(prefix: string, options: TwoInstanceOptions = {}): TwoInstances {
  const t = { db: scratchDatabase(prefix), violations: [] as unknown[] } as TwoInstances;
  const start = (own?: ServerOptions) =>
    startServer({
      port: 0,
      authPort: 0,
      databaseUrl: t.db.url,
      seed: "demo",
      validateResponses: true,
      onResponseValidationError: (failure) => t.violations.push(failure),
      ...options.both,
      ...own,
    });
  beforeAll(async () => {
    await t.db.create();
    if (!options.together) {
      t.a = await start(options.a);
      t.b = await start(options.b);
      return;
    }
    const [a, b] = await Promise.allSettled([start(options.a), start(options.b)]);
    // Whichever did start is closed by afterAll, which runs even when this hook fails.
    if (a.status === "fulfilled") t.a = a.value;
    if (b.status === "fulfilled") t.b = b.value;
    for (const s of [a, b]) if (s.status === "rejected") throw s.reason;
  }, ceiling(60_000));
  afterAll(async () => {
    await Promise.allSettled([t.a?.close(), t.b?.close()]);
    await t.db.drop();
    expect(t.violations, "responses that broke the contract").toEqual([]);
  });
  return t;
}
