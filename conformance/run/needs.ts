/**
 * A case's needs against what the profile (and the run) provide. An unmet need skips the case
 * before it runs, with a reason that says which profile field to fill in, so a skipped case in a
 * report is a to-do for the profile's author rather than a mystery.
 */
import type { Need } from "../core/types.ts";
import type { Profile } from "../core/profile.ts";

export interface RunFacilities {
  /** Why the run has no webhook receiver; undefined when it has one. */
  noReceiver?: string;
}

const REASONS: Record<Need, (p: Profile, run: RunFacilities) => string | undefined> = {
  user: (p) => (p.users[0]?.token ? undefined : "profile has no token for users[0]"),
  "second-user": (p) => (p.users[1]?.token ? undefined : "profile has no second user with a token (users[1])"),
  app: (p) => (p.app ? undefined : "profile has no app"),
  authorize: (p) => {
    if (!p.authorize) return "profile has no authorize driver";
    if (!p.app) return "profile has no app (the authorize page needs one)";
    if (!p.users[0]?.password) return "profile has no password for users[0] (the authorize page's login form needs one)";
    return undefined;
  },
  org: (p) => (p.org ? undefined : "profile has no org"),
  "public-repo": (p) => (p.repos?.public ? undefined : "profile has no public repository (repos.public)"),
  "private-repo": (p) => (p.repos?.private ? undefined : "profile has no private repository (repos.private)"),
  issue: (p) => (p.issue !== undefined ? undefined : "profile has no issue number"),
  trigger: (p) => (p.triggers && Object.keys(p.triggers).length > 0 ? undefined : "profile has no triggers"),
  receiver: (_p, run) => run.noReceiver,
  basic: (p) => (p.users[0]?.password ? undefined : "profile has no password for users[0] (the non-web flow authenticates with Basic)"),
  "other-app": (p) => (p.otherApp ? undefined : "profile has no second application (otherApp: clientId, clientSecret)"),
  "two-factor": (p) => (p.twoFactor ? undefined : "profile has no two-factor user (twoFactor: login, password, totpSecret)"),
  "service-hook": (p) => (p.serviceHook ? (p.users[0]?.token ? undefined : "profile has no token for users[0]") : "profile has no service hook to install (serviceHook: repo, name, config)"),
  "hook-admin": (p) => (p.users[0]?.token && p.repos?.public ? undefined : "profile has no users[0] token administering repos.public (hooks need one)"),
};

/** The first unmet need's reason, or undefined when the case can run. */
export function unmetNeed(needs: readonly Need[] | undefined, profile: Profile, run: RunFacilities): string | undefined {
  for (const need of needs ?? []) {
    const reason = REASONS[need](profile, run);
    if (reason) return reason;
  }
  return undefined;
}

/** Whether any of these cases needs the webhook receiver (the runner starts one only then). */
export function needsReceiver(cases: readonly { needs?: readonly Need[] }[]): boolean {
  return cases.some((c) => c.needs?.includes("receiver"));
}
