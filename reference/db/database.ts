/**
 * The reference server's one view of its database. Two adapters implement it — PGlite (Postgres
 * compiled to WASM, on disk, the default: no setup) and PostgreSQL through `pg` (several server
 * instances sharing one database) — and both run exactly the same SQL, so every store module
 * and test works on either.
 */
export interface Queryable {
  /** One parameterised statement; rows come back as plain objects. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… — when given (or DATABASE_URL is set), PostgreSQL; otherwise PGlite in dataDir. */
  databaseUrl?: string;
  /** Folder for PGlite's files; undefined keeps the database in memory (tests). */
  dataDir?: string;
}

/** The PGlite data folder cannot be made or written (ENOTDIR, EACCES, EROFS, ENOENT under /proc…). */
export class DataDirError extends Error {
  override name = "DataDirError";
}

/** PostgreSQL cannot be reached or refuses us: bad password, unknown host, no such database. */
export class DatabaseUnavailableError extends Error {
  override name = "DatabaseUnavailableError";
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const { openPostgres } = await import("./postgres.ts");
    return openPostgres(options.databaseUrl);
  }
  const { openPglite } = await import("./pglite.ts");
  return openPglite(options.dataDir);
}
