/** Option values several subcommands take, parsed once so every command refuses them alike (exit 2). */
import { relative } from "node:path";
import { UsageError } from "./exit-codes.ts";
import { PACKAGE_SPEC } from "../generators/package-files.ts";

/**
 * `--spec` of lint, generate and mock: this package's own contract wherever the command runs
 * (from a consumer's project it is under node_modules), named relative to the working folder so
 * messages and generated headers read `spec/openapi.yaml` in a clone.
 */
export const DEFAULT_SPEC = relative(process.cwd(), PACKAGE_SPEC) || PACKAGE_SPEC;

export function parsePort(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`${flag} must be 0..65535, got ${value}`);
  return n;
}

/** `--database-url`, else $DATABASE_URL; undefined means the embedded database. */
export function databaseUrlOption(given: string | undefined): string | undefined {
  const url = given ?? process.env.DATABASE_URL;
  if (url !== undefined && !/^postgres(ql)?:\/\//.test(url)) throw new UsageError("--database-url must be a postgres:// URL");
  return url;
}

/**
 * A setting given by its flag, else by its environment variable (an empty variable counts as
 * unset, as shells and compose files often leave them), parsed by `parse` with the name of where
 * the value came from (`--public-url` or `$SERVICE_CONTRACT_PUBLIC_URL`), so its refusal names
 * what to fix; an error of class `refused` is a usage error. Undefined when neither is set.
 */
export function flagOrEnv<T>(
  flag: string,
  given: string | undefined,
  variable: string,
  parse: (source: string, value: string) => T,
  refused: abstract new (...args: never[]) => Error,
): T | undefined {
  const value = given ?? (process.env[variable] || undefined);
  if (value === undefined) return undefined;
  try {
    return parse(given === undefined ? `$${variable}` : flag, value);
  } catch (error) {
    if (error instanceof refused) throw new UsageError(error.message);
    throw error;
  }
}
