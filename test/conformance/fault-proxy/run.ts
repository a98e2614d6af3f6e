/**
 * The suite run through a fault proxy in front of a reference target, as the broken- and
 * fair-variant tests (and the report-layout run) need it: the proxy started, the run, the proxy
 * closed whatever happens. One place, not a copy per test file.
 */
import type { DecisionSetting } from "../../../conformance/core/decisions.ts";
import type { CaseResult, RunSummary } from "../../../conformance/core/types.ts";
import type { ReferenceTarget } from "../../../conformance/reference-profile.ts";
import { runSuite } from "../../../conformance/run/runner.ts";
import { startFaultProxy, type Fault } from "./proxy.ts";
import { ceiling } from "../../ceilings.ts";

export interface ProxyRun {
  only: string;
  /** The profile's `decisions` (a fair variant's declared choices); absent: the reference's. */
  decisions?: Record<string, DecisionSetting>;
  /** The profile's bound on a delivery; absent: the profile's own. */
  deliveryTimeoutMs?: number;
  receiverHost?: false;
}

export async function runThroughFaultProxy(target: ReferenceTarget, fault: Fault | undefined, run: ProxyRun): Promise<RunSummary> {
  const proxy = await startFaultProxy({ api: target.server.urls.api, auth: target.server.urls.auth }, fault);
  try {
    const profile = {
      ...target.profile,
      ...(run.deliveryTimeoutMs !== undefined ? { deliveryTimeoutMs: run.deliveryTimeoutMs } : {}),
      ...(run.decisions ? { decisions: run.decisions } : {}),
    };
    return await runSuite({ baseUrl: proxy.apiUrl, authUrl: proxy.authUrl, profile, only: run.only, ...(run.receiverHost === false ? { receiverHost: false } : {}) });
  } finally {
    await proxy.close();
  }
}

/**
 * How long a case waits for a delivery over loopback. On a quiet machine it arrives in
 * milliseconds (1 s is plenty); a ceiling, like every wait in the tests, because at load ~35 a
 * fixed 2 s was reached by a delivery that did arrive (test/ceilings.ts). A variant that never
 * delivers waits it out, so it stays as low as that allows.
 */
export const LOOPBACK_DELIVERY_MS = ceiling(1_000);

/** One result as a line of an assertion's message: id, status, reason, and the failed rule. */
export function resultLine(r: CaseResult): string {
  return `${r.id} ${r.status}${r.reason ? ` (${r.reason})` : ""}${r.failure ? `: [${r.failure.rule ?? "?"}] ${r.failure.message}` : ""}`;
}
