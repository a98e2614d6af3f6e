/**
 * What each scope grants, in the seed's words, for the consent and review pages. Read once from
 * the contract (spec/schemas/scope.json lists every scope's grant in its description), so the
 * pages say exactly what the contract says.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SCOPES, type Scope } from "../auth/scopes.ts";
import { packageFile } from "../../generators/package-files.ts";

const SCOPE_SCHEMA = packageFile("spec", "schemas", "scope.json");

/** The seed's "(no scope)" row: what a token with an empty scope list may do. */
export const NO_SCOPE_DESCRIPTION = "Read-only access to public information (public user profile, public repositories, gists).";

function load(): Record<Scope, string> {
  const { description } = JSON.parse(readFileSync(SCOPE_SCHEMA, "utf8")) as { description: string };
  const found = new Map<string, string>();
  for (const match of description.matchAll(/^- `([^`]+)`: (.+)$/gm)) found.set(match[1]!, match[2]!.trim());
  const missing = SCOPES.filter((s) => !found.has(s));
  if (missing.length > 0) throw new Error(`spec/schemas/scope.json describes no grant for ${missing.join(", ")}`);
  return Object.fromEntries(SCOPES.map((s) => [s, found.get(s)!])) as Record<Scope, string>;
}

export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = load();
