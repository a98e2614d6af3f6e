/**
 * The suite's HTTP client. Every request goes through `request`, which records the exchange (the
 * reporters print the last one as a curl line) and, when it names the operation, validates the
 * response against the contract with the generated validators — status, headers and body — so
 * every case also checks the shape of whatever it touches. Redirects are never followed: a
 * redirect is an answer to check.
 */
import { validateResponse } from "../../generated/validators/index.js";
import { operationTable } from "../../generated/client/operations.ts";
import { CaseFailure } from "./failure.ts";
import { valueAt } from "./json-pointer.ts";
import { ruleOfViolation, type Violation } from "../rules/contract-rules.ts";
import type { IssuedTokens } from "./issued-tokens.ts";
import { redactedCurlParts } from "./curl-redact.ts";
import { DEFAULT_MAX_RESPONSE_BYTES, ResponseTooLarge, readBoundedText, sizeText } from "./bounded-body.ts";
import { excerpt } from "../run/json-safe.ts";
import { refuseNotImplemented } from "./not-implemented.ts";
import { homeOrigins, keepSecretsHome } from "./credentials-home.ts";

export type OperationId = keyof typeof operationTable;

export interface RequestOptions {
  /** The contract operation; fills method, host and path from `params`, and turns on validation. */
  operationId?: OperationId;
  method?: string;
  /** A path (with query) on the host, or an absolute URL; with operationId, built from params. */
  path?: string;
  params?: Record<string, string | number>;
  query?: Record<string, string | number | undefined>;
  host?: "api" | "auth";
  headers?: Record<string, string>;
  /** `Authorization: token …` */
  token?: string;
  basic?: { username: string; password: string };
  /** A JSON body (object) or raw text. */
  json?: unknown;
  form?: Record<string, string>;
  body?: string;
  /** Validate the response against the contract (default: true when operationId is given). */
  validate?: boolean;
}

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  /** The body as read, cut to an excerpt past EXCHANGE_TEXT_LIMIT characters (the case has it whole). */
  responseText: string;
  /** The body's length in characters, when responseText is an excerpt of it. */
  responseLength?: number;
}

/** How much of a body an Exchange keeps: what a report may show of it, never megabytes. */
export const EXCHANGE_TEXT_LIMIT = 64 * 1024;

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON; a CaseFailure when it is not JSON. */
  json<T = any>(): T;
  exchange: Exchange;
}

/** How long one request may take, answer and body, unless the run says otherwise. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** A contract problem in a response, with the rule it breaks (conformance/rules/contract-rules.ts). */
export interface RuledViolation extends Violation {
  rule: string;
  /** The value at the problem's pointer. */
  actual?: unknown;
}

/**
 * Decides what the contract problems of one response mean for the case that read it: the run's
 * judge fails the case for its own rules, drops switched-off decisions and records the rest
 * against their rules. Without one, the first problem fails the case.
 */
export type ContractJudge = (problems: RuledViolation[], exchange: Exchange) => void;

export interface HttpClientLimits {
  /** Per request, from sending it to the end of the body; default 10 s. */
  timeoutMs?: number;
  /** Aborted when the case is over (its time limit passed): nothing it started keeps running. */
  signal?: AbortSignal;
  /** What contract problems in a response do; default: the first fails the case. */
  judge?: ContractJudge;
  /** The most one answer's body may weigh, decoded (so it bounds decompression too); default 8 MB. */
  maxResponseBytes?: number;
  /** The profile's `notImplemented`: a request to one of them skips the case instead (not-implemented.ts). */
  notImplemented?: ReadonlySet<string>;
  /**
   * The profile's secrets (credentials-home.ts profileSecrets): a request to another origin that
   * carries one in its URL or body is refused before it is sent, as headers are.
   */
  secrets?: readonly string[];
  /** The identity providers the profile names (`authorize.allowOrigins`): the login form's post may go there. */
  allowOrigins?: readonly string[];
  /** The run's issued tokens: every answer that issues one adds it, so no report carries it (issued-tokens.ts). */
  issued?: IssuedTokens;
}

/** A request as sent, whether or not an answer came: enough for a curl line. */
export type SentRequest = Pick<Exchange, "method" | "url" | "requestHeaders" | "requestBody">;

export class HttpClient {
  readonly exchanges: Exchange[] = [];
  /** The last request sent, answered or not (a request that got no answer has no Exchange). */
  lastSent: SentRequest | undefined;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;

