/**
 * What cases of every area read from the profile: users[0]'s token and the public repository
 * split into owner and name. A case whose needs say it has them never meets the skip; the skip
 * is there for what a case discovers it needs while running, worded as run/needs.ts words it.
 */
import type { CaseContext } from "../core/types.ts";

export interface RepoName {
  owner: string;
  repo: string;
  /** `owner/repo` */
  full: string;
}

export function splitRepo(full: string): RepoName {
  const [owner = "", repo = ""] = full.split("/");
  return { owner, repo, full };
}

/** users[0]'s token, or the case is skipped. */
export function mainToken(ctx: CaseContext): string {
  const token = ctx.profile.users[0]?.token;
  if (!token) ctx.skip("profile has no token for users[0]");
  return token;
}

/** The profile's public repository, or the case is skipped. */
export function publicRepo(ctx: CaseContext): RepoName {
  const full = ctx.profile.repos?.public;
  if (!full) ctx.skip("profile has no public repository (repos.public)");
  return splitRepo(full);
}

/**
 * Set-up that stands on a decision's endpoint, status or shape (the seed shows none of it): when
 * the profile switches that decision off, the case is skipped saying which and why, instead of
 * failing a rule for a choice the target declared.
 */
export function needsDecision(ctx: CaseContext, id: string, what: string): void {
  if (ctx.decisions.off(id)) ctx.skip(`not checked: ${what} is the contract's (${id}), which the profile switches off`);
}

/**
 * A decision's premise the rest of the case stands on did not hold: the failure is recorded
 * against that decision (when the profile keeps it) and the case stops there — nothing after it
 * could be checked. Whether a decision's `fail` ends the case or is recorded while the case goes
 * on, the skip makes sure the case stops.
 */
export function stopAt(ctx: CaseContext, rule: string, message: string, detail: { expected?: unknown; actual?: unknown; pointer?: string } = {}): never {
  (ctx.rule(rule).fail as (m: string, d: typeof detail) => void)(message, detail);
  return ctx.skip(`not checked past ${rule}: ${message}`);
}
