/**
 * ROBUST-<OPERATION>-001: one case per operation of the contract, sending that operation's
 * fixed, fast-check-drawn bad inputs (inputs.ts) with users[0]'s credentials — a token, or Basic
 * authentication of users[0] (the authorizations API) or of the application (`/applications`)
 * — and judging every answer (verdict.ts). A bad answer fails the decision of what it probes
 * (verdict.ts), with the input that caused it and a curl line reproducing it; the case goes on to
 * the next input, so one run shows every kind of bad answer (the first of each rule listed, the
 * rest counted in a note). A request left unanswered stops the case (D-CONF-NEVER-5XX: never a
 * hang). A passing case notes which statuses it saw.
 */
import { operationTable } from "../../../generated/client/operations.ts";
import type { Case, CaseContext, Need } from "../../core/types.ts";
import { CaseFailure } from "../../core/failure.ts";
import { curlOf, type HttpResponse, type OperationId, type RequestOptions } from "../../core/http.ts";
import { badInputs, type BadInput } from "./inputs.ts";
import { operationModel, type OperationModel } from "./operations.ts";
import { judge } from "./verdict.ts";

const SEED_SECTION = "Errors › Other";

/** `getOrCreateAuthorizationForApp` → `GET_OR_CREATE_AUTHORIZATION_FOR_APP`. */
export function upperSnake(operationId: string): string {
  return operationId.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}

export function caseId(operationId: string): string {
  return `ROBUST-${upperSnake(operationId)}-001`;
}

function encodeSegment(v: { value: string; raw?: boolean }): string {
  return v.raw ? v.value : encodeURIComponent(v.value);
}