  constructor(
    readonly baseUrl: string,
    readonly authUrl: string,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly limits: HttpClientLimits = {},
  ) {
    this.timeoutMs = limits.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.maxResponseBytes = limits.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  get last(): Exchange | undefined {
    return this.exchanges.at(-1);
  }

  /** Aborted when the case is over; what a case starts besides requests (trigger commands) stops with it. */
  get caseSignal(): AbortSignal | undefined {
    return this.limits.signal;
  }

  /**
   * A signal for one request: the request time-out, and the end of the case. The time-out is a
   * timer of the client's own, which holds the controller: `AbortSignal.timeout` (alone or inside
   * `AbortSignal.any`) is only weakly held on Node 20, so a garbage collection mid-request lost it
   * and a trickling answer ran on to the case's limit. `done` clears the timer and the listener.
   */
  requestSignal(): { signal: AbortSignal; done: () => void } {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${seconds(this.timeoutMs)}`, "TimeoutError")), this.timeoutMs);
    // A signal whose done() never comes (a caller that lost it) must not keep the process alive.
    timer.unref();
    const caseSignal = this.limits.signal;
    const onCaseEnd = () => controller.abort(caseSignal!.reason);
    if (caseSignal?.aborted) onCaseEnd();
    else caseSignal?.addEventListener("abort", onCaseEnd, { once: true });
    return {
      signal: controller.signal,
      done: () => {
        clearTimeout(timer);
        caseSignal?.removeEventListener("abort", onCaseEnd);
      },
    };
  }

  /**
   * Sends one request with `sendRequest` (fetch, undici's request, …) under the request's signal and
   * reads the body `bodyOf` gives within the time-out and the byte limit: a CaseFailure when no
   * (complete) answer came or the body is over the limit. Every read of a target's answer the
   * suite makes goes through here or through `request`, which uses it.
   */
  async send<R>(method: string, url: string, sendRequest: (signal: AbortSignal) => Promise<R>, bodyOf: (res: R) => AsyncIterable<Uint8Array> | null | undefined): Promise<{ res: R; text: string }> {
    const { signal, done } = this.requestSignal();
    try {
      const res = await sendRequest(signal);
      const text = await readBoundedText(bodyOf(res), this.maxResponseBytes);
      return { res, text };
    } catch (error) {
      if (error instanceof ResponseTooLarge) throw this.tooLarge(method, url, error);
      throw this.noAnswer(method, url, error);
    } finally {
      done();
    }
  }

  private tooLarge(method: string, url: string, error: ResponseTooLarge): CaseFailure {
    return new CaseFailure(`the answer to ${method} ${url} is larger than the suite reads (${sizeText(error.limit)}, --max-response-bytes): it was not read to the end`, {
      expected: `an answer of at most ${sizeText(error.limit)} (decoded)`,
      actual: `more than ${error.limit} bytes, beginning ${JSON.stringify(error.head)}`,
    });
  }

  /** The CaseFailure for a request that got no (complete) answer: a time-out says so plainly. */
  noAnswer(method: string, url: string, error: unknown): CaseFailure {
    const e = error as Error & { cause?: unknown };
    if (e?.name === "TimeoutError") {
      return new CaseFailure(`no answer within ${seconds(this.timeoutMs)}: ${method} ${url}`, { expected: `an answer within ${seconds(this.timeoutMs)}`, actual: "no answer (the request was abandoned)" });
    }
    return new CaseFailure(`request failed: ${method} ${url}: ${e?.message ?? String(error)}`, { expected: "an HTTP response", actual: String(e?.cause ?? error) });
  }

  url(options: RequestOptions): string {
    const op = options.operationId ? operationTable[options.operationId] : undefined;
    const host = options.host ?? (op?.host as "api" | "auth" | undefined) ?? "api";
    let path = options.path ?? op?.path ?? "/";
    if (!options.path && op) {
      path = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
        const value = options.params?.[name];
        if (value === undefined) throw new Error(`${options.operationId}: path parameter ${name} missing`);
        return encodeURIComponent(String(value));
      });
    }
    const url = new URL(/^https?:\/\//.test(path) ? path : (host === "auth" ? this.authUrl : this.baseUrl) + path);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  async request(options: RequestOptions): Promise<HttpResponse> {
    const op = options.operationId ? operationTable[options.operationId] : undefined;
    const method = (options.method ?? op?.method ?? "GET").toUpperCase();
    const url = this.url(options);
    refuseNotImplemented(this.limits.notImplemented, { operationId: options.operationId, method, url }, { api: this.baseUrl, auth: this.authUrl });
    const headers: Record<string, string> = { accept: "application/json", ...lower(options.headers ?? {}) };
    if (options.token) headers.authorization = `token ${options.token}`;
    if (options.basic) headers.authorization = `Basic ${Buffer.from(`${options.basic.username}:${options.basic.password}`).toString("base64")}`;
    let body: string | undefined = options.body;
    if (options.json !== undefined) {
      body = typeof options.json === "string" ? options.json : JSON.stringify(options.json);
      headers["content-type"] ??= "application/json";
    } else if (options.form) {
      body = new URLSearchParams(options.form).toString();
      headers["content-type"] ??= "application/x-www-form-urlencoded";
    }
    this.lastSent = { method, url, requestHeaders: headers, requestBody: body };
    this.keepCredentialsHome(url, headers);
    if (this.limits.secrets?.length) keepSecretsHome({ url, body }, homeOrigins([this.baseUrl, this.authUrl], this.limits.allowOrigins), this.limits.secrets);
    // fetch undoes the Content-Encoding as the body streams: the limit counts decoded bytes.
    const { res, text } = await this.send(method, url, (signal) => this.fetchImpl(url, { method, headers, body, redirect: "manual", signal }), (r) => r.body);
    return this.record({ method, url, requestHeaders: headers, requestBody: body, status: res.status, responseText: text }, res.headers, op && options.validate !== false ? options.operationId : undefined);
  }

  /** Credentials go only to the target's own origins: a URL the target handed out may point anywhere. */
  private keepCredentialsHome(url: string, headers: Record<string, string>): void {
    const home = [new URL(this.baseUrl).origin, new URL(this.authUrl).origin];
    const origin = new URL(url).origin;
    if (home.includes(origin)) return;
    const carried = ["authorization", "cookie", "x-service-otp"].filter((h) => headers[h] !== undefined);
    if (carried.length === 0) return;
    // Not the seed's: it says nothing of where a URL a target hands out points. The contract puts
    // them on the target's own origins (D-URL-ORIGINS); a target that declares otherwise gets the
    // case skipped here (runner.ts), never its credentials sent elsewhere.
    throw new CaseFailure(`the suite would send credentials (${carried.join(", ")}) to ${origin}, which is neither of the target's origins (${[...new Set(home)].join(", ")}): a URL the target gave points elsewhere`, {
      expected: `a URL on ${[...new Set(home)].join(" or ")}`,
      actual: url,
      rule: "D-URL-ORIGINS",
    });
  }

  /**
   * Records an exchange and wraps its answer as `request` does: also for a request made without
   * fetch (fetch always sends an Accept header), so its curl line and contract check are the same.
   */
  record(sent: Omit<Exchange, "responseHeaders">, headers: Headers, validateAs?: OperationId): HttpResponse {
    const { method, url, status, responseText: text } = sent;
    this.limits.issued?.fromAnswer(url, text);
    const responseHeaders: Record<string, string> = {};
    headers.forEach((v, k) => (responseHeaders[k] = v));
    const exchange: Exchange = { method, url, requestHeaders: sent.requestHeaders, requestBody: sent.requestBody, status, responseHeaders, responseText: text.length > EXCHANGE_TEXT_LIMIT ? text.slice(0, EXCHANGE_TEXT_LIMIT) : text, ...(text.length > EXCHANGE_TEXT_LIMIT ? { responseLength: text.length } : {}) };
    this.exchanges.push(exchange);
    this.lastSent = exchange;
    const response: HttpResponse = {
      status,
      headers,
      text,
      exchange,
      json<T>() {
        try {
          return JSON.parse(text) as T;
        } catch {
          throw new CaseFailure(`${method} ${new URL(url).pathname}: the body is not JSON`, { expected: "JSON", actual: text.slice(0, 200), pointer: "/body" });
        }
      },
    };
    if (validateAs) {
      const problems = contractProblems(validateAs, response);
      if (problems.length > 0) (this.limits.judge ?? failOnFirst)(problems, exchange);
    }
    return response;
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** The response against the contract: every problem, each with the rule it breaks. */
function contractProblems(operationId: OperationId, response: HttpResponse): RuledViolation[] {
  const mediaType = response.headers.get("content-type")?.split(";")[0]?.trim();
  const headers = Object.fromEntries(response.headers);
  let body: unknown;
  if (response.text.length > 0) {
    if (mediaType && /json$/.test(mediaType)) {
      try {
        body = JSON.parse(response.text);
      } catch {
        const v = { operationId, status: response.status, path: "/body", message: "the body is not valid JSON" };
        return [{ ...v, rule: ruleOfViolation(v), actual: response.text.slice(0, 200) }];
      }
    } else body = response.text;
  }
  const verdict = validateResponse(operationId as never, response.status, body, { headers, mediaType });
  if (verdict.valid) return [];
  return verdict.errors.map((e) => {
    const v: Violation = { operationId, status: response.status, path: e.path, message: e.message, body };
    // The value at the pointer may be the whole body: findings and failures keep an excerpt.
    return { ...v, rule: ruleOfViolation(v), actual: excerpt(valueAt({ status: response.status, headers, body }, e.path)) };
  });
}

/** The message of a contract problem, as a failure or a finding says it. */
export function describeProblem(p: RuledViolation): string {
  return `${p.operationId} ${p.status}: the response breaks the contract (${p.rule}): ${p.path || "/"} ${p.message}`;
}

/** Without a run's judge: the first problem fails the case, against its rule. */
const failOnFirst: ContractJudge = (problems) => {
  if (problems.length > 0) throw contractFailure(problems);
};

/** The failure for a case's own rule broken by a response (the first problem of that rule). */
export function contractFailure(problems: readonly RuledViolation[]): CaseFailure {
  const [first] = problems;
  const same = problems.filter((p) => p.rule === first!.rule);
  return new CaseFailure(`${first!.operationId} ${first!.status}: the response breaks the contract (${first!.rule}): ${same.slice(0, 3).map((e) => `${e.path || "/"} ${e.message}`).join("; ")}`, {
    pointer: first!.path,
    actual: first!.actual,
    rule: first!.rule,
  });
}

/** The request as a runnable curl line, with the profile's password and client secret as shell variables (curl-redact.ts). */
export function curlOf(e: SentRequest): string {
  return redactedCurlParts(e).join(" ");
}
