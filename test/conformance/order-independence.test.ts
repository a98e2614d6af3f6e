/**
 * Any order, any subset, the same verdict (issue 40). Against the reference and each server of
 * the tests written by other hands — the independent server and the two written blind — every
 * case run alone, then the whole suite in two shuffled orders (`runSuite`'s `shuffle`, what
 * `conformance --shuffle=SEED` runs): each case's verdict the same in the three, no `left
 * behind:` note, and nothing left on the target (its own account; the reference's database).
 * One server per target for all its runs on purpose: what one run leaves is what the next would
 * trip on.
 *
 * A case the rate budget skips (the blind servers allow 60 anonymous requests an hour, and three
 * runs spend more) is no verdict: it is left out of the comparison, and the test says which.
 *
 * Integration: about a minute and a half a target.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { DecisionSetting } from "../../conformance/core/decisions.ts";
import type { Profile } from "../../conformance/core/profile.ts";
import type { RunSummary } from "../../conformance/core/types.ts";
import { ALL_CASES } from "../../conformance/cases/index.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import { readBudget } from "../../conformance/run/rate-budget.ts";
import { startReferenceTarget } from "../../conformance/reference-profile.ts";
import { startIndependentServer } from "./independent-server/server.ts";
import { DECISIONS as INDEPENDENT_DECISIONS, independentProfile } from "./independent-profile.ts";
import { plainProfile, prefixedProfile, type BlindTarget } from "./blind/profiles.ts";
import { PREFIXED_DECISIONS } from "./blind/prefixed-decisions.ts";
import { PLAIN_DECISIONS } from "./blind/plain-decisions.ts";
import { start as startPrefixed } from "./blind-prefixed/server.ts";
import { start as startPlain } from "./blind-plain/server.ts";
import { ceiling } from "../ceilings.ts";

interface Target {
  api: string;
  auth: string;
  profile: Profile;
  /** What the runs left on the target, as the target itself accounts for it. */
  leftovers(): Promise<unknown>;
  close(): Promise<void>;
}

const RETRIES = [500, 1000, 2000];

const TARGETS: Record<string, () => Promise<Target>> = {
  async reference() {
    // The two-factor case spends failed logins each run, and runs three times here.
    const t = await startReferenceTarget({ rateLimits: { failedLogins: 1000 } });
    const count = async () => (await t.server.db.query<{ n: string }>("select count(*)::text as n from authorizations"))[0]!.n;
    const brought = await count();
    const hooks = async () => (await t.server.db.query<{ n: string }>("select count(*)::text as n from hooks"))[0]!.n;
    const hooksBrought = await hooks();
    return { api: t.server.urls.api, auth: t.server.urls.auth, profile: t.profile, leftovers: async () => ({ authorizations: Number(await count()) - Number(brought), hooks: Number(await hooks()) - Number(hooksBrought) }), close: t.close };
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

let target: Target | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

describe("each case's verdict alone and in two shuffled orders", () => {
  for (const [name, start] of Object.entries(TARGETS)) {
    it(
      `${name}: the same verdicts, nothing left behind`,
      async () => {
        const t = (target = await start());
        const run = async (options: { only?: string; shuffle?: number }): Promise<RunSummary> => {
          const budget = await readBudget({ baseUrl: t.api, token: t.profile.users[0]!.token });
          return runSuite({ baseUrl: t.api, authUrl: t.auth, profile: t.profile, budget, ...options });
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
        expect(await t.leftovers()).toEqual(NOTHING[name] ?? { hooks: [], tokens: [], grants: [] });
        if (skippedForBudget.size > 0) console.log(`${name}: left out of the comparison, skipped by the rate budget in some run: ${[...skippedForBudget].join(", ")}`);
      },
      ceiling(400_000),
    );
  }
});
