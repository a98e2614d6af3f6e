/**
 * A request with no `Accept` header at all. fetch always adds an Accept header (any type), but the seed's token
 * table has a row for "(none)", so the token endpoint's default format is checked with exactly
 * that: a plain node:http(s) request. The exchange is recorded on the case's HttpClient (for the
 * curl line) and validated against the contract like any other.
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { checkContract, type Exchange, type HttpResponse, type OperationId } from "../../core/http.ts";
import { CaseFailure } from "../../core/failure.ts";
import type { CaseContext } from "../../core/types.ts";

export async function postFormWithoutAccept(ctx: CaseContext, operationId: OperationId, url: string, fields: Record<string, string>): Promise<HttpResponse> {
  const body = new URLSearchParams(fields).toString();
  const target = new URL(url);
  const requestHeaders = { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)) };
  const { status, headers, text } = await new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
    const req = (target.protocol === "https:" ? httpsRequest : httpRequest)(target, { method: "POST", headers: requestHeaders }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) for (const one of [v].flat()) h.append(k, String(one));
        resolve({ status: res.statusCode ?? 0, headers: h, text: Buffer.concat(chunks).toString("utf8") });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  }).catch((error: Error) => {
    throw new CaseFailure(`request failed: POST ${url}: ${error.message}`, { expected: "an HTTP response", actual: error.message });
  });
  const responseHeaders: Record<string, string> = {};
  headers.forEach((v, k) => (responseHeaders[k] = v));
  const exchange: Exchange = { method: "POST", url, requestHeaders, requestBody: body, status, responseHeaders, responseText: text };
  ctx.http.exchanges.push(exchange);
  const response: HttpResponse = {
    status,
    headers,
    text,
    exchange,
    json<T>() {
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new CaseFailure(`POST ${target.pathname}: the body is not JSON`, { expected: "JSON", actual: text.slice(0, 200), pointer: "/body" });
      }
    },
  };
  checkContract(operationId, response);
  return response;
}
