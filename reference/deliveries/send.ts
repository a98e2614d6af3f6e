/**
 * One HTTP attempt and what it came to (DESIGN.md): a POST with undici, redirects not followed
 * (a 3xx is a failure like any non-2xx), one time limit over the whole exchange (connect, send,
 * answer, and reading the first 64 KB of the answer kept for the log — nothing past it is read), TLS verification off only
 * for `insecure_ssl: "1"`. Failures are named the way the delivery log shows them: `Invalid HTTP
 * Response: 500`, `timed out`, `connection refused`, `connection reset`, ….
 */
import { request, type Dispatcher } from "undici";
import { DEFAULT_EGRESS, type EgressPolicy } from "../hooks/egress.ts";
import { deliveryAgent, EGRESS_REFUSED } from "./egress-agent.ts";
import type { DeliveryRequest } from "./request.ts";

export const RESPONSE_EXCERPT_BYTES = 64 * 1024;

export interface AttemptOutcome {
  deliveredAt: Date;
  /** Milliseconds from sending to the end of the answer (or the failure). */
  durationMs: number;
  /** 0 without an answer. */
  statusCode: number;
  /** `OK` or why the attempt failed. */
  status: string;
  /** A longer description for the hook's last_response. */
  message: string;
  responseHeaders: Record<string, string>;
  responseBody: string | null;
  /** False when trying again cannot help (a payload over the size limit). */
  retryable: boolean;
}

function errorCode(error: unknown): string {
  const e = error as { code?: unknown; cause?: { code?: unknown } };
  return String(e?.cause?.code ?? e?.code ?? "");
}

/** The log's short name for a failure without an answer. */
export function failureStatus(error: unknown, timedOut: boolean): string {
  if (timedOut) return "timed out";
  const code = errorCode(error);
  if (code === EGRESS_REFUSED) return "refused by egress policy";
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET") return "connection reset";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  if (code === "UND_ERR_CONNECT_TIMEOUT" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") return "timed out";
  if (/CERT|TLS|SSL|SELF_SIGNED/.test(code)) return "TLS error";
  if (code === "UND_ERR_INVALID_ARG" || code === "ERR_INVALID_URL") return "invalid URL";
  return "connection failed";
}

/** Response bytes as log text: valid UTF-8 (replacement characters) without NULs, which text columns refuse. */
function excerptText(chunks: Buffer[]): string | null {
  const bytes = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES);
  return bytes.length === 0 ? null : bytes.toString("utf8").replaceAll("\u0000", "\uFFFD");
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

export function tooLarge(bytes: number, limit: number): AttemptOutcome {
  return {
    deliveredAt: new Date(),
    durationMs: 0,
    statusCode: 0,
    status: "payload too large",
    message: `The payload is ${bytes} bytes; deliveries over ${limit} bytes are not sent`,
    responseHeaders: {},
    responseBody: null,
    retryable: false,
  };
}

/** Thrown when `cancel` (the server shutting down) cut the attempt: it did not happen, as far as the log goes. */
export class AttemptCancelled extends Error {}

/** How an attempt leaves: the engine's pools under the hook egress policy, or a caller's own pool. */
export interface AttemptRoute {
  /** Default `local`. */
  egress?: EgressPolicy;
  /**
   * Another connection pool than the engine's (a one-shot command closes its own and exits at
   * once). A command that sends where its user says (`webhooks send`, the receiver suite) is not
   * under the server's egress policy.
   */
  dispatcher?: Dispatcher;
}

/**
 * One attempt under the hook egress policy (hooks/egress.ts). In `public` mode the answer's body
 * is kept only when the attempt succeeded: a failed answer may come from an internal service.
 */
export async function sendAttempt(req: DeliveryRequest, timeoutMs: number, cancel?: AbortSignal, route: AttemptRoute = {}): Promise<AttemptOutcome> {
  const egress = route.egress ?? DEFAULT_EGRESS;
  const deliveredAt = new Date();
  const started = performance.now();
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    // After a blocked event loop, timers run before pending I/O: let an answer that is already
    // in be read before calling the attempt timed out.
    setImmediate(() => {
      timedOut = true;
      abort.abort();
    });
  }, timeoutMs);
  const onCancel = () => abort.abort();
  if (cancel?.aborted) throw new AttemptCancelled("cancelled before sending");
  cancel?.addEventListener("abort", onCancel, { once: true });
  try {
    const res = await request(req.url, {
      method: "POST",
      headers: req.headers,
      body: req.body,
      dispatcher: route.dispatcher ?? deliveryAgent(egress, req.insecure),
      signal: abort.signal,
    });
    const chunks: Buffer[] = [];
    let kept = 0;
    // Read no more than the log keeps: a receiver answering 200 MB must not hold a slot (and
    // the bandwidth) until the time-out. Leaving the loop destroys the body and its socket.
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      kept += chunk.length;
      if (kept >= RESPONSE_EXCERPT_BYTES) break;
    }
    if (kept >= RESPONSE_EXCERPT_BYTES && !res.body.destroyed) res.body.destroy();
    const ok = res.statusCode >= 200 && res.statusCode <= 299;
    const status = ok ? "OK" : `Invalid HTTP Response: ${res.statusCode}`;
    return {
      deliveredAt,
      durationMs: performance.now() - started,
      statusCode: res.statusCode,
      status,
      message: ok ? "OK" : status,
      responseHeaders: flatHeaders(res.headers),
      responseBody: ok || egress === "local" ? excerptText(chunks) : null,
      retryable: true,
    };
  } catch (error) {
    if (cancel?.aborted && !timedOut) throw new AttemptCancelled("cancelled during the attempt");
    const status = failureStatus(error, timedOut);
    return {
      deliveredAt,
      durationMs: performance.now() - started,
      statusCode: 0,
      status,
      message: timedOut ? `No complete answer within ${timeoutMs / 1000} s` : `${status}: ${(error as Error)?.message ?? String(error)}`,
      responseHeaders: {},
      responseBody: null,
      retryable: true,
    };
  } finally {
    clearTimeout(timer);
    cancel?.removeEventListener("abort", onCancel);
  }
}
