/**
 * The pagination-past-300 fault's other half (reference/faults.ts): page 11 of a feed, which the
 * contract's validator refuses (maximum 10), is handed to the feed handler anyway, as an
 * implementation with an off-by-one page limit would serve it; every other refusal is answered
 * as the runtime would. Registered as the API host's `invalidRequest` only with that fault.
 */
import type { InvalidRequestHandlers, RawRequest } from "../../generated/server/index.ts";
import { PAST_300_LAST_PAGE } from "../faults.ts";
import { FEED_OPERATIONS } from "./feed-shortcut.ts";

export function pastPageRequests<H extends Partial<Record<string, (input: any) => unknown>>>(handlers: H): InvalidRequestHandlers<"api"> {
  const out: Record<string, (failure: { status: number; body: unknown }, raw: RawRequest) => unknown> = {};
  for (const operationId of FEED_OPERATIONS) {
    const handler = handlers[operationId];
    if (!handler) continue;
    out[operationId] = (failure, raw) => {
      const page = raw.query.page;
      const onlyPage = ((failure.body as { errors?: { field?: string }[] }).errors ?? []).every((e) => e.field === "page");
      if (failure.status !== 422 || !onlyPage || page !== String(PAST_300_LAST_PAGE)) return { status: failure.status, headers: {}, body: failure.body };
      const ifNoneMatch = raw.headers["if-none-match"];
      return handler({
        operationId,
        params: raw.request.params,
        query: { page: PAST_300_LAST_PAGE },
        headers: typeof ifNoneMatch === "string" ? { "If-None-Match": ifNoneMatch } : {},
        body: undefined,
        raw,
      });
    };
  }
  return out as InvalidRequestHandlers<"api">;
}
