/**
 * A request with no `Accept` header at all. fetch always adds an Accept header (any type), but the seed's token
 * table has a row for "(none)", so the token endpoint's default format is checked with exactly
 * that: undici's `request`, which sends only the headers it is given. The exchange is recorded on
 * the case's HttpClient (for the curl line) and validated against the contract like any other.
 */
import { request } from "undici";
import type { HttpResponse, OperationId } from "../../core/http.ts";
import type { CaseContext } from "../../core/types.ts";

export async function postFormWithoutAccept(ctx: CaseContext, operationId: OperationId, url: string, fields: Record<string, string>): Promise<HttpResponse> {
  const body = new URLSearchParams(fields).toString();
  const requestHeaders = { "content-type": "application/x-www-form-urlencoded" };
  ctx.http.lastSent = { method: "POST", url, requestHeaders, requestBody: body };
  // The case's client reads the answer: its time-out, the end of the case, its byte limit.
  const { res, text } = await ctx.http.send("POST", url, (signal) => request(url, { method: "POST", headers: requestHeaders, body, signal }), (r) => r.body);
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) for (const one of [v].flat()) headers.append(k, String(one));
  return ctx.http.record({ method: "POST", url, requestHeaders, requestBody: body, status: res.statusCode, responseText: text }, headers, operationId);
}
