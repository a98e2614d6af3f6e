/**
 * One fuzz request, sent over real HTTP, and the check of its answer from the outside: the status
 * is declared for the operation, the body and declared headers match the contract (the generated
 * `validateResponse`, as the conformance suite checks), no contract header (`X-*`, `Link`, `ETag`,
 * `Location`) is sent where the response does not declare it, and nothing is a 5xx.
 */
import { Readable } from "node:stream";
import { request } from "undici";
import { validateResponse } from "../../../generated/validators/index.js";
import type { FuzzOperation } from "./operations.ts";

export interface FuzzBodySent {
  /** The `Content-Type` header, exactly as sent; none when undefined. */
  type?: string;
  data: string | Buffer;
  /** Sent chunked (no `Content-Length`), so only the bytes that arrive tell the size. */
  chunked?: boolean;
}

export interface FuzzRequest {
  op: FuzzOperation;
  /** The bad-input class (`query page=abc`, `body text/plain`…), for the report. */
  kind: string;
  /** The raw (already percent-encoded) value of each path parameter. */
  path: Record<string, string>;
  query?: string;
  headers: Record<string, string>;
  body?: FuzzBodySent;
}

export interface Target {
  api: string;
  auth: string;
}

export interface Answer {
  status: number;
  /** What is wrong with the answer; undefined when it is one the contract declares. */
  problem?: string;
  request: string;
}

/** Contract headers: a response may carry one only where the contract declares it. */
const CONTRACT_HEADER = /^(x-(?!frame-options$|content-type-options$).*|link|etag|location)$/;

export function urlOf(target: Target, r: FuzzRequest): string {
  const path = r.op.template.replace(/\{([^}]+)\}/g, (_, name: string) => r.path[name]!);
  return `${r.op.web ? target.auth : target.api}${path}${r.query ? `?${r.query}` : ""}`;
}

/** The body as a stream of 256 KiB pieces: undici sends a stream chunked, without `Content-Length`. */
function chunks(data: string | Buffer): Readable {
  const bytes = Buffer.from(data);
  return Readable.from((function* () {
    for (let i = 0; i < bytes.length; i += 256 * 1024) yield bytes.subarray(i, i + 256 * 1024);
  })());
}

export async function exchange(target: Target, r: FuzzRequest): Promise<Answer> {
  const { op } = r;
  const url = urlOf(target, r);
  const label = `${op.id} [${r.kind}] ${op.method} ${url.replace(/(.)\1{49,}/g, "$1…").slice(0, 300)}`;
  const headers = { ...r.headers };
  if (r.body?.type !== undefined) headers["content-type"] = r.body.type;
  const body = r.body === undefined ? undefined : r.body.chunked ? chunks(r.body.data) : r.body.data;
  let res;
  try {
    res = await request(url, { method: op.method as "GET", headers, body });
  } catch (error) {
    return { status: 0, request: label, problem: `no answer: ${(error as Error).message}` };
  }
  const text = await res.body.text();
  const status = res.statusCode;
  if (status >= 500) return { status, request: label, problem: text.slice(0, 200) };
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  const mediaType = flat["content-type"]?.split(";")[0]?.trim();
  let parsed: unknown = text.length ? text : undefined;
  if (text.length && mediaType && /json$/.test(mediaType)) {
    try {
      parsed = JSON.parse(text);
    } catch {
      return { status, request: label, problem: "body is not JSON" };
    }
  }
  const verdict = validateResponse(op.id as never, status, parsed, { headers: flat, mediaType });
  if (!verdict.valid) return { status, request: label, problem: verdict.errors.slice(0, 3).map((x) => `${x.path} ${x.message}`).join("; ") };
  const declared = op.responseHeaders.get(String(status)) ?? op.responseHeaders.get(`${String(status)[0]}XX`) ?? new Set<string>();
  const undeclared = Object.keys(flat).filter((h) => CONTRACT_HEADER.test(h) && !declared.has(h));
  if (undeclared.length) return { status, request: label, problem: `undeclared headers ${undeclared.join(", ")}` };
  return { status, request: label };
}

/** Sends `requests` a few at a time, in order (so rate-limit counts stay deterministic enough). */
export async function exchangeAll(target: Target, requests: readonly FuzzRequest[], concurrency = 8): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let k = 0; k < requests.length; k += concurrency) {
    answers.push(...(await Promise.all(requests.slice(k, k + concurrency).map((r) => exchange(target, r)))));
  }
  return answers;
}
