/**
 * Errors the client throws. Declared statuses (404, 422, …) are *returned* as typed responses;
 * only what the contract does not describe, or what the caller asked to treat as failure
 * (pagination and polling need a 200), is thrown.
 */
import type { ApiResponse } from "./types.ts";

/** A response whose status the operation does not declare, or one a helper could not continue past. */
export class ResponseError extends Error {
  override readonly name = "ResponseError";
  readonly status: number;
  readonly body: unknown;
  readonly rawHeaders: Headers;
  readonly url: string;

  constructor(
    readonly operationId: string,
    response: Pick<ApiResponse, "status" | "body" | "rawHeaders" | "url">,
    /** False when the status is not in the contract at all. */
    readonly declared: boolean,
  ) {
    const detail = typeof (response.body as { message?: unknown })?.message === "string" ? `: ${(response.body as { message: string }).message}` : "";
    super(`${operationId}: ${declared ? "" : "undeclared "}status ${response.status}${detail}`);
    this.status = response.status;
    this.body = response.body;
    this.rawHeaders = response.rawHeaders;
    this.url = response.url;
  }
}

/** A request the client refuses to send (missing path parameter, foreign pagination link, …). */
export class RequestError extends Error {
  override readonly name = "RequestError";
}
