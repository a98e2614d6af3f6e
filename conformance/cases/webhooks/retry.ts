/**
 * WEBHOOK-RETRY-*: a delivery that fails is retried, and a redelivery is sent again, under the
 * same `X-Service-Delivery` (seed: Events › Delivery headers — "Unique ID of the delivery";
 * spec/DECISIONS.md, Delivery retries and time-outs: any non-2xx is a failure, retried with
 * backoff under the same X-Service-Delivery; every attempt is in the delivery log, and
 * `POST …/deliveries/:id/attempts` redelivers → 202). The built-in receiver answers 500 to the
 * delivery the case picks (`failNext`). The retry schedule is the implementation's: the case waits
 * for the retry the log announces (`next_attempt_at`) when it falls within the case's time, and
 * is skipped, saying so, when the target schedules it later.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import type { ReceivedDelivery } from "../../core/receiver.ts";
import { check } from "../../core/failure.ts";
import { placeName, receiverOf, repoPlace, SEED, withHook, type Installed } from "../hooks/support.ts";
import { backoff, creationPing, deliveryTimeout, isPingFor, mark, pingNow, webhookCase, type Mark } from "./support.ts";
import { needsDecision, stopAt } from "../profile.ts";

const RETRY_SEED = `${SEED.headers} (spec/DECISIONS.md: Delivery retries and time-outs)`;
/** The longest wait for an announced retry the case accepts (the case itself has 30 s by default). */
const MAX_RETRY_WAIT_MS = 15_000;

interface LoggedAttempt {
  id: number;
  guid: string;
  status_code: number;
  redelivery: boolean;
  next_attempt_at: string | null;
}

async function deliveryLog(ctx: CaseContext, hook: Installed): Promise<LoggedAttempt[]> {
  const res = await ctx.http.request({ operationId: "listRepoHookDeliveries", params: { owner: (hook.place as { owner: string }).owner, repo: (hook.place as { repo: string }).repo, hook_id: hook.id }, token: ctx.profile.users[0]!.token });
  // The log is D-SCHEMA-DELIVERY-LOG's: without it this case has nothing to read.
  const list = res.status === 200 ? res.json<unknown>() : undefined;
  if (!Array.isArray(list)) stopAt(ctx, "D-SCHEMA-DELIVERY-LOG", `GET ${placeName(hook.place)}/${hook.id}/deliveries lists the hook's deliveries`, { expected: "200 with an array", actual: `${res.status} ${res.text.slice(0, 160)}`, pointer: "/status" });
  return list as LoggedAttempt[];
}

/**
 * A ping through the endpoint, answered 500 by the receiver: the failed delivery as it arrived,
 * and the mark taken before it, so a retry that comes while the case reads the log still counts.
 */
async function failedPing(ctx: CaseContext, hook: Installed): Promise<{ failed: ReceivedDelivery; since: Mark }> {
  await creationPing(ctx, hook);
  const before = mark(ctx, hook.path);
  receiverOf(ctx).failNext(hook.path, 1, 500);
  await pingNow(ctx, hook);
  const failed = await before.next("the ping the receiver answers 500", isPingFor(hook.id));
  check.equal(failed.answered, 500, "the receiver failed the ping on purpose");
  return { failed, since: before };
}

/** The log's entry for `guid` answered `status`, waited for (an attempt is listed once completed). */
async function logged(ctx: CaseContext, hook: Installed, guid: string, match: (a: LoggedAttempt) => boolean, what: string): Promise<LoggedAttempt> {
  const until = Date.now() + deliveryTimeout(ctx);
  const pause = backoff();
  for (;;) {
    const found = (await deliveryLog(ctx, hook)).find((a) => a.guid === guid && match(a));
    if (found) return found;
    if (Date.now() > until) check.fail(`the delivery log of hook ${hook.id} shows ${what}`, { expected: `an attempt with guid ${guid}`, actual: "none", pointer: "/body" });
    await pause();
  }
}

