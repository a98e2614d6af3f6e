/**
 * A real conformance run for the HTML report's layout test: the suite against the reference,
 * through the fault proxy (test/conformance/fault-proxy) with two of its variants at once, so the
 * report has what a user's report has — passed cases, failures with expected/actual, pointer and
 * curl boxes (a prefix-matched redirect_uri, private events leaking into feeds), notes (the
 * redirect cases note the URI they tried), cases skipped because the run has no webhook receiver,
 * and the Rules section with the seed's and DECISIONS.md's texts, Markdown and all.
 */
import type { RunSummary } from "../../conformance/core/types.ts";
import { startReferenceTarget } from "../../conformance/reference-profile.ts";
import type { Fault } from "../conformance/fault-proxy/proxy.ts";
import { VARIANTS } from "../conformance/fault-proxy/variants.ts";
import type { Profile } from "../../conformance/core/profile.ts";
import { runThroughFaultProxy } from "../conformance/fault-proxy/run.ts";

export const REPORT_RUN_ONLY = "OAUTH-REDIRECT-*,FEEDS-VIS-*,FEEDS-ETAG-*,CONTRACT-RATE-*,WEBHOOK-PING-*";

/** Both faults on one proxy: each hook of each runs in turn. */
function both(a: Fault, b: Fault): Fault {
  return {
    request(side, req) {
      return a.request?.(side, req) ?? b.request?.(side, req);
    },
    response(side, req, res) {
      a.response?.(side, req, res);
      b.response?.(side, req, res);
    },
  };
}

function variant(name: string, profile: Profile): Fault {
  const v = VARIANTS.find((x) => x.name === name);
  if (!v) throw new Error(`no fault-proxy variant ${name}`);
  return v.fault(profile);
}

export async function reportRun(): Promise<RunSummary> {
  const target = await startReferenceTarget();
  try {
    const fault = both(variant("redirect-prefix", target.profile), variant("private-leak", target.profile));
    return await runThroughFaultProxy(target, fault, { only: REPORT_RUN_ONLY, receiverHost: false });
  } finally {
    await target.close();
  }
}
