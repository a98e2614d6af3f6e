/**
 * What a trigger made, as the target says it. A target decides where a new repository, issue or
 * hook lives — the seed's `repository` event is "a repository is created" on an organization's
 * hooks, which one target creates under users[0] and another in the organization — so the suite
 * asks instead of assuming: a trigger step's JSON answer (an HTTP step's body, a command's
 * standard output) may name what it made, at the JSON pointers of the step's `made`
 * (`{repository: "/data/full_name", issue: "/number"}`), or by default at the top-level keys
 * `repository` ("owner/name"), `issue` and `hook` (whole numbers). The answer is the target's
 * text: only values of the right form are taken, and a later step's override an earlier one's.
 */
import { valueAt } from "../core/json-pointer.ts";

export interface TriggerMade {
  /** `owner/name` of a repository the trigger created or acted on. */
  repository?: string;
  /** The number of an issue (or pull request) it created or acted on. */
  issue?: number;
  /** The id of a hook it created. */
  hook?: number;
}

export type MadePointers = { [K in keyof TriggerMade]?: string };

const DEFAULT_POINTERS: Required<MadePointers> = { repository: "/repository", issue: "/issue", hook: "/hook" };
const FULL_NAME = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;

function wholeNumber(value: unknown): number | undefined {
  const n = typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** What `text` (a step's answer) names, by the step's pointers or the default keys; {} when it is no JSON object. */
export function madeFrom(text: string, pointers: MadePointers | undefined): TriggerMade {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return {};
  let doc: unknown;
  try {
    doc = JSON.parse(trimmed);
  } catch {
    return {};
  }
  const at = { ...DEFAULT_POINTERS, ...pointers };
  const made: TriggerMade = {};
  const repository = valueAt(doc, at.repository);
  if (typeof repository === "string" && FULL_NAME.test(repository)) made.repository = repository;
  const issue = wholeNumber(valueAt(doc, at.issue));
  if (issue !== undefined) made.issue = issue;
  const hook = wholeNumber(valueAt(doc, at.hook));
  if (hook !== undefined) made.hook = hook;
  return made;
}
