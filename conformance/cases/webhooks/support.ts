/**
 * Reading what a hook's path on the built-in receiver got: waiting for a delivery (with a failure
 * that lists what did arrive instead), a mark before an action so only later deliveries count,
 * the payload out of a JSON or form body, what kind of payload it is (a ping, a push) judged from
 * its fields rather than from the headers under test, the signatures recomputed over the raw
 * bytes received, and the payload against its webhook schema with the generated validators.
 * Waits are bounded by profile.deliveryTimeoutMs; on loopback a delivery takes milliseconds, so
 * only a missing one costs the whole bound.
 */
import { createHmac } from "node:crypto";
import type { Case, CaseDraft, CaseContext, Need } from "../../core/types.ts";
import type { ReceivedDelivery } from "../../core/receiver.ts";
import { check, CaseFailure, type Checks } from "../../core/failure.ts";
import { validateWebhook, webhookEvents } from "../../../generated/validators/index.js";
import { hookRequest, is2xx, placeName, receiverOf, type Installed } from "../hooks/support.ts";

export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;

/**
 * The longest a case keeps listening for a delivery that must NOT come, once a later one has
 * arrived (or, with nothing to wait for, once the action is done): what it listened for always.
 */
export const QUIET_MS = 1_500;
/** The shortest such listen, however fast the target delivers. */
export const QUIET_FLOOR_MS = 300;
/** The listen as a multiple of the slowest delivery this run has timed on the target. */
export const QUIET_FACTOR = 4;

/**
 * The slowest delivery timed so far on each receiver (from the action that caused it to its
 * arrival): how long a delivery that was coming would take on this target.
 */
const slowest = new WeakMap<object, number>();

/** Records how long a delivery took to arrive after the action that caused it. */
export function noteDeliveryTime(ctx: CaseContext, ms: number): void {
  const receiver = receiverOf(ctx);
  slowest.set(receiver, Math.max(slowest.get(receiver) ?? 0, ms));
}

/**
 * How long to listen for a delivery that must not come: QUIET_FACTOR times the slowest delivery
 * timed on this target (`ownMs`: one the case just timed), at least QUIET_FLOOR_MS and at most
 * QUIET_MS — QUIET_MS itself before any delivery has been timed. A target that delivers in tens
 * of milliseconds is not listened to for seconds; a slow one gets the full time, as before.
 * Only the waiting changes, never what is checked once it is over.
 */
export function quietMs(ctx: CaseContext, ownMs?: number): number {
  if (ownMs !== undefined) noteDeliveryTime(ctx, ownMs);
  const seen = slowest.get(receiverOf(ctx));
  if (seen === undefined) return QUIET_MS;
  return Math.min(QUIET_MS, Math.max(QUIET_FLOOR_MS, Math.ceil(QUIET_FACTOR * seen)));
}

/**
 * Sleeps between two reads of a log that is expected to change soon (an attempt is listed once it
 * is complete, a few milliseconds after the receiver got it): 25 ms first, doubling up to
 * `maxMs`, so a fast target is read again at once and a slow one is not read more often than before.
 */
export function backoff(maxMs = 200): () => Promise<void> {
  let next = 25;
  return () => {
    const ms = Math.min(next, maxMs);
    next *= 2;
    return sleep(ms);
  };
}

export const JSON_TYPE = "application/json";
export const FORM_TYPE = "application/x-www-form-urlencoded";

