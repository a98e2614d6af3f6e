// scopes.ts — the OAuth scope catalogue, implication rules, normalization and checks.

export const ALL_SCOPES = [
  "user", "user:email", "user:follow", "public_repo", "repo", "repo_deployment", "repo:status", "delete_repo",
  "notifications", "gist", "read:repo_hook", "write:repo_hook", "admin:repo_hook", "admin:org_hook", "read:org",
  "write:org", "admin:org", "read:public_key", "write:public_key", "admin:public_key",
];

const IMPLIES: Record<string, string[]> = {
  user: ["user:email", "user:follow"],
  repo: ["public_repo", "repo:status", "repo_deployment"],
  "admin:repo_hook": ["write:repo_hook", "read:repo_hook"],
  "write:repo_hook": ["read:repo_hook"],
  "admin:org": ["write:org", "read:org"],
  "write:org": ["read:org"],
  "admin:public_key": ["write:public_key", "read:public_key"],
  "write:public_key": ["read:public_key"],
};

export function expand(scopes: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const s of scopes) { out.add(s); for (const c of IMPLIES[s] ?? []) out.add(c); }
  return out;
}

/** Known scopes only, deduplicated, minus those implied by another requested scope (request order kept). */
export function normalize(scopes: readonly string[]): string[] {
  const known = [...new Set(scopes.filter((s) => ALL_SCOPES.includes(s)))];
  return known.filter((s) => !known.some((t) => t !== s && (IMPLIES[t] ?? []).includes(s)));
}

/** Parses the comma-separated `scope` parameter of the web flow. */
export const parseScopeParam = (v: string | null | undefined): string[] =>
  normalize((v ?? "").split(/[\s,]+/).filter((s) => s !== ""));

export const hasAny = (granted: readonly string[], accepted: readonly string[]): boolean => {
  const e = expand(granted);
  return accepted.some((a) => e.has(a));
};
export const covers = (granted: readonly string[], requested: readonly string[]): boolean => {
  const e = expand(granted);
  return requested.every((r) => e.has(r));
};
