/**
 * Receiving webhook deliveries: verify the signatures over the raw bytes, parse the body (JSON,
 * or the form field `payload` for hooks with `content_type: form`), validate it against the
 * contract's payload schema for its `X-Service-Event`, and dispatch to typed handlers. Bad input
 * never throws: `receive` answers with a status and a body in the service's error shape, which
 * the node:http adapter writes as is.
 */
import { verifySignatures, type SignatureAlgorithm } from "./signature.ts";

const DOCS = "https://developer.service.example/v3";

export interface WebhookDelivery {
  /** `X-Service-Event`. */
  event: string;
  /** `X-Service-Delivery` (a UUID; the same on retries of one delivery). */
  id: string | undefined;
  contentType: "json" | "form";
  /** Signature algorithms that were verified (empty when no secret is configured). */
  verified: SignatureAlgorithm[];
  /** Request headers, names lowercased. */
  headers: Readonly<Record<string, string>>;
}

export type WebhookHandler<P> = (payload: P, delivery: WebhookDelivery) => void | Promise<void>;

export interface WebhookInput {
  /** The body exactly as received. A string is taken as its UTF-8 bytes. */
  body: Uint8Array | string;
  headers: Headers | Readonly<Record<string, string | readonly string[] | undefined>>;
}

export interface WebhookReceiverOptions {
  /** The hook's secret, or several during a rotation. Without one, deliveries are not authenticated. */
  secret?: string | readonly string[];
  /** Validate payloads against the contract before dispatching. Default true. */
  validate?: boolean;
  /**
   * Refuse deliveries that carry no `X-Hub-Signature-256` (SHA-1 only). Default true: the
   * service always sends both, so a SHA-1-only delivery is not one of its (spec/DECISIONS.md).
   */
  requireSha256?: boolean;
}

export interface WebhookOutcome {
  /** 200 handled, 202 acknowledged without a handler (or an unknown event or action), 4xx refused, 500 a handler threw. */
  status: number;
  body: { message: string; documentation_url?: string; errors?: { resource: string; field: string; code: string; message?: string }[] };
  event?: string;
  delivery?: string;
}

/** What the generated module binds: the contract's event names and its payload validator. */
export interface WebhookContract {
  events: readonly string[];
  validate: (event: string, payload: unknown) => { valid: true; value: unknown } | { valid: false; errors: { path: string; message: string }[] };
}

