/**
 * The receiver suite's cases (`conformance --receiver URL --secret S`): what a correct webhook
 * receiver does with what the service sends, and with what only a forger sends. IDs are stable
 * (`RECEIVER-TOPIC-NNN`; never renumber, retire instead). What a receiver is told to expect is in
 * spec/DECISIONS.md, "Webhook receivers": verify X-Hub-Signature-256 over the exact bytes and
 * refuse with a 4xx otherwise; answer 2xx to a correctly signed delivery it does not understand
 * (an unknown event or action, unknown fields); answer fast and idempotently.
 */
import { randomUUID } from "node:crypto";
import type { DeliveryContentType } from "../../../runtime/client/webhooks/delivery.ts";
import { sign } from "../../../runtime/client/webhooks/signature.ts";
import { CaseFailure } from "../../core/failure.ts";
import { exampleFor, WEBHOOK_EVENTS } from "../webhook-examples.ts";
import { expectAccepted, expectRefused, type Delivered, type ReceiverCase, type ReceiverContext } from "./context.ts";

const SEED_AUTH = "Webhook authentication";
const SEED_HEADERS = "Events › Delivery headers";
const SEED_DELIVERY = "Events › Webhook subscription";

/** Deliveries of one case in flight at once (a receiver is not asked to take a burst here). */
const EVENT_CONCURRENCY = 4;
/** RECEIVER-LOAD-001: deliveries sent at once. */
export const BURST = 50;

function payloadJson(event: string): string {
  const example = exampleFor(event);
  if (!example) throw new Error(`the contract has no valid example for ${event}`);
  return JSON.stringify(example.payload);
}

async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return out;
}

/** Every event but ping (its own case), in one content type: each must be accepted. */
async function everyEvent(ctx: ReceiverContext, contentType: DeliveryContentType): Promise<void> {
  const events = WEBHOOK_EVENTS.filter((e) => e !== "ping");
  const results = await inBatches(events, EVENT_CONCURRENCY, (event) => ctx.deliver({ event, payloadJson: payloadJson(event), contentType }));
  const refused = results.filter((d) => !(d.statusCode >= 200 && d.statusCode <= 299));
  const slowest = results.reduce((a, b) => (b.durationMs > a.durationMs ? b : a));
  ctx.note(`${results.length} events; slowest ${slowest.event} in ${Math.round(slowest.durationMs)} ms`);
  if (refused.length > 0) {
    const list = refused.map((d) => `${d.event}: ${d.statusCode || d.message}`);
    throw new CaseFailure(`the receiver did not accept ${refused.length} of ${results.length} correctly signed ${contentType} deliveries: ${list.join(", ")}`, {
      expected: `2xx within 10 s for every event (${events.join(", ")})`,
      actual: Object.fromEntries(refused.map((d) => [d.event, d.statusCode || d.message])),
      pointer: "/status",
    });
  }
}

/** A correctly made push delivery whose signature headers are replaced by `signatures`. */
function forged(ctx: ReceiverContext, what: string, signatures: (body: string) => Record<string, string | undefined>): Promise<void> {
  return ctx.deliver({ event: "push", payloadJson: payloadJson("push"), alter: (_h, body) => signatures(body) }).then((d) => expectRefused(d, what));
}

const hexOf = (header: string) => header.slice(header.indexOf("=") + 1);

