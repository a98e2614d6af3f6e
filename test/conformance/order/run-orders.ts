/**
 * Any order, any subset, the same verdict (issue 40) — the runs, for one target per test file in
 * this folder (so the four run side by side: most of their time is waiting, on deliveries and on
 * the two-factor case's fresh time steps). Against the reference and each server of
 * the tests written by other hands — the independent server and the two written blind — every
 * case run alone, then the whole suite in two shuffled orders (`runSuite`'s `shuffle`, what
 * `conformance --shuffle=SEED` runs): each case's verdict the same in the three, no `left
 * behind:` note, and nothing left on the target (its own account; the reference's database).
 * One server per target for all its runs on purpose: what one run leaves is what the next would
 * trip on.
 *
 * The blind servers allow 60 anonymous requests an hour, which hold one run, not three: each of
 * their modes gets a server of its own; the reference's anonymous limit is raised as a team
 * running the suite again and again raises it (serve --rate-limit).
 *
 * Integration: about a minute and a half a target.
 */
import { expect } from "vitest";
import type { DecisionSetting } from "../../../conformance/core/decisions.ts";
import type { Profile } from "../../../conformance/core/profile.ts";
import type { RunSummary } from "../../../conformance/core/types.ts";
import { ALL_CASES } from "../../../conformance/cases/index.ts";
import { runSuite } from "../../../conformance/run/runner.ts";
import { readBudget } from "../../../conformance/run/rate-budget.ts";
import { startReferenceTarget } from "../../../conformance/reference-profile.ts";
import { startIndependentServer } from "../independent-server/server.ts";
import { DECISIONS as INDEPENDENT_DECISIONS, independentProfile } from "../independent-profile.ts";
import { plainProfile, prefixedProfile, type BlindTarget } from "../blind/profiles.ts";
import { PREFIXED_DECISIONS } from "../blind/prefixed-decisions.ts";
import { PLAIN_DECISIONS } from "../blind/plain-decisions.ts";
import { start as startPrefixed } from "../blind-prefixed/server.ts";
import { start as startPlain } from "../blind-plain/server.ts";

export interface Target {
  api: string;
  auth: string;
  profile: Profile;
  /** What the runs left on the target, as the target itself accounts for it. */
  leftovers(): Promise<unknown>;
  close(): Promise<void>;
}

const RETRIES = [500, 1000, 2000];

export const TARGETS: Record<string, () => Promise<Target>> = {
  async reference() {
    // The two-factor case spends failed logins each run, and runs three times here.
    // Three runs within the hour: the two-factor case's failed logins, and the anonymous requests
    // (serve --rate-limit raises them the same way for a team that runs the suite again and again).
    const t = await startReferenceTarget({ rateLimits: { failedLogins: 1000, anonymous: 100_000 } });
    const count = async () => (await t.server.db.query<{ n: string }>("select count(*)::text as n from authorizations"))[0]!.n;
    const brought = await count();
    const hooks = async () => (await t.server.db.query<{ n: string }>("select count(*)::text as n from hooks"))[0]!.n;
    const hooksBrought = await hooks();
    // The raised limit declared, as the demo profile declares serve --rate-limit's (D-RATE-RESET).
    const profile = { ...t.profile, decisions: { ...t.profile.decisions, "D-RATE-RESET": { authenticated: 5000, anonymous: 100_000 } } };
    return { api: t.server.urls.api, auth: t.server.urls.auth, profile, leftovers: async () => ({ authorizations: Number(await count()) - Number(brought), hooks: Number(await hooks()) - Number(hooksBrought) }), close: t.close };
  },
  async independent() {
    const s = await startIndependentServer();
    return { api: s.api, auth: s.auth, profile: independentProfile(s, INDEPENDENT_DECISIONS), leftovers: async () => { const l = s.leftovers(); return { hooks: l.hooks, tokens: l.tokens, grants: l.grants }; }, close: () => s.close() };
  },
  async "blind-prefixed"() {
    const s = await startPrefixed({ retryDelaysMs: RETRIES });
    return { api: s.api, auth: s.auth, profile: prefixedProfile(s as BlindTarget, PREFIXED_DECISIONS as Record<string, DecisionSetting>), leftovers: async () => s.leftovers(), close: () => s.close() };
  },
  async "blind-plain"() {
    const s = await startPlain({ retryDelaysMs: RETRIES });
    return { api: s.api, auth: s.auth, profile: plainProfile(s as BlindTarget, PLAIN_DECISIONS as Record<string, DecisionSetting>), leftovers: async () => s.leftovers(), close: () => s.close() };
  },
};