export function deliveryTimeout(ctx: CaseContext): number {
  return ctx.profile.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The first delivery anywhere on the receiver matching `match` (already in or arriving), or a rejection after timeoutMs. */
export function receivedAt(ctx: CaseContext, match: (d: ReceivedDelivery) => boolean, timeoutMs: number): Promise<ReceivedDelivery> {
  return receiverOf(ctx).waitFor(match, timeoutMs);
}

/** Every delivery received at `path`, oldest first. */
export function deliveriesAt(ctx: CaseContext, path: string): ReceivedDelivery[] {
  return receiverOf(ctx).received().filter((d) => d.path === path);
}

export function eventOf(d: ReceivedDelivery): string | undefined {
  return d.headers["x-service-event"];
}

/** One line per delivery, for failure messages: what arrived instead. */
export function summarize(d: ReceivedDelivery): string {
  const kind = kindOf(d);
  return `X-Service-Event: ${eventOf(d) ?? "(none)"}, X-Service-Delivery: ${d.headers["x-service-delivery"] ?? "(none)"}, payload looks like: ${kind ?? "?"}, ${d.raw.length} bytes`;
}

/** A point in a path's deliveries: `next` waits only for ones that arrive after it. */
export interface Mark {
  next(what: string, match?: (d: ReceivedDelivery) => boolean, timeoutMs?: number): Promise<ReceivedDelivery>;
  since(): ReceivedDelivery[];
}

export function mark(ctx: CaseContext, path: string): Mark {
  return markFrom(ctx, path, new Set(deliveriesAt(ctx, path)));
}

/** Waits for a delivery at `path`, counting every one since the hook was created (its ping, say). */
export function waitAt(ctx: CaseContext, path: string, what: string, match?: (d: ReceivedDelivery) => boolean, timeoutMs?: number): Promise<ReceivedDelivery> {
  return markFrom(ctx, path, new Set()).next(what, match, timeoutMs);
}

function markFrom(ctx: CaseContext, path: string, before: ReadonlySet<ReceivedDelivery>): Mark {
  const receiver = receiverOf(ctx);
  const since = () => deliveriesAt(ctx, path).filter((d) => !before.has(d));
  return {
    since,
    async next(what, match = () => true, timeoutMs = deliveryTimeout(ctx)) {
      try {
        return await receiver.waitFor((d) => d.path === path && !before.has(d) && match(d), timeoutMs);
      } catch (error) {
        if (!(error instanceof CaseFailure)) throw error;
        const arrived = since().map(summarize);
        throw new CaseFailure(`${what}: nothing matching arrived at the hook's URL within ${timeoutMs} ms`, {
          expected: what,
          actual: arrived.length > 0 ? arrived : `no delivery at ${path}`,
        });
      }
    },
  };
}

/** The payload of a delivery: the JSON body, or the JSON in the `payload` field of a form body. */
export function payloadOf(d: ReceivedDelivery): Record<string, unknown> {
  const text = d.raw.toString("utf8");
  const type = mediaType(d.headers["content-type"]) ?? "";
  let json: string | null = text;
  if (type === FORM_TYPE || (type !== JSON_TYPE && text.startsWith("payload="))) json = new URLSearchParams(text).get("payload");
  if (json === null) throw new CaseFailure(`the ${eventOf(d) ?? "?"} delivery's form body has no payload field`, { expected: "payload=<url-encoded JSON>", actual: text.slice(0, 200), pointer: "/body" });
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new CaseFailure(`the ${eventOf(d) ?? "?"} delivery's payload is not JSON`, { expected: "a JSON object", actual: json.slice(0, 200), pointer: "/body" });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new CaseFailure(`the ${eventOf(d) ?? "?"} delivery's payload is not a JSON object`, { expected: "a JSON object", actual: json.slice(0, 200), pointer: "/body" });
  return value as Record<string, unknown>;
}

function tryPayload(d: ReceivedDelivery): Record<string, unknown> | undefined {
  try {
    return payloadOf(d);
  } catch {
    return undefined;
  }
}

/** What a payload is by its fields (ping: zen + hook_id; push: ref + commits), independent of the headers. */
export function kindOf(d: ReceivedDelivery): "ping" | "push" | undefined {
  const p = tryPayload(d);
  if (!p) return undefined;
  if (typeof p.zen === "string" && "hook_id" in p) return "ping";
  if (typeof p.ref === "string" && Array.isArray(p.commits)) return "push";
  return undefined;
}

/** A ping for hook `id`: by its header, or by its fields when the header is wrong (checked separately). */
export function isPingFor(id: number): (d: ReceivedDelivery) => boolean {
  return (d) => eventOf(d) === "ping" || (kindOf(d) === "ping" && tryPayload(d)?.hook_id === id);
}

export const isEvent =
  (event: string) =>
  (d: ReceivedDelivery): boolean =>
    eventOf(d) === event;

/** The payload against the webhook schema of its event (the generated validators); failures count against `checks`' rule. */
export function checkPayloadSchema(event: string | undefined, payload: unknown, where: string, checks: Checks = check): void {
  checks.ok(event !== undefined && (webhookEvents as readonly string[]).includes(event), `${where}: X-Service-Event names a webhook event, whose schema the payload is checked against`, {
    expected: [...webhookEvents],
    actual: event ?? "(no header)",
    pointer: "/headers/x-service-event",
  });
  const verdict = validateWebhook(event, payload);
  if (verdict.valid) return;
  const [first] = verdict.errors;
  checks.fail(`${where}: the ${event} payload breaks its webhook schema: ${verdict.errors.slice(0, 3).map((e) => `${e.path || "/"} ${e.message}`).join("; ")}`, {
    pointer: `/body${first?.path ?? ""}`,
    actual: first ? valueAt(payload, first.path) : undefined,
  });
}

function valueAt(root: unknown, pointer: string): unknown {
  let node: any = root;
  for (const raw of pointer.split("/").slice(1)) {
    if (node === null || typeof node !== "object") return undefined;
    node = node[raw.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node;
}

export type Algorithm = "sha1" | "sha256" | "sha512";
const ALGORITHMS: readonly Algorithm[] = ["sha1", "sha256", "sha512"];
const HEX_LENGTH: Record<Algorithm, number> = { sha1: 40, sha256: 64, sha512: 128 };

export function hmac(algorithm: Algorithm, secret: string, bytes: Buffer | string): string {
  return createHmac(algorithm, secret).update(bytes).digest("hex");
}

/** Bodies a careless signer might have signed instead of the bytes sent: a hint for the message. */
function signedInstead(d: ReceivedDelivery, secret: string, algorithm: Algorithm, hex: string): string | undefined {
  const payload = tryPayload(d);
  if (!payload) return undefined;
  const text = d.raw.toString("utf8");
  const form = text.startsWith("payload=") ? new URLSearchParams(text).get("payload") : null;
  const candidates: [string, string][] = [
    ...(form !== null
      ? ([
          ["the JSON inside the form body rather than the form body", form],
          ["a form body rebuilt from the payload re-serialized", new URLSearchParams({ payload: JSON.stringify(payload, null, 2) }).toString()],
          ["a form body rebuilt from the payload re-serialized", new URLSearchParams({ payload: JSON.stringify(payload) }).toString()],
        ] as [string, string][])
      : []),
    ["the payload re-serialized compactly", JSON.stringify(payload)],
    ["the payload re-serialized with a 2-space indent", JSON.stringify(payload, null, 2)],
  ];
  for (const [name, body] of candidates) if (hex === hmac(algorithm, secret, body)) return name;
  return undefined;
}

/**
 * The seed's signature (S-WEBHOOK-SIGNATURE): X-Hub-Signature is an "HMAC hex digest of the
 * payload, with the hook's secret as key"; the algorithm is not shown. So `<algo>=<hex>` with
 * sha1, sha256 or sha512, or the bare hex of one of them, over the exact bytes received.
 */
function checkSeedSignature(ctx: CaseContext, d: ReceivedDelivery, secret: string, where: string): void {
  const seed: Checks = ctx.rule("S-WEBHOOK-SIGNATURE");
  const header = d.headers["x-hub-signature"];
  if (header === undefined) seed.fail(`${where}: the hook has a secret, so the delivery carries X-Hub-Signature`, { expected: "an HMAC hex digest of the body", actual: "(no header)", pointer: "/headers/x-hub-signature" });
  const m = /^(?:(sha1|sha256|sha512)=)?([0-9a-fA-F]+)$/.exec(header ?? "");
  const named = m?.[1] as Algorithm | undefined;
  const hex = (m?.[2] ?? "").toLowerCase();
  const candidates = named ? [named] : ALGORITHMS.filter((a) => HEX_LENGTH[a] === hex.length);
  if (candidates.some((a) => hex === hmac(a, secret, d.raw))) return;
  const hint = candidates.map((a) => signedInstead(d, secret, a, hex)).find((x) => x !== undefined);
  seed.fail(`${where}: X-Hub-Signature is an HMAC hex digest (sha1, sha256 or sha512, as <algo>=<hex>) of the exact ${d.raw.length} body bytes received, keyed with the hook's secret${hint ? `; it is the HMAC of ${hint} — sign the bytes you send` : ""}`, {
    expected: `sha1=${hmac("sha1", secret, d.raw)} (or the sha256/sha512 form)`,
    actual: header,
    pointer: "/headers/x-hub-signature",
  });
}

/**
 * The signatures of a delivery from a hook with a secret: the seed's (above), then the headers
 * the contract chose (D-SIGNATURE) or the profile declared — `sha1+sha256`: X-Hub-Signature
 * `sha1=…` and X-Hub-Signature-256 `sha256=…`; `sha1` or `sha256`: X-Hub-Signature with that
 * prefix. The cases calling this name both rules.
 */
export function checkSignatures(ctx: CaseContext, d: ReceivedDelivery, secret: string, where: string): void {
  checkSeedSignature(ctx, d, secret, where);
  if (ctx.decisions.off("D-SIGNATURE")) return;
  const declared = ctx.decisions.value("D-SIGNATURE");
  const wanted: [string, Algorithm][] =
    declared === "sha1+sha256" ? [["x-hub-signature", "sha1"], ["x-hub-signature-256", "sha256"]] : [["x-hub-signature", declared === "sha256" ? "sha256" : "sha1"]];
  const decision: Checks = ctx.rule("D-SIGNATURE");
  for (const [name, algorithm] of wanted) {
    const header = d.headers[name];
    const expected = `${algorithm}=${hmac(algorithm, secret, d.raw)}`;
    if (header === expected) continue;
    const display = name === "x-hub-signature" ? "X-Hub-Signature" : "X-Hub-Signature-256";
    const hint = header ? signedInstead(d, secret, algorithm, header.replace(/^\w+=/, "")) : undefined;
    decision.fail(`${where}: ${display} is ${algorithm}=HMAC-${algorithm.toUpperCase()}(secret, the exact ${d.raw.length} body bytes received) (D-SIGNATURE: ${declared})${hint ? `; it is the HMAC of ${hint} — sign the bytes you send` : ""}`, {
      expected,
      actual: header ?? "(no header)",
      pointer: `/headers/${name}`,
    });
  }
}

/** No signature header without a secret: the contract's choice (D-SIGNATURE: "only when the hook has a secret"). */
export function checkNoSignatures(ctx: CaseContext, d: ReceivedDelivery, where: string): void {
  for (const name of ["x-hub-signature", "x-hub-signature-256"]) {
    const decision: Checks = ctx.rule("D-SIGNATURE");
    decision.ok(d.headers[name] === undefined, `${where}: a hook without a secret gets no ${name === "x-hub-signature" ? "X-Hub-Signature" : "X-Hub-Signature-256"}`, {
      expected: "(no header)",
      actual: d.headers[name],
      pointer: `/headers/${name}`,
    });
  }
}

/** The rules `checkPing` attributes its assertions to: a case calling it names them. */
export const PING_RULES = ["S-PING-PAYLOAD", "D-PING-HOOK-FIELDS", "D-SCHEMA-WEBHOOK-PING"] as const;

/**
 * The ping for hook `id`: what the seed says (X-Service-Event ping; zen a string, hook_id the
 * hook's id, hook an object), then the contract's ping schema and `hook.id` (the hook's fields
 * are not shown in the seed).
 */
export function checkPing(ctx: CaseContext, d: ReceivedDelivery, id: number, where: string): Record<string, unknown> {
  const seed: Checks = ctx.rule("S-PING-PAYLOAD");
  seed.equal(eventOf(d), "ping", `${where}: X-Service-Event is ping`, "/headers/x-service-event");
  const payload = payloadOf(d);
  seed.ok(typeof payload.zen === "string", `${where}: zen is a string`, { actual: payload.zen, pointer: "/body/zen" });
  seed.equal(payload.hook_id, id, `${where}: hook_id is the created hook's id`, "/body/hook_id");
  seed.ok(payload.hook !== null && typeof payload.hook === "object", `${where}: hook is the webhook's configuration (an object)`, { actual: payload.hook, pointer: "/body/hook" });
  if (ctx.decisions.on("D-SCHEMA-WEBHOOK-PING")) checkPayloadSchema("ping", payload, where, ctx.rule("D-SCHEMA-WEBHOOK-PING"));
  ctx.rule("D-PING-HOOK-FIELDS").equal((payload.hook as { id?: unknown } | null)?.id, id, `${where}: hook.id is the created hook's id`, "/body/hook/id");
  return payload;
}

/** The media type of a Content-Type value: parameters (charset) dropped, lower case (RFC 9110 §8.3.1). */
export function mediaType(value: string | undefined): string | undefined {
  return value?.split(";")[0]!.trim().toLowerCase();
}

/** A delivery's Content-Type is `type` as a media type (`application/json; charset=utf-8` is application/json). */
export function checkMediaType(checks: Checks, d: ReceivedDelivery, type: string, message: string): void {
  checks.equal(mediaType(d.headers["content-type"]), type, message, "/headers/content-type");
}

/** The cases of this area: area, needs (a hook on the public repository and the receiver, plus any extra). */
export function webhookCase(id: string, title: string, seed: string, extra: readonly Need[], run: (ctx: CaseContext, id: string) => Promise<void>): CaseDraft {
  return { id, title, area: "webhooks", seed, needs: ["hook-admin", "public-repo", "receiver", ...extra], run: (ctx) => run(ctx, id) };
}

/**
 * Waits for the ping sent on creation before a case pings through the endpoint: deliveries are
 * asynchronous, so a late creation ping would otherwise pass for the endpoint's. Missing, it is
 * noted (WEBHOOK-PING-001 is the case that fails for it) and the case goes on.
 */
export async function creationPing(ctx: CaseContext, hook: Installed): Promise<ReceivedDelivery | undefined> {
  try {
    return await waitAt(ctx, hook.path, "the ping sent on creation", isPingFor(hook.id));
  } catch (error) {
    if (!(error instanceof CaseFailure)) throw error;
    ctx.note("no ping arrived on creation (WEBHOOK-PING-001 checks that); any ping from now on counts as the endpoint's");
    return undefined;
  }
}

/**
 * A push (triggered) and a ping (through the ping endpoint, so the case does not depend on the
 * creation ping), both waited for; then every delivery the hook got, creation ping included.
 */
export async function pushAndPing(ctx: CaseContext, hook: Installed): Promise<ReceivedDelivery[]> {
  await creationPing(ctx, hook);
  const started = Date.now();
  await ctx.trigger("push");
  await waitAt(ctx, hook.path, "the push delivery after the push trigger", (d) => eventOf(d) === "push" || kindOf(d) === "push");
  noteDeliveryTime(ctx, Date.now() - started);
  const before = mark(ctx, hook.path);
  await pingNow(ctx, hook);
  await before.next("the ping sent by POST …/pings", isPingFor(hook.id));
  return deliveriesAt(ctx, hook.path);
}

/**
 * POST …/pings: any 2xx sends a ping. The contract's 204 (D-PING-ENDPOINT) is checked by the
 * cases about the ping endpoint (WEBHOOK-PING-002, HOOKS-ORG-002), which pass `exact`.
 */
export async function pingNow(ctx: CaseContext, hook: Installed, exact = false): Promise<void> {
  const res = await hookRequest(ctx, hook.place, "ping", { id: hook.id });
  const what = `POST ${placeName(hook.place)}/${hook.id}/pings`;
  check.ok(is2xx(res.status), `${what} answers a 2xx`, { expected: "2xx", actual: res.status, pointer: "/status" });
  if (exact) ctx.rule("D-PING-ENDPOINT").status(res.status, 204, `${what} (the contract's 204)`);
}

/** "delivery 2 (push)": how messages name one delivery of a hook. */
export function nameOf(d: ReceivedDelivery, all: readonly ReceivedDelivery[]): string {
  return `delivery ${all.indexOf(d) + 1} (${eventOf(d) ?? kindOf(d) ?? "unknown event"})`;
}
