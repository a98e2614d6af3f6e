/**
 * What a receiver case works with: the receiver's URL and secret, and `deliver`, which sends one
 * delivery exactly as the service does (conformance/consumers/send-delivery.ts) — optionally with
 * the signature headers altered — and records it on the case's HttpClient, so a failure carries a
 * curl line that replays the delivery. Also the checks every receiver case makes: 2xx within the
 * 10 s the service waits, or a refusal (4xx, never 2xx).
 */
import type { Agent } from "undici";
import type { CaseMeta } from "../../core/types.ts";
import { CaseFailure, SkipCase } from "../../core/failure.ts";
import { HttpClient } from "../../core/http.ts";
import { DELIVERY_TIMEOUT_MS, isSuccess, prepareDelivery, sendPrepared, type AttemptOutcome, type DeliveryInput } from "../send-delivery.ts";
import type { DeliveryContentType } from "../../../runtime/client/webhooks/delivery.ts";

export interface Delivered extends AttemptOutcome {
  event: string;
  guid: string;
  contentType: string;
}

export interface ReceiverContext {
  url: string;
  secret: string;
  /** Sends one delivery signed with the receiver's secret (unless `secret` says otherwise). */
  deliver(input: Omit<DeliveryInput, "url" | "secret" | "signal" | "pool"> & { secret?: string | false }): Promise<Delivered>;
  note(text: string): void;
  skip(reason: string): never;
  /** The content types the receiver says it takes. */
  contentTypes: readonly DeliveryContentType[];
}

export interface ReceiverCase extends CaseMeta {
  run(ctx: ReceiverContext): Promise<void>;
}

export interface ReceiverRun {
  url: string;
  secret: string;
  pool: Agent;
  /** The content types the receiver takes (`--content-types`; default json, the seed's). */
  contentTypes: readonly DeliveryContentType[];
}

export function receiverContext(run: ReceiverRun, http: HttpClient, notes: string[], signal: AbortSignal): ReceiverContext {
  return {
    url: run.url,
    secret: run.secret,
    contentTypes: run.contentTypes,
    async deliver(input) {
      const secret = input.secret === false ? undefined : (input.secret ?? run.secret);
      const prepared = prepareDelivery({ ...input, url: run.url, secret });
      const requestHeaders = Object.fromEntries(Object.entries(prepared.headers).map(([k, v]) => [k.toLowerCase(), v]));
      http.lastSent = { method: "POST", url: run.url, requestHeaders, requestBody: prepared.body };
      const outcome = await sendPrepared(prepared, { timeoutMs: DELIVERY_TIMEOUT_MS, signal, pool: run.pool });
      if (outcome.statusCode > 0) {
        http.record({ method: "POST", url: run.url, requestHeaders, requestBody: prepared.body, status: outcome.statusCode, responseText: outcome.responseBody ?? "" }, new Headers(outcome.responseHeaders));
      }
      return { ...outcome, event: input.event, guid: prepared.headers["X-Service-Delivery"]!, contentType: prepared.contentType };
    },
    note: (text) => void notes.push(text),
    skip(reason): never {
      throw new SkipCase(reason);
    },
  };
}

function answer(d: Delivered): string {
  if (d.statusCode === 0) return `no answer (${d.message})`;
  const body = (d.responseBody ?? "").replace(/\s+/g, " ").trim();
  return `${d.statusCode}${body ? ` ${body.slice(0, 160)}` : ""}`;
}

/** 2xx within the service's 10 s (the send gives up at 10 s, so a slower answer is none). */
export function expectAccepted(d: Delivered, what: string): void {
  if (isSuccess(d)) return;
  throw new CaseFailure(`the receiver did not accept ${what}: ${answer(d)}`, { expected: `2xx within ${DELIVERY_TIMEOUT_MS / 1000} s`, actual: answer(d), pointer: "/status" });
}

/** A refusal: 4xx. A 2xx means the forgery was taken for a delivery; a 5xx is a crash, not a refusal. */
export function expectRefused(d: Delivered, what: string): void {
  if (d.statusCode >= 400 && d.statusCode <= 499) return;
  const why = isSuccess(d) ? "accepted" : d.statusCode === 0 ? "did not answer" : "did not refuse (a refusal is a 4xx)";
  throw new CaseFailure(`the receiver ${why} ${what}: ${answer(d)}`, { expected: "4xx (refused)", actual: answer(d), pointer: "/status" });
}
