// scopes.ts — the OAuth scope catalogue: descriptions, hierarchy, normalization and acceptance checks.

export const SCOPE_INFO: Readonly<Record<string, string>> = {
  user: "Read/write access to profile info only (includes user:email and user:follow)",
  "user:email": "Read access to your e-mail addresses",
  "user:follow": "Follow and unfollow other users",
  public_repo: "Read/write access to code and statuses of public repositories",
  repo: "Read/write access to code and statuses of public and private repositories",
  repo_deployment: "Access to deployment statuses",
  "repo:status": "Read/write access to commit statuses",
  delete_repo: "Delete repositories you can administer",
  notifications: "Read access to your notifications",
  gist: "Write access to gists",
  "read:repo_hook": "Read and ping repository hooks",
  "write:repo_hook": "Read, write and ping repository hooks",
  "admin:repo_hook": "Read, write, ping and delete repository hooks",
  "admin:org_hook": "Read, write, ping and delete organization hooks",
  "read:org": "Read-only access to organizations, teams and membership",
  "write:org": "Publicize and unpublicize organization membership",
  "admin:org": "Fully manage organizations, teams and memberships",
  "read:public_key": "List and view public keys",
  "write:public_key": "Create, list and view public keys",
  "admin:public_key": "Fully manage public keys",
};

export const KNOWN_SCOPES: ReadonlySet<string> = new Set(Object.keys(SCOPE_INFO));

const CHILDREN: Readonly<Record<string, readonly string[]>> = {
  user: ["user:email", "user:follow"],
  repo: ["public_repo", "repo:status", "repo_deployment"],
  "admin:repo_hook": ["write:repo_hook"],
  "write:repo_hook": ["read:repo_hook"],
  "admin:org": ["write:org"],
  "write:org": ["read:org"],
  "admin:public_key": ["write:public_key"],
  "write:public_key": ["read:public_key"],
};

/** The scopes and everything they imply. */
export function expand(scopes: Iterable<string>): Set<string> {
  const out = new Set<string>();
  const stack = [...scopes];
  for (let s = stack.pop(); s !== undefined; s = stack.pop()) {
    if (out.has(s)) continue;
    out.add(s);
    stack.push(...(CHILDREN[s] ?? []));
  }
  return out;
}

/** Known scopes, deduplicated, without those implied by another one (request order kept). */
export function normalize(scopes: readonly string[]): string[] {
  const uniq = [...new Set(scopes.filter((s) => KNOWN_SCOPES.has(s)))];
  return uniq.filter((s) => !uniq.some((o) => o !== s && expand([o]).has(s)));
}

/** Splits a scope parameter ("a,b" — spaces tolerated). */
export const parseScopeList = (raw: string | null | undefined): string[] =>
  (raw ?? "").split(/[\s,]+/).filter((s) => s !== "");

/** Whether `granted` already includes every scope of `requested`. */
export function covers(granted: readonly string[], requested: readonly string[]): boolean {
  const g = expand(granted);
  return requested.every((s) => g.has(s));
}

/** Whether a token with `have` satisfies an action accepting any of `accepted` (none listed: anything goes). */
export function allows(have: readonly string[], accepted: readonly string[]): boolean {
  if (accepted.length === 0) return true;
  const g = expand(have);
  return accepted.some((a) => g.has(a));
}
