/**
 * Every registered case, area by area in the order reports show them. Each area keeps its own
 * table (conformance/cases/<area>/index.ts); this module only gathers them and refuses duplicate
 * IDs at load time, because an ID is how a failure is found again from one run to the next.
 */
import type { Case } from "../core/types.ts";
import { CASES as CONTRACT } from "./contract/index.ts";
import { CASES as OAUTH } from "./oauth/index.ts";
import { CASES as FEEDS } from "./feeds/index.ts";
import { CASES as ISSUE_EVENTS } from "./issue-events/index.ts";
import { CASES as HOOKS } from "./hooks/index.ts";
import { CASES as WEBHOOKS } from "./webhooks/index.ts";
import { CASES as ROBUSTNESS } from "./robustness/index.ts";

/** Throws when two cases share an ID; returns the list unchanged otherwise. */
export function checkUniqueIds<T extends { id: string }>(cases: readonly T[]): readonly T[] {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.id)) duplicates.add(c.id);
    seen.add(c.id);
  }
  if (duplicates.size > 0) throw new Error(`duplicate conformance case IDs: ${[...duplicates].sort().join(", ")}`);
  return cases;
}

export const ALL_CASES: readonly Case[] = checkUniqueIds([...CONTRACT, ...OAUTH, ...FEEDS, ...ISSUE_EVENTS, ...HOOKS, ...WEBHOOKS, ...ROBUSTNESS]);