export const RECEIVER_CASES: readonly ReceiverCase[] = [
  {
    id: "RECEIVER-EVENTS-001",
    rules: ["S-WEBHOOK-POST-JSON", "S-WEBHOOK-EVENTS"],
    title: "accepts (2xx within 10 s) a correctly signed JSON delivery of every event in the contract",
    area: "receiver",
    seed: SEED_DELIVERY,
    run: (ctx) => everyEvent(ctx, "json"),
  },
  {
    id: "RECEIVER-EVENTS-002",
    rules: ["D-DELIVERY-CONTENT-TYPE"],
    title: "accepts (2xx within 10 s) a correctly signed form delivery (payload=…) of every event in the contract",
    area: "receiver",
    seed: SEED_DELIVERY,
    run: (ctx) => {
      if (!ctx.contentTypes.includes("form")) ctx.skip("the receiver takes JSON deliveries only (the seed's); form deliveries are the contract's own choice, checked with --content-types json,form");
      return everyEvent(ctx, "form");
    },
  },
  {
    id: "RECEIVER-PING-001",
    rules: ["S-PING"],
    title: "accepts the ping sent when a hook is created",
    area: "receiver",
    seed: "Events › Ping event",
    run: async (ctx) => expectAccepted(await ctx.deliver({ event: "ping", payloadJson: payloadJson("ping") }), "a ping"),
  },
  {
    id: "RECEIVER-SIGNATURE-001",
    rules: ["S-WEBHOOK-SIGNATURE", "D-RECEIVER-SIGNATURE"],
    title: "refuses (4xx) a delivery without signature headers",
    area: "receiver",
    seed: SEED_AUTH,
    run: (ctx) => forged(ctx, "a delivery without X-Hub-Signature and X-Hub-Signature-256", () => ({ "X-Hub-Signature": undefined, "X-Hub-Signature-256": undefined })),
  },
  {
    id: "RECEIVER-SIGNATURE-002",
    rules: ["S-WEBHOOK-SIGNATURE", "D-RECEIVER-SIGNATURE"],
    title: "refuses (4xx) a delivery signed with another secret",
    area: "receiver",
    seed: SEED_AUTH,
    run: (ctx) => {
      const other = `not-${ctx.secret}`;
      return forged(ctx, "a delivery signed with another secret", (body) => ({ "X-Hub-Signature": sign(other, body, "sha1"), "X-Hub-Signature-256": sign(other, body, "sha256") }));
    },
  },
  {
    id: "RECEIVER-SIGNATURE-003",
    rules: ["S-WEBHOOK-SIGNATURE", "D-RECEIVER-SIGNATURE"],
    title: "refuses (4xx) a delivery whose signatures cover other bytes (the payload re-serialized), not the body sent",
    area: "receiver",
    seed: SEED_AUTH,
    run: (ctx) =>
      forged(ctx, "a delivery signed over the payload re-serialized with indentation", (body) => {
        const other = JSON.stringify(JSON.parse(body), null, 2);
        return { "X-Hub-Signature": sign(ctx.secret, other, "sha1"), "X-Hub-Signature-256": sign(ctx.secret, other, "sha256") };
      }),
  },
  {
    id: "RECEIVER-SIGNATURE-004",
    rules: ["D-RECEIVER-SIGNATURE"],
    title: "refuses (4xx) a delivery with only a (correct) SHA-1 X-Hub-Signature: the service always sends X-Hub-Signature-256",
    area: "receiver",
    seed: SEED_AUTH,
    run: (ctx) => forged(ctx, "a delivery signed with SHA-1 only", () => ({ "X-Hub-Signature-256": undefined })),
  },
  {
    id: "RECEIVER-SIGNATURE-005",
    rules: ["D-RECEIVER-SIGNATURE"],
    title: "refuses (4xx) truncated signatures (the first half of each correct digest)",
    area: "receiver",
    seed: SEED_AUTH,
    run: (ctx) =>
      forged(ctx, "a delivery with truncated signatures", (body) => {
        const cut = (h: string) => `${h.slice(0, h.indexOf("="))}=${hexOf(h).slice(0, hexOf(h).length / 2)}`;
        return { "X-Hub-Signature": cut(sign(ctx.secret, body, "sha1")), "X-Hub-Signature-256": cut(sign(ctx.secret, body, "sha256")) };
      }),
  },
  {
    id: "RECEIVER-SIGNATURE-006",
    rules: ["D-RECEIVER-SIGNATURE"],
    title: "refuses (4xx) signatures that are not hexadecimal",
    area: "receiver",
    seed: SEED_AUTH,
    run: (ctx) => forged(ctx, "a delivery with non-hex signatures", () => ({ "X-Hub-Signature": `sha1=${"zq".repeat(20)}`, "X-Hub-Signature-256": `sha256=${"zq".repeat(32)}` })),
  },
  {
    id: "RECEIVER-TOLERANCE-001",
    rules: ["D-RECEIVER-UNKNOWN"],
    title: "accepts (2xx) a correctly signed delivery of an event it does not know",
    area: "receiver",
    seed: SEED_HEADERS,
    run: async (ctx) => {
      const push = JSON.parse(payloadJson("push")) as Record<string, unknown>;
      const payload = { action: "created", sender: push.sender, repository: push.repository, future_thing: { id: 1 } };
      expectAccepted(await ctx.deliver({ event: "future_event", payloadJson: JSON.stringify(payload) }), "a delivery of an event it does not know (future_event)");
    },
  },
  {
    id: "RECEIVER-TOLERANCE-002",
    rules: ["D-RECEIVER-UNKNOWN"],
    title: "accepts (2xx) a correctly signed delivery of a known event with an action it does not know",
    area: "receiver",
    seed: SEED_HEADERS,
    run: async (ctx) => {
      const issues = { ...(JSON.parse(payloadJson("issues")) as Record<string, unknown>), action: "transferred" };
      expectAccepted(await ctx.deliver({ event: "issues", payloadJson: JSON.stringify(issues) }), "an issues delivery with action transferred");
    },
  },
  {
    id: "RECEIVER-TOLERANCE-003",
    rules: ["D-RECEIVER-UNKNOWN"],
    title: "accepts (2xx) a correctly signed delivery with fields the contract does not define",
    area: "receiver",
    seed: SEED_HEADERS,
    run: async (ctx) => {
      const push = JSON.parse(payloadJson("push")) as Record<string, Record<string, unknown>>;
      const payload = { ...push, future_field: { nested: [1, 2] }, repository: { ...push.repository, future_flag: true }, sender: { ...push.sender, future_badge: "new" } };
      expectAccepted(await ctx.deliver({ event: "push", payloadJson: JSON.stringify(payload) }), "a push delivery with unknown fields");
    },
  },
  {
    id: "RECEIVER-LOAD-001",
    rules: ["D-CONF-CONSUMER-SUITES"],
    title: `answers every one of ${BURST} concurrent deliveries with 2xx within 10 s`,
    area: "receiver",
    seed: SEED_DELIVERY,
    run: async (ctx) => {
      const body = payloadJson("push");
      const results = await Promise.all(Array.from({ length: BURST }, () => ctx.deliver({ event: "push", payloadJson: body })));
      const times = results.map((d) => d.durationMs).sort((a, b) => a - b);
      ctx.note(`${BURST} deliveries: median ${Math.round(times[Math.floor(BURST / 2)]!)} ms, slowest ${Math.round(times.at(-1)!)} ms`);
      const refused = results.filter((d) => !(d.statusCode >= 200 && d.statusCode <= 299));
      if (refused.length > 0) {
        const byAnswer: Record<string, number> = {};
        for (const d of refused) byAnswer[String(d.statusCode || d.message)] = (byAnswer[String(d.statusCode || d.message)] ?? 0) + 1;
        throw new CaseFailure(`${refused.length} of ${BURST} concurrent deliveries were not accepted within 10 s`, { expected: `${BURST} × 2xx within 10 s`, actual: byAnswer, pointer: "/status" });
      }
    },
  },
  {
    id: "RECEIVER-REDELIVERY-001",
    rules: ["D-RECEIVER-REDELIVERY"],
    title: "accepts a redelivery (the same X-Service-Delivery and bytes again) as it accepted the first",
    area: "receiver",
    seed: "Events › Delivery headers (X-Service-Delivery)",
    run: async (ctx) => {
      const guid = randomUUID();
      const body = payloadJson("push");
      const first: Delivered = await ctx.deliver({ event: "push", payloadJson: body, guid });
      expectAccepted(first, "the first delivery");
      expectAccepted(await ctx.deliver({ event: "push", payloadJson: body, guid }), `a redelivery of ${guid}`);
    },
  },
];
