// problem.ts — RFC 7807 problem+json errors for the API.
import { STATUS_CODES } from "node:http";
import type { FastifyReply } from "fastify";

export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(status: number, detail: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(detail);
    this.status = status; this.detail = detail; this.extra = extra; this.headers = headers;
  }
}

export const notFound = (): ApiError => new ApiError(404, "Not Found");
export const badBody = (): ApiError => new ApiError(400, "Body should be a JSON object");
export const invalid = (resource: string, field: string, code: "missing_field" | "invalid" | "already_exists" | "custom", message?: string): ApiError =>
  new ApiError(422, message ?? `Validation Failed: ${field} is ${code === "missing_field" ? "missing" : code.replace("_", " ")}`, {
    errors: [{ resource, field, code }],
  });

export function sendProblem(reply: FastifyReply, status: number, detail: string, extra: Record<string, unknown> = {}): FastifyReply {
  const body = { type: "about:blank", title: STATUS_CODES[status] ?? "Error", status, detail, ...extra };
  return reply.code(status).header("content-type", "application/problem+json; charset=utf-8").send(JSON.stringify(body));
}