const NOTHING: Record<string, unknown> = { reference: { authorizations: 0, hooks: 0 } };
const budgetSkip = (reason: string | undefined) => /rate limit will not last this case/.test(reason ?? "");


/** Every case alone, then the whole suite in two shuffled orders: the same verdicts, nothing left behind. */
export async function checkOrders(name: string, freshPerMode: boolean): Promise<void> {
  const opened: Target[] = [];
  const open = async () => {
    const t = await TARGETS[name]!();
    opened.push(t);
    return t;
  };
  try {
    await compare(name, open, freshPerMode);
  } finally {
    for (const t of opened) await t.close();
  }
}

const left = (name: string) => NOTHING[name] ?? { hooks: [], tokens: [], grants: [] };

/**
 * `freshPerMode`: a target whose anonymous limit (60 an hour) holds one whole run, not three,
 * gets a server of its own for the alone runs and for each shuffled run — so no case is left out
 * for the budget — and what is compared is each case's verdict alone against within a run.
 */
async function compare(name: string, open: () => Promise<Target>, freshPerMode: boolean): Promise<void> {
  let t = await open();
  // The shuffled runs read the budget as the CLI does; the alone runs together spend what one run
  // does, and a budget read before each would spend an anonymous request of its own.
  const run = async (options: { only?: string; shuffle?: number }): Promise<RunSummary> => {
    const budget = options.shuffle !== undefined ? { budget: await readBudget({ baseUrl: t.api, token: t.profile.users[0]!.token }) } : {};
    return runSuite({ baseUrl: t.api, authUrl: t.auth, profile: t.profile, ...budget, ...options });
  };
  const verdicts: Map<string, string>[] = [];
  const notes: string[] = [];
  const skippedForBudget = new Set<string>();
  const record = (summary: RunSummary, into: Map<string, string>, label: string) => {
    for (const r of summary.results) {
      if (r.status === "skipped" && budgetSkip(r.reason)) skippedForBudget.add(r.id);
      else into.set(r.id, r.status === "failed" ? `failed: ${r.failures?.at(-1)?.message ?? ""}`.slice(0, 300) : r.status);
      for (const n of r.notes) if (n.startsWith("left behind:")) notes.push(`${label} ${r.id}: ${n}`);
    }
  };
  const alone = new Map<string, string>();
  for (const c of ALL_CASES) record(await run({ only: c.id }), alone, "alone");
  verdicts.push(alone);
  for (const seed of [4001, 77]) {
    if (freshPerMode) {
      expect(await t.leftovers()).toEqual(left(name));
      t = await open();
    }
    const shuffledRun = new Map<string, string>();
    const summary = await run({ shuffle: seed });
    expect(summary.order).toEqual({ shuffle: seed });
    record(summary, shuffledRun, `shuffle=${seed}`);
    verdicts.push(shuffledRun);
  }
  const differ: string[] = [];
  for (const c of ALL_CASES) {
    const seen = verdicts.map((v) => v.get(c.id)).filter((v): v is string => v !== undefined);
    const kinds = new Set(seen.map((v) => v.split(":")[0]));
    if (kinds.size > 1) differ.push(`${c.id}: alone ${verdicts[0]!.get(c.id)} | shuffle=4001 ${verdicts[1]!.get(c.id)} | shuffle=77 ${verdicts[2]!.get(c.id)}`);
  }
  expect(differ).toEqual([]);
  // The runs themselves pass: a suite that failed everything the same way would prove nothing.
  expect([...verdicts[1]!.entries()].filter(([, v]) => v.startsWith("failed")).map(([id, v]) => `${id} ${v}`)).toEqual([]);
  expect([...verdicts[1]!.values()].filter((v) => v === "passed").length).toBeGreaterThan(150);
  expect(notes).toEqual([]);
  expect(await t.leftovers()).toEqual(left(name));
  // Nothing is left out of the comparison for the budget: each target's runs fit its limits.
  expect([...skippedForBudget]).toEqual([]);
}
