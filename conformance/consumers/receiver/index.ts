/**
 * The webhook receiver suite: `conformance --receiver URL --secret S`, or `runReceiverSuite` as a
 * library. The suite plays the service — it sends deliveries (correct ones, forged ones, unknown
 * ones, a burst) to the receiver and judges its answers — through the same runner pieces and
 * reporters as the server suite (conformance/run, conformance/report), so the reports and exit
 * codes are the same. Cases run one at a time; each has the run's time limit.
 */
import { setMaxListeners } from "node:events";
import { performance } from "node:perf_hooks";
import type { CaseResult, RunSummary } from "../../core/types.ts";
import { HttpClient } from "../../core/http.ts";
import { DEFAULT_CASE_TIMEOUT_MS, runCase, SelectionError, summarize, type ProgressEvent } from "../../run/runner.ts";
import { selectCases } from "../../run/select.ts";
import { deliveryPool } from "../send-delivery.ts";
import type { DeliveryContentType } from "../../../runtime/client/webhooks/delivery.ts";
import { BURST, RECEIVER_CASES } from "./cases.ts";
import { receiverContext, type ReceiverCase } from "./context.ts";

export { RECEIVER_CASES };
export type { ReceiverCase, ReceiverContext } from "./context.ts";

export interface ReceiverSuiteOptions {
  /** Where the receiver takes deliveries. */
  url: string;
  /** The hook's secret the receiver checks signatures with. */
  secret: string;
  cases?: readonly ReceiverCase[];
  only?: string | readonly string[];
  skip?: string | readonly string[];
  /** Per case; default 30 s. */
  timeoutMs?: number;
  /**
   * The delivery content types the receiver takes. Default `["json"]`: the seed's ("Each delivery
   * is an HTTP POST with a JSON body"); `form` (`payload=…`) is the contract's own choice, checked
   * only when the receiver says it takes it.
   */
  contentTypes?: readonly DeliveryContentType[];
  onProgress?: (event: ProgressEvent) => void;
}

/** The receiver's content types, as `--content-types json,form` gives them. */
export function parseContentTypes(value: string): DeliveryContentType[] {
  const names = value.split(",").map((n) => n.trim()).filter((n) => n.length > 0);
  const unknown = names.filter((n) => n !== "json" && n !== "form");
  if (names.length === 0 || unknown.length > 0) throw new Error(`--content-types takes json, form or both (comma-separated), got ${JSON.stringify(value)}`);
  return [...new Set(names)] as DeliveryContentType[];
}

export async function runReceiverSuite(options: ReceiverSuiteOptions): Promise<RunSummary> {
  const cases = options.cases ?? RECEIVER_CASES;
  const { selected, unmatched } = selectCases(cases, options.only, options.skip);
  if (unmatched.length > 0) throw new SelectionError(`--only ${unmatched.join(",")} matches no case`);
  if (selected.length === 0) throw new SelectionError("the selection is empty (every case is excluded by --skip)");
  if (!options.secret) throw new SelectionError("the receiver suite needs the receiver's secret");

  // The report's target: the receiver is the one host there is.
  const target = { baseUrl: options.url, authUrl: options.url };
  const startedAt = new Date();
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_CASE_TIMEOUT_MS;
  const pool = deliveryPool();
  const run = { url: options.url, secret: options.secret, pool, contentTypes: options.contentTypes ?? ["json"] };
  const results: CaseResult[] = [];
  options.onProgress?.({ type: "start", total: selected.length, target });
  try {
    for (const [index, c] of selected.entries()) {
      const result = await runCase(c, timeoutMs, (signal, notes) => {
        // Every delivery in flight listens for the end of the case: a burst is many at once.
        setMaxListeners(BURST + 10, signal);
        const http = new HttpClient(options.url, options.url, fetch, { signal });
        const ctx = receiverContext(run, http, notes, signal);
        return { http, run: () => c.run(ctx) };
      });
      results.push(result);
      options.onProgress?.({ type: "case", result, index, total: selected.length });
    }
  } finally {
    await pool.destroy();
  }
  const summary = summarize(target, startedAt, performance.now() - started, results);
  options.onProgress?.({ type: "end", summary });
  return summary;
}
