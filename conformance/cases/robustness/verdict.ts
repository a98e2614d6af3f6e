/**
 * What a target must answer to a bad input. On the API host: a 4xx, in the contract's error
 * shape — `Error` ({message, documentation_url?}), and `ValidationError` for a 422 — as JSON.
 * On the web host (the OAuth pages and the token exchange, whose errors the seed gives with
 * status 200 or as HTML pages): anything but a 5xx, a JSON 4xx in one of the error shapes, and
 * never an access token. A problem is returned as a sentence, the value that shows it, and the
 * rule it breaks — the decision of what the input probes, so a profile that switches one off for
 * its own answers keeps the rest: a 5xx breaks D-CONF-NEVER-5XX (its own rule, which stays on when
 * D-CONF-ROBUSTNESS is off); a bad query value accepted breaks D-INVALID-QUERY (the seed lets a
 * feed answer page 11 with 200 [], as FEEDS-PAGE-003 accepts); any other bad input accepted, or a
 * token handed out, breaks D-CONF-ROBUSTNESS; an answer outside the error shape breaks D-ERRORS
 * (the seed shows no error answers for the API).
 */
import { validateSchema } from "../../../generated/validators/index.js";
import type { HttpResponse } from "../../core/http.ts";
import type { OperationModel } from "./operations.ts";

export interface Problem {
  rule: "D-CONF-NEVER-5XX" | "D-CONF-ROBUSTNESS" | "D-INVALID-QUERY" | "D-ERRORS";
  message: string;
  expected: unknown;
  actual: unknown;
  pointer: string;
}

function excerpt(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function jsonBody(response: HttpResponse): { ok: true; value: unknown } | { ok: false } {
  const type = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!/^application\/([\w.-]+\+)?json$/.test(type)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(response.text) };
  } catch {
    return { ok: false };
  }
}

/** The first schema `value` fits, or the errors against the first one. */
function shapeProblem(value: unknown, schemas: readonly string[]): string | undefined {
  let first: string | undefined;
  for (const name of schemas) {
    const verdict = validateSchema(name, value);
    if (verdict.valid) return undefined;
    first ??= `${name}: ${verdict.errors.slice(0, 3).map((e) => `${e.path || "/"} ${e.message}`).join("; ")}`;
  }
  return first;
}

/** What part of an ordinary request an input breaks (inputs.ts). */
export type InputPart = "path" | "query" | "body" | "credentials";

export function judge(op: OperationModel, response: HttpResponse, part?: InputPart): Problem | undefined {
  const { status } = response;
  if (status >= 500) return { rule: "D-CONF-NEVER-5XX", message: `a bad input to ${op.operationId} answered ${status}`, expected: "anything but a 5xx", actual: { status, body: excerpt(response.text) }, pointer: "/status" };
  if (op.host === "api") {
    if (status < 400) {
      const rule = part === "query" ? "D-INVALID-QUERY" : "D-CONF-ROBUSTNESS";
      return { rule, message: `a bad input to ${op.operationId} was accepted (${status})`, expected: "a 4xx", actual: { status, body: excerpt(response.text) }, pointer: "/status" };
    }
    const body = jsonBody(response);
    if (!body.ok) {
      return { rule: "D-ERRORS", message: `${op.operationId} answered ${status} without a JSON error body`, expected: "application/json {message, documentation_url}", actual: { contentType: response.headers.get("content-type"), body: excerpt(response.text) }, pointer: "/body" };
    }
    const problem = shapeProblem(body.value, status === 422 ? ["ValidationError"] : ["Error"]);
    if (problem) return { rule: "D-ERRORS", message: `${op.operationId} answered ${status} outside the error shape (${problem})`, expected: status === 422 ? "ValidationError" : "Error", actual: body.value, pointer: "/body" };
    return undefined;
  }
  if (/access_token=|"access_token"\s*:|<access_token>/.test(response.text)) {
    return { rule: "D-CONF-ROBUSTNESS", message: `a bad input to ${op.operationId} was answered with an access token`, expected: "an error, no token", actual: { status, body: excerpt(response.text) }, pointer: "/body/access_token" };
  }
  if (status >= 400) {
    const body = jsonBody(response);
    const problem = body.ok ? shapeProblem(body.value, ["Error", "ValidationError", "OauthTokenError"]) : undefined;
    if (problem) return { rule: "D-ERRORS", message: `${op.operationId} answered ${status} outside the error shapes (${problem})`, expected: "Error, ValidationError or OauthTokenError", actual: body.ok ? body.value : undefined, pointer: "/body" };
  }
  return undefined;
}
