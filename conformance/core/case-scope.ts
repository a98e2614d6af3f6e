/**
 * What the runner knows about the case running now, reachable from any check without passing it
 * through every helper: the case's last request sent (so a failure keeps the curl line of the
 * request that showed it, even when the case's clean-up sends more before the failure reaches the
 * runner) and where a failed decision goes (recorded, the case goes on), and which rules had an
 * assertion hold. Held in an AsyncLocalStorage that the runner enters for each case (run/runner.ts
 * runCase), so it follows the case's awaits and nothing else; outside a run (a test harness
 * calling a case directly) there is no scope and every failure throws, as it always did.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** A request as sent: enough for a curl line (the shape of http.ts's SentRequest, kept here to avoid an import cycle). */
export interface SentSnapshot {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
}

/** A decision failure as recorded: the CaseFailure's parts and the request it was seen in. */
export interface RecordedFailure {
  message: string;
  expected?: unknown;
  actual?: unknown;
  pointer?: string;
  rule: string;
  sent?: SentSnapshot;
}

export interface CaseScope {
  /** The case's last request sent, answered or not. */
  lastSent(): SentSnapshot | undefined;
  /** A failed decision assertion: recorded, the case goes on. */
  record(failure: RecordedFailure): void;
  /** An assertion of `rule` held (undefined: a plain `check`, the case's first rule). */
  held(rule: string | undefined): void;
}

const storage = new AsyncLocalStorage<CaseScope>();

/** Runs `work` as the case of `scope`: every check and request it makes, awaited or not, sees it. */
export function inCaseScope<T>(scope: CaseScope, work: () => T): T {
  return storage.run(scope, work);
}

export function currentCase(): CaseScope | undefined {
  return storage.getStore();
}