function queryString(entries: [string, string | string[] | undefined][]): string {
  const parts: string[] = [];
  for (const [key, value] of entries) {
    if (value === undefined) continue;
    for (const one of [value].flat()) parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(one)}`);
  }
  return parts.length > 0 ? `?${parts.join("&")}` : "";
}

/** The request of one input, with the credentials it calls for. */
function requestOf(ctx: CaseContext, op: OperationModel, input: BadInput): RequestOptions {
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeSegment(input.path[name] ?? { value: "robustness" }));
  const query: [string, string | string[] | undefined][] = Object.entries(input.query);
  const headers: Record<string, string> = {};
  const options: RequestOptions = { method: op.method, host: op.host, headers, validate: false };
  const { profile } = ctx;
  switch (input.credentials.kind) {
    case "token": {
      const token = profile.users[0]?.token;
      if (!token) ctx.skip("users[0] has no token");
      options.token = token;
      break;
    }
    case "basic-user": {
      const user = profile.users[0];
      if (!user?.password) ctx.skip("users[0] has no password for Basic authentication");
      options.basic = { username: user.login, password: user.password };
      break;
    }
    case "basic-app":
      if (!profile.app) ctx.skip("the profile has no OAuth application");
      options.basic = { username: profile.app.clientId, password: profile.app.clientSecret };
      break;
    case "header":
      headers.authorization = input.credentials.authorization;
      break;
    case "query":
      query.push(["access_token", input.credentials.accessToken]);
      break;
    case "none":
      break;
  }
  if (input.body && op.method !== "GET") {
    headers["content-type"] = input.body.contentType;
    options.body = input.body.text;
  }
  options.path = `${path}${queryString(query)}`;
  return options;
}

function shortCurl(response: HttpResponse): string {
  const curl = curlOf(response.exchange);
  return curl.length > 2000 ? `${curl.slice(0, 2000)}… (${curl.length} characters)` : curl;
}

/**
 * The decision that makes an operation the contract's — its path and method, where the seed shows
 * none. A profile that switches it off says the target serves that part otherwise (or not at all):
 * bad inputs to the contract's path would test nothing of the target's, and spend its limits.
 */
const OPERATION_OWNERS: readonly [RegExp, string][] = [
  [/^(check|reset|revoke)Application(Token|Grant)$/, "D-NONWEB-APP-TOKENS"],
  [/^getOrCreateAuthorization/, "D-REF-NONWEB-GET-CREATE"],
  [/^(create|get|list|update|delete)Authorizations?$/, "D-NONWEB-AUTHORIZATIONS"],
  [/HookDeliver(y|ies)$/, "D-DELIVERY-RETRIES"],
  [/^testRepoHook$/, "D-REF-HOOKS-POST-TESTS"],
  [/^ping(Repo|Org)Hook$/, "D-PING-ENDPOINT"],
  [/^(create|get|list|update|delete)(Repo|Org)Hooks?$/, "D-HOOK-ENDPOINTS"],
];

export function operationOwner(operationId: string): string | undefined {
  return OPERATION_OWNERS.find(([re]) => re.test(operationId))?.[1];
}

function needsOf(operationId: OperationId): Need[] {
  const { path, host } = operationTable[operationId]!;
  if (host !== "api") return [];
  if (path.startsWith("/applications/")) return ["app"];
  if (path.startsWith("/authorizations")) return [];
  return ["user"];
}

export function robustnessCase(operationId: OperationId): Case {
  const api = operationTable[operationId]!.host === "api";
  return {
    id: caseId(operationId),
    title: api ? `bad inputs to ${operationId} answer 4xx in the error shape` : `bad inputs to ${operationId} never answer 5xx`,
    area: "robustness",
    seed: SEED_SECTION,
    // D-CONF-NEVER-5XX first: a plain failure (a request left unanswered) counts against it, and
    // it stays checked when a profile switches D-CONF-ROBUSTNESS off.
    rules: api ? ["D-CONF-NEVER-5XX", "D-CONF-ROBUSTNESS", "D-ERRORS", "D-REQ-MALFORMED-JSON", "D-REQ-422-CODES"] : ["D-CONF-NEVER-5XX", "D-CONF-ROBUSTNESS", "D-ERRORS"],
    needs: needsOf(operationId),
    async run(ctx) {
      const owner = operationOwner(operationId);
      if (owner && ctx.decisions.off(owner)) ctx.skip(`${operationId} is the contract's (${owner}), which the profile switches off: no bad inputs sent to it`);
      const op = await operationModel(operationId);
      const inputs = badInputs(op, ctx.profile);
      const statuses = new Map<number, number>();
      /** Bad answers per rule: the first is the rule's failure, the rest are counted. */
      const bad = new Map<string, number>();
      for (const [index, input] of inputs.entries()) {
        let response: HttpResponse;
        try {
          response = await ctx.http.request(requestOf(ctx, op, input));
        } catch (error) {
          if (error instanceof CaseFailure) throw new CaseFailure(`${error.message} — bad input ${index + 1} of ${inputs.length}: ${input.label}`, { ...error.detail, actual: { input: input.label, error: error.detail.actual }, rule: error.detail.rule ?? "D-CONF-NEVER-5XX" });
          throw error;
        }
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const problem = judge(op, response, input.part);
        // A problem of a decision the profile switches off (D-ERRORS: the target has its own error
        // shape) is none: the next input is still judged for what stays (never a 5xx, never accepted).
        if (!problem || ctx.decisions.off(problem.rule)) continue;
        bad.set(problem.rule, (bad.get(problem.rule) ?? 0) + 1);
        if (bad.get(problem.rule)! > 1) continue;
        ctx.rule(problem.rule).fail(`${problem.message} — bad input ${index + 1} of ${inputs.length}: ${input.label}`, {
          expected: problem.expected,
          actual: { input: input.label, answer: problem.actual, curl: shortCurl(response) },
          pointer: problem.pointer,
        });
      }
      const seen = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(", ");
      ctx.note(`${inputs.length} bad inputs: ${seen}`);
      for (const [rule, n] of bad) if (n > 1) ctx.note(`${rule}: ${n} bad inputs answered so (the first is listed)`);
    },
  };
}

export const ROBUSTNESS_CASES: Case[] = (Object.keys(operationTable) as OperationId[]).sort().map(robustnessCase);