function sameDelivery(again: ReceivedDelivery, first: ReceivedDelivery, what: string): void {
  const guid = first.headers["x-service-delivery"];
  check.equal(again.headers["x-service-delivery"], guid, `${what} keeps the failed delivery's X-Service-Delivery`, "/headers/x-service-delivery");
  check.ok(again.raw.equals(first.raw), `${what} sends the same body bytes`, { expected: `${first.raw.length} bytes as first sent`, actual: `${again.raw.length} bytes, different`, pointer: "/body" });
}

/** The rules each case below enforces (spec/seed-rules.yaml, spec/DECISIONS.md). */
const RULES: Record<string, readonly string[]> = {
  // Retries are not shown in the seed: the whole case is the contract's.
  "WEBHOOK-RETRY-001": ["D-DELIVERY-RETRIES", "D-SCHEMA-DELIVERY-LOG"],
  "WEBHOOK-RETRY-002": ["D-DELIVERY-RETRIES", "D-SCHEMA-DELIVERY-LOG"],
};

export const RETRY_CASES: Case[] = withRules(RULES, [
  webhookCase("WEBHOOK-RETRY-001", "A delivery answered 500 is logged as failed and retried with the same X-Service-Delivery", RETRY_SEED, [], async (ctx, id) => {
    needsDecision(ctx, "D-SCHEMA-DELIVERY-LOG", "the delivery log this case reads");
    await withHook(ctx, repoPlace(ctx), id, {}, async (hook) => {
      const { failed, since } = await failedPing(ctx, hook);
      const guid = failed.headers["x-service-delivery"]!;
      const entry = await logged(ctx, hook, guid, (a) => a.status_code === 500, "the failed attempt (status_code 500)");
      check.ok(entry.next_attempt_at !== null, "a failed attempt schedules a retry: next_attempt_at is set", { expected: "a date-time", actual: null, pointer: "/body/next_attempt_at" });
      const wait = Date.parse(entry.next_attempt_at) - Date.now();
      if (wait > MAX_RETRY_WAIT_MS) ctx.skip(`the retry is scheduled ${Math.round(wait / 1000)} s ahead (${entry.next_attempt_at}), beyond what one case waits; WEBHOOK-RETRY-002 checks the same X-Service-Delivery through a redelivery`);
      const retry = await since.next("the automatic retry of the failed ping", (d) => d !== failed && d.headers["x-service-event"] === "ping", Math.max(0, wait) + deliveryTimeout(ctx));
      sameDelivery(retry, failed, "the automatic retry");
      await logged(ctx, hook, guid, (a) => a.id !== entry.id && a.status_code === 200 && !a.redelivery, "the retry, answered 200, with the same guid and its own id");
    });
  }),
  webhookCase("WEBHOOK-RETRY-002", "Redelivering a failed delivery (POST …/attempts → 202) sends it again with the same X-Service-Delivery", RETRY_SEED, [], async (ctx, id) => {
    needsDecision(ctx, "D-SCHEMA-DELIVERY-LOG", "the delivery log this case reads");
    await withHook(ctx, repoPlace(ctx), id, {}, async (hook) => {
      const { failed } = await failedPing(ctx, hook);
      const guid = failed.headers["x-service-delivery"]!;
      const entry = await logged(ctx, hook, guid, (a) => a.status_code === 500, "the failed attempt (status_code 500)");
      const before = mark(ctx, hook.path);
      const { owner, repo } = hook.place as { owner: string; repo: string };
      const res = await ctx.http.request({ operationId: "redeliverRepoHookDelivery", params: { owner, repo, hook_id: hook.id, delivery_id: entry.id }, token: ctx.profile.users[0]!.token });
      check.status(res.status, 202, `POST ${placeName(hook.place)}/${hook.id}/deliveries/${entry.id}/attempts`);
      const again = await before.next("the redelivery", (d) => d.headers["x-service-delivery"] === guid || d.headers["x-service-event"] === "ping");
      sameDelivery(again, failed, "the redelivery");
      await logged(ctx, hook, guid, (a) => a.redelivery, "the redelivery (redelivery: true) with the same guid");
    });
  }),
]);
