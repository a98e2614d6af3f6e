/**
 * OAuth scopes: parsing what clients send (comma- or space-separated), normalising (a scope
 * implied by another requested one is dropped: user, gist, user:email → user, gist), and
 * checking a token's scopes against what an operation accepts. The implications are the seed's
 * scope table.
 */
export const SCOPES = [
  "admin:org", "admin:org_hook", "admin:public_key", "admin:repo_hook", "delete_repo", "gist",
  "notifications", "public_repo", "read:org", "read:public_key", "read:repo_hook", "repo",
  "repo:status", "repo_deployment", "user", "user:email", "user:follow", "write:org",
  "write:public_key", "write:repo_hook",
] as const;

export type Scope = (typeof SCOPES)[number];

/** scope → the scopes it includes (directly). From the seed's table. */
const INCLUDES: Partial<Record<Scope, Scope[]>> = {
  user: ["user:email", "user:follow"],
  repo: ["public_repo", "repo:status", "repo_deployment", "notifications"],
  "admin:repo_hook": ["write:repo_hook"],
  "write:repo_hook": ["read:repo_hook"],
  "admin:org": ["write:org"],
  "write:org": ["read:org"],
  "admin:public_key": ["write:public_key"],
  "write:public_key": ["read:public_key"],
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Every scope `scope` grants, itself included. */
export function expand(scope: Scope): Set<Scope> {
  const out = new Set<Scope>([scope]);
  for (const child of INCLUDES[scope] ?? []) for (const s of expand(child)) out.add(s);
  return out;
}

export type ParsedScopes = { ok: true; scopes: Scope[] } | { ok: false; unknown: string[] };

/** Split a client's scope parameter on commas and/or spaces; reject unknown names. */
export function parseScopes(input: string | readonly string[] | undefined): ParsedScopes {
  const raw = typeof input === "string" ? input.split(/[\s,]+/) : [...(input ?? [])];
  const names = raw.map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !isScope(n));
  return unknown.length > 0 ? { ok: false, unknown } : { ok: true, scopes: normalize(names as Scope[]) };
}

/** Drop duplicates and scopes implied by another one in the list; sorted for stable output. */
export function normalize(scopes: readonly Scope[]): Scope[] {
  const unique = [...new Set(scopes)];
  return unique.filter((s) => !unique.some((other) => other !== s && expand(other).has(s))).sort();
}

/** The service's output form: comma-separated, normalised. */
export function formatScopes(scopes: readonly Scope[]): string {
  return normalize(scopes).join(",");
}

/** Whether a token with `granted` may call an operation accepting any of `accepted`. */
export function satisfies(granted: readonly Scope[], accepted: readonly string[]): boolean {
  const all = new Set(granted.flatMap((g) => [...expand(g)]));
  return accepted.some((a) => all.has(a as Scope));
}