function lowerCaseHeaders(headers: WebhookInput["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: [string, unknown][] = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return out;
}

/** The payload breaks its schema only by an `action` string outside the known ones. */
function unknownActionOnly(errors: readonly { path: string }[], payload: unknown): boolean {
  const action = (payload as { action?: unknown } | null)?.action;
  return typeof action === "string" && errors.length > 0 && errors.every((e) => e.path === "/action");
}

const fail = (status: number, message: string, extra: Partial<WebhookOutcome> = {}): WebhookOutcome => ({ status, body: { message, documentation_url: DOCS }, ...extra });

export class WebhookReceiver<Payloads extends object> {
  readonly #contract: WebhookContract;
  readonly #options: WebhookReceiverOptions;
  readonly #secrets: readonly string[];
  readonly #handlers = new Map<string, WebhookHandler<unknown>[]>();
  readonly #any: ((event: string, payload: unknown, delivery: WebhookDelivery) => void | Promise<void>)[] = [];

  constructor(contract: WebhookContract, options: WebhookReceiverOptions = {}) {
    this.#contract = contract;
    this.#options = options;
    const secrets = options.secret === undefined ? [] : typeof options.secret === "string" ? [options.secret] : [...options.secret];
    if (secrets.some((s) => typeof s !== "string" || s === "")) throw new TypeError("WebhookReceiver: secrets must be non-empty strings");
    this.#secrets = secrets;
  }

  /** Handle one event type; the payload is typed (and validated) for it. */
  on<E extends keyof Payloads & string>(event: E, handler: WebhookHandler<Payloads[E]>): this {
    if (!this.#contract.events.includes(event)) throw new TypeError(`WebhookReceiver: unknown event ${JSON.stringify(event)}`);
    this.#handlers.set(event, [...(this.#handlers.get(event) ?? []), handler as WebhookHandler<unknown>]);
    return this;
  }

  /** Called for every valid delivery of a known event, after the per-event handlers. */
  onAny(handler: <E extends keyof Payloads & string>(event: E, payload: Payloads[E], delivery: WebhookDelivery) => void | Promise<void>): this {
    this.#any.push(handler as (event: string, payload: unknown, delivery: WebhookDelivery) => void);
    return this;
  }

  async receive(input: WebhookInput): Promise<WebhookOutcome> {
    const headers = lowerCaseHeaders(input.headers);
    const bytes = typeof input.body === "string" ? Buffer.from(input.body, "utf8") : input.body;
    const event = headers["x-service-event"]?.trim();
    const id = headers["x-service-delivery"];
    if (!event) return fail(400, "Missing X-Service-Event header", { delivery: id });

    const check = verifySignatures({
      body: bytes,
      signatures: { sha1: headers["x-hub-signature"], sha256: headers["x-hub-signature-256"] },
      secrets: this.#secrets,
      requireSha256: this.#options.requireSha256 ?? true,
    });
    if (!check.ok) return fail(401, check.message, { event, delivery: id });

    const parsed = this.#parse(headers["content-type"], bytes);
    if ("status" in parsed) return { ...parsed, event, delivery: id };
    if (!this.#contract.events.includes(event)) return { status: 202, body: { message: `Event ${event} is not handled` }, event, delivery: id };

    let payload = parsed.payload;
    if (this.#options.validate !== false) {
      const result = this.#contract.validate(event, payload);
      if (!result.valid) {
        // An action the contract does not know yet (the service adds actions): acknowledged
        // like an unknown event, so the service does not retry it (spec/DECISIONS.md).
        if (unknownActionOnly(result.errors, payload)) return { status: 202, body: { message: `Action ${String((payload as { action: string }).action)} of ${event} is not handled` }, event, delivery: id };
        const errors = result.errors.map((e) => ({ resource: "WebhookPayload", field: e.path, code: "invalid", message: e.message }));
        return { status: 422, body: { message: "Validation Failed", errors, documentation_url: DOCS }, event, delivery: id };
      }
      payload = result.value;
    }

    const delivery: WebhookDelivery = { event, id, contentType: parsed.contentType, verified: check.verified, headers };
    const handlers = this.#handlers.get(event) ?? [];
    if (handlers.length === 0 && this.#any.length === 0) return { status: 202, body: { message: `No handler for ${event}` }, event, delivery: id };
    try {
      for (const handler of handlers) await handler(payload, delivery);
      for (const handler of this.#any) await handler(event, payload, delivery);
    } catch {
      // A 5xx makes the service retry the delivery; the handler's error stays on this side.
      return fail(500, "Webhook handler failed", { event, delivery: id });
    }
    return { status: 200, body: { message: "OK" }, event, delivery: id };
  }

  #parse(contentType: string | undefined, bytes: Uint8Array): { payload: unknown; contentType: "json" | "form" } | WebhookOutcome {
    const media = String(contentType ?? "").split(";")[0]!.trim().toLowerCase();
    const text = Buffer.from(bytes).toString("utf8");
    let json: string;
    let kind: "json" | "form";
    if (media === "application/json") {
      json = text;
      kind = "json";
    } else if (media === "application/x-www-form-urlencoded") {
      const field = new URLSearchParams(text).get("payload");
      if (field === null) return fail(400, "Missing form field payload");
      json = field;
      kind = "form";
    } else {
      return fail(415, `Unsupported Content-Type ${JSON.stringify(contentType ?? "")}: expected application/json or application/x-www-form-urlencoded`);
    }
    try {
      return { payload: JSON.parse(json) as unknown, contentType: kind };
    } catch {
      return fail(400, "Problems parsing JSON");
    }
  }
}
