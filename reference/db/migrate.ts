/**
 * Schema migrations: numbered SQL files in `migrations/`, applied in order at start, each once,
 * recorded in `schema_migrations`. On PostgreSQL several instances may start together, so the
 * run holds a transaction-scoped advisory lock and re-reads what is applied under it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "./database.ts";
import { packageFile } from "../../generators/package-files.ts";

const MIGRATIONS_DIR = packageFile("reference", "db", "migrations");
/** Arbitrary, fixed: identifies this application's migration lock among other advisory locks. */
const MIGRATION_LOCK = 727_061_001;

export interface Migration {
  id: string;
  sql: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ id: f.replace(/\.sql$/, ""), sql: readFileSync(join(dir, f), "utf8") }));
}

/** Applies what is missing; returns the ids applied by this call. */
export async function migrate(db: Database, migrations = listMigrations()): Promise<string[]> {
  return db.transaction(async (tx) => {
    // The lock comes first: even `create table if not exists` races when two instances run it at once.
    if (db.kind === "postgres") await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.exec("create table if not exists schema_migrations (id text primary key, applied_at timestamptz not null default now())");
    const done = new Set((await tx.query<{ id: string }>("select id from schema_migrations")).map((r) => r.id));
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      await tx.exec(m.sql);
      await tx.query("insert into schema_migrations (id) values ($1)", [m.id]);
      applied.push(m.id);
    }
    return applied;
  });
}
