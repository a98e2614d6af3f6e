/**
 * Where a finding may be charged. A contract problem one case saw in a response counts against
 * its rule's case (rule-results.ts applyFindings) — but only a case of the same area as the one
 * that read it, or of the `contract` area, whose cases check what every response shares (error
 * shape, rate-limit headers). A feed's response never fails an issue-events case ("seen in
 * FEEDS-ETAG-001"): a team that runs `--only feeds,issue-events` with one of the two half done
 * reads each failure in the area that has it. Without such a case the rule still fails, and the
 * reading case carries a note.
 */
import type { CaseResult } from "../core/types.ts";

/** The area of the case `id`, when it is among the results. */
export function areaOf(results: readonly CaseResult[], id: string): string | undefined {
  return results.find((r) => r.id === id)?.area;
}

/** Whether `owner` may take a finding read in `area` (unknown area: any case, as before). */
export function sameArea(owner: CaseResult, area: string | undefined): boolean {
  return area === undefined || owner.area === area || owner.area === "contract";
}
