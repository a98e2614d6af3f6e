/**
 * The OAuth cases leave nothing behind and judge alike in any order (issue 40): against one
 * reference server, each OAuth case run alone, then all of them in two orders (a seeded shuffle
 * and its reverse) — each case's verdict the same in every run, no `left behind:` note, and after
 * every run the reference's `authorizations` table (tokens, and so grants: a grant is its user's
 * tokens for an application) holding exactly what the profile brought. One server for all runs on
 * purpose: what one run leaves is what the next would trip on.
 *
 * The reference's login lockout is raised (serve --failed-logins): the two-factor case spends up
 * to four wrong attempts a run, and this file runs it three times within the hour.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Case, CaseResult, RunSummary } from "../../conformance/core/types.ts";
import { CASES as OAUTH_CASES } from "../../conformance/cases/oauth/index.ts";
import { startReferenceTarget, type ReferenceTarget } from "../../conformance/reference-profile.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import { resultLine } from "./fault-proxy/run.ts";
import { ceiling } from "../ceilings.ts";

/**
 * A run of the two-factor case spends two time steps (its token, then the code that deletes it),
 * and here it runs again straight after: it may wait up to a period for a step at its start and
 * another for its clean-up, past the default 30 s a case gets.
 */
const TWO_FACTOR_CASE_MS = 120_000;

let target: ReferenceTarget;
let brought: string[];

/** The reference's authorizations, one line each (id, user, application, note). */
async function authorizations(): Promise<string[]> {
  const rows = await target.server.db.query<{ id: string; login: string; client_id: string | null; note: string | null }>(
    "select a.id::text as id, u.login, o.client_id, a.note from authorizations a join accounts u on u.id = a.user_id left join oauth_applications o on o.id = a.app_id order by a.id",
  );
  return rows.map((r) => `${r.id} ${r.login} ${r.client_id ?? "(no app)"} ${r.note ?? ""}`);
}

/** A small deterministic shuffle (mulberry32), so a failing order can be run again. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function run(cases: readonly Case[]): Promise<RunSummary> {
  return runSuite({ baseUrl: target.server.urls.api, authUrl: target.server.urls.auth, profile: target.profile, cases, receiverHost: false, timeoutMs: TWO_FACTOR_CASE_MS });
}

const verdict = (r: CaseResult) => `${r.id} ${r.status}`;
const leftNotes = (s: RunSummary) => s.results.flatMap((r) => r.notes.filter((n) => n.startsWith("left behind:")).map((n) => `${r.id}: ${n}`));

beforeAll(async () => {
  target = await startReferenceTarget({ rateLimits: { failedLogins: 1000, anonymous: 100_000 } });
  brought = await authorizations();
}, ceiling(60_000));

afterAll(async () => {
  await target?.close();
});

describe("the OAuth cases against the reference, alone and in two orders", () => {
  it(
    "give each case the same verdict and leave no token, grant or authorization the profile did not bring",
    async () => {
      const alone = new Map<string, string>();
      const problems: string[] = [];
      for (const c of OAUTH_CASES) {
        const summary = await run([c]);
        const r = summary.results[0]!;
        alone.set(r.id, verdict(r));
        problems.push(...leftNotes(summary));
        const now = await authorizations();
        if (now.join("\n") !== brought.join("\n")) problems.push(`after ${c.id} alone: ${now.filter((a) => !brought.includes(a)).join("; ")}`);
        if (r.status === "failed") problems.push(`alone: ${resultLine(r)}`);
      }
      const seed = 40;
      for (const [name, order] of [
        [`shuffled (seed ${seed})`, shuffled(OAUTH_CASES, seed)],
        [`shuffled (seed ${seed}) reversed`, shuffled(OAUTH_CASES, seed).reverse()],
      ] as const) {
        const summary = await run(order);
        const all = summary.results.map(resultLine).join("\n");
        expect(summary.results.map(verdict).sort(), `${name}:\n${all}`).toEqual([...alone.values()].sort());
        problems.push(...leftNotes(summary).map((n) => `${name}: ${n}`));
        const now = await authorizations();
        if (now.join("\n") !== brought.join("\n")) problems.push(`after the run ${name}: ${now.filter((a) => !brought.includes(a)).join("; ")}`);
      }
      expect(problems).toEqual([]);
    },
    ceiling(600_000),
  );
});
