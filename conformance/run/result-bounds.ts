/**
 * The text of a result bounded: a failure's message, a skip's reason and the notes are made of
 * what the target answered (a status line, an error body, a header, a key of its JSON), and a
 * hostile target can make any of them megabytes long. Values are cut where they are made
 * (json-safe.ts); this cuts the texts, so a run's reports stay small whatever the target sends.
 */
import type { CaseResult, FailureDetail } from "../core/types.ts";
import type { Finding } from "./context.ts";
import { cutText } from "./json-safe.ts";

/** The most of a message, a reason or a pointer one result keeps. */
export const TEXT_LIMIT = 4 * 1024;
/** The most of one note. */
export const NOTE_LIMIT = 2 * 1024;
/** The most notes one result keeps; more are counted in the last. */
export const MAX_NOTES = 50;

function boundedFailure(f: FailureDetail): FailureDetail {
  return { ...f, message: cutText(f.message, TEXT_LIMIT), ...(f.pointer !== undefined ? { pointer: cutText(f.pointer, TEXT_LIMIT) } : {}) };
}

export function boundedNotes(notes: readonly string[]): string[] {
  const kept = notes.slice(0, MAX_NOTES).map((n) => cutText(n, NOTE_LIMIT));
  if (notes.length > MAX_NOTES) kept.push(`${notes.length - MAX_NOTES} more note(s) not listed (at most ${MAX_NOTES} a case)`);
  return kept;
}

/** `result` with every text the target could make long cut to its limit, saying it was cut; `failure` is its first failure. */
export function boundedResult(result: CaseResult): CaseResult {
  const failures = result.failures?.map(boundedFailure);
  return {
    ...result,
    ...(result.reason !== undefined ? { reason: cutText(result.reason, TEXT_LIMIT) } : {}),
    ...(failures ? { failures, failure: failures[0] } : {}),
    notes: boundedNotes(result.notes),
  };
}

/** A finding (a contract problem seen in another case's exchange) with its message and pointer cut the same way. */
export function boundedFinding(finding: Finding): Finding {
  return { ...finding, message: cutText(finding.message, TEXT_LIMIT), ...(finding.pointer !== undefined ? { pointer: cutText(finding.pointer, TEXT_LIMIT) } : {}) };
}
