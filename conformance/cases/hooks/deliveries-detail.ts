/**
 * HOOKS-DELIVERY-*: one delivery's detail in the log, `GET …/hooks/:id/deliveries/:delivery_id`
 * (D-DELIVERY-RETRIES: every attempt is in the hook's delivery log; D-SCHEMA-DELIVERY-DETAIL: the
 * request as sent — its headers, and the payload as the JSON object for `content_type: json` or
 * the exact `payload=…` form body for `form` — and the response that came back). The case reads
 * the detail of the creation ping the built-in receiver got, and compares it with what arrived.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import type { ReceivedDelivery } from "../../core/receiver.ts";
import { check } from "../../core/failure.ts";
import { checkHookResponse, freshSecret, placeName, repoPlace, SEED, withHook, type Installed } from "./support.ts";
import { backoff, isPingFor, payloadOf, waitAt } from "../webhooks/support.ts";
import { needsDecision, stopAt } from "../profile.ts";

interface LoggedAttempt {
  id: number;
  guid: string;
  event: string;
  status: string;
  status_code: number;
  attempt?: unknown;
  next_attempt_at?: unknown;
  url?: unknown;
}

/**
 * `attempt`, `next_attempt_at` and `url` on a log entry (D-SCHEMA-DELIVERY-LOG). The schema takes
 * an entry without them, since the real service sends none (D-RECEIVED-RESPONSES), so a server of
 * this contract is held to them here.
 */
function checkLogFields(ctx: CaseContext, entry: LoggedAttempt, where: string, pointer: string): void {
  if (ctx.decisions.off("D-SCHEMA-DELIVERY-LOG")) return;
  const log = ctx.rule("D-SCHEMA-DELIVERY-LOG");
  log.ok(Number.isInteger(entry.attempt) && (entry.attempt as number) >= 1, `${where}: attempt, counting from 1`, { expected: "an integer ≥ 1", actual: entry.attempt, pointer: `${pointer}/attempt` });
  log.ok("next_attempt_at" in entry && (entry.next_attempt_at === null || typeof entry.next_attempt_at === "string"), `${where}: next_attempt_at, a date-time or null`, { expected: "present: a date-time or null", actual: "next_attempt_at" in entry ? entry.next_attempt_at : "absent", pointer: `${pointer}/next_attempt_at` });
  log.ok(typeof entry.url === "string" && entry.url.length > 0, `${where}: url, where the payload was sent`, { expected: "the URL the payload was sent to", actual: entry.url, pointer: `${pointer}/url` });
}

interface DeliveryDetail extends LoggedAttempt {
  request: { headers: Record<string, string> | null; payload: unknown };
  response: { headers: Record<string, string> | null; payload: string | null };
}

/**
 * What a server of this contract records of a delivery (D-SCHEMA-DELIVERY-RECORD): `status` `OK`
 * exactly for a 2xx answer; no response headers and a null body without a response; request
 * headers and payload never null; `X-Hub-Signature-256` beside `X-Hub-Signature`. The response
 * schemas take the real service's looser records (D-RECEIVED-RESPONSES), so the case checks these.
 */
function checkRecord(ctx: CaseContext, detail: DeliveryDetail, where: string): void {
  if (ctx.decisions.off("D-SCHEMA-DELIVERY-RECORD")) return;
  const rule = ctx.rule("D-SCHEMA-DELIVERY-RECORD");
  const ok2xx = detail.status_code >= 200 && detail.status_code < 300;
  rule.ok((detail.status === "OK") === ok2xx, `${where}: status is OK exactly for a 2xx answer`, { expected: ok2xx ? "OK" : "not OK", actual: `${detail.status} (status_code ${detail.status_code})`, pointer: "/body/status" });
  rule.ok(detail.request?.headers !== null && typeof detail.request?.headers === "object", `${where}: the request headers are recorded`, { expected: "an object", actual: detail.request?.headers, pointer: "/body/request/headers" });
  rule.ok(detail.request?.payload !== null && detail.request?.payload !== undefined, `${where}: the request payload is recorded`, { expected: "the payload sent", actual: detail.request?.payload, pointer: "/body/request/payload" });
  rule.ok(detail.response?.headers !== null && typeof detail.response?.headers === "object", `${where}: the response headers are an object`, { expected: "an object", actual: detail.response?.headers, pointer: "/body/response/headers" });
  if (detail.status_code === 0) {
    rule.equal(Object.keys(detail.response?.headers ?? {}).length, 0, `${where}: no response headers without a response`, "/body/response/headers");
    rule.equal(detail.response?.payload, null, `${where}: no response body without a response`, "/body/response/payload");
  }
  // Both signature headers are D-SIGNATURE's choice, not the record's: a server that declares
  // `sha1` or `sha256` (one header) records one, and is held to what it declared.
  const sha1 = headerOf(detail.request?.headers, "X-Hub-Signature");
  if (sha1 !== undefined && ctx.decisions.on("D-SIGNATURE") && ctx.decisions.value("D-SIGNATURE") === "sha1+sha256") {
    ctx.rule("D-SIGNATURE").ok(headerOf(detail.request?.headers, "X-Hub-Signature-256") !== undefined, `${where}: X-Hub-Signature-256 is recorded beside X-Hub-Signature (D-SIGNATURE: sha1+sha256)`, { expected: "present", actual: detail.request?.headers, pointer: "/body/request/headers/X-Hub-Signature-256" });
  }
}

function repoParams(hook: Installed): { owner: string; repo: string; hook_id: number } {
  const place = hook.place as { owner: string; repo: string };
  return { owner: place.owner, repo: place.repo, hook_id: hook.id };
}

/** The header of the detail's recorded request, whatever the casing it was recorded in. */
function headerOf(headers: Record<string, string> | null | undefined, name: string): string | undefined {
  const found = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase());
  return found?.[1];
}

/** The log's attempt of the delivery `guid`, waited for: an attempt is listed once it is complete. */
async function attemptOf(ctx: CaseContext, hook: Installed, guid: string): Promise<LoggedAttempt> {
  const until = Date.now() + (ctx.profile.deliveryTimeoutMs ?? 10_000);
  const pause = backoff();
  for (;;) {
    const res = await ctx.http.request({ operationId: "listRepoHookDeliveries", params: repoParams(hook), token: ctx.profile.users[0]!.token });
    // The log is D-SCHEMA-DELIVERY-LOG's: without it this case has nothing to read.
    const list = res.status === 200 ? res.json<unknown>() : undefined;
    if (!Array.isArray(list)) stopAt(ctx, "D-SCHEMA-DELIVERY-LOG", `GET ${placeName(hook.place)}/${hook.id}/deliveries lists the hook's deliveries`, { expected: "200 with an array", actual: `${res.status} ${res.text.slice(0, 160)}`, pointer: "/status" });
    const found = (list as LoggedAttempt[]).find((a) => a?.guid === guid);
    if (found) return found;
    if (Date.now() > until) check.fail(`the delivery log lists the ping the receiver got (guid ${guid})`, { expected: guid, actual: res.json<LoggedAttempt[]>().map((a) => a.guid), pointer: "/body" });
    await pause();
  }
}

async function checkDetail(ctx: CaseContext, hook: Installed, form: boolean): Promise<void> {
  const ping: ReceivedDelivery = await waitAt(ctx, hook.path, "the ping sent when the hook was created", isPingFor(hook.id));
  const guid = ping.headers["x-service-delivery"] ?? "";
  check.ok(guid, "the ping carries X-Service-Delivery", { actual: ping.headers, pointer: "/headers/x-service-delivery" });
  const attempt = await attemptOf(ctx, hook, guid);
  checkLogFields(ctx, attempt, `the log entry of ${guid}`, "/body/*");
  checkHookResponse(ctx, hook, { contentType: form ? "form" : "json", secret: hook.secret }, `POST ${placeName(hook.place)}`);
  const res = await ctx.http.request({ operationId: "getRepoHookDelivery", params: { ...repoParams(hook), delivery_id: attempt.id }, token: ctx.profile.users[0]!.token });
  check.status(res.status, 200, `GET ${placeName(hook.place)}/${hook.id}/deliveries/${attempt.id}`);
  const detail = res.json<DeliveryDetail>();
  check.equal(detail.guid, guid, "the detail is the delivery's (guid)", "/body/guid");
  checkLogFields(ctx, detail, `the detail of ${guid}`, "/body");
  if (ctx.decisions.on("D-SCHEMA-DELIVERY-LOG")) ctx.rule("D-SCHEMA-DELIVERY-LOG").equal(detail.url, hook.url, "the detail's url is the hook's config.url", "/body/url");
  check.equal(headerOf(detail.request?.headers, "X-Service-Event"), "ping", "the recorded request's X-Service-Event", "/body/request/headers/X-Service-Event");
  check.equal(headerOf(detail.request?.headers, "X-Service-Delivery"), guid, "the recorded request's X-Service-Delivery is the one received", "/body/request/headers/X-Service-Delivery");
  check.equal(headerOf(detail.request?.headers, "Content-Type")?.split(";")[0], form ? "application/x-www-form-urlencoded" : "application/json", "the recorded request's Content-Type is the one received", "/body/request/headers/Content-Type");
  if (form) check.equal(detail.request?.payload, ping.raw.toString("utf8"), "a form delivery's recorded payload is the exact payload=… body sent", "/body/request/payload");
  else check.equal(detail.request?.payload, payloadOf(ping), "a JSON delivery's recorded payload is the object sent", "/body/request/payload");
  ctx.rule("D-DELIVERY-RETRIES").equal(detail.status_code, ping.answered, "status_code is the receiver's answer", "/body/status_code");
  check.ok(detail.response && typeof detail.response.headers === "object", "the detail has the response that came back", { actual: detail.response, pointer: "/body/response" });
  checkRecord(ctx, detail, `the detail of ${guid}`);
}

export const DELIVERY_DETAIL_CASES: Case[] = [
  {
    id: "HOOKS-DELIVERY-001",
    title: "A delivery's detail shows the request as sent (headers, the JSON payload object) and the receiver's response",
    area: "hooks",
    seed: SEED.headers,
    rules: ["D-SCHEMA-DELIVERY-DETAIL", "D-DELIVERY-RETRIES", "D-SCHEMA-DELIVERY-LOG", "D-SCHEMA-DELIVERY-RECORD", "D-SCHEMA-HOOK-RESPONSE", "D-SIGNATURE"],
    needs: ["hook-admin", "public-repo", "receiver"],
    async run(ctx) {
      needsDecision(ctx, "D-SCHEMA-DELIVERY-LOG", "the delivery log this case reads");
      await withHook(ctx, repoPlace(ctx), "HOOKS-DELIVERY-001", { contentType: "json", secret: freshSecret() }, (hook) => checkDetail(ctx, hook, false));
    },
  },
  {
    id: "HOOKS-DELIVERY-002",
    title: "A form delivery's detail records the exact payload=… body it sent",
    area: "hooks",
    seed: SEED.headers,
    rules: ["D-SCHEMA-DELIVERY-DETAIL", "D-DELIVERY-CONTENT-TYPE", "D-SCHEMA-DELIVERY-LOG", "D-SCHEMA-DELIVERY-RECORD", "D-SCHEMA-HOOK-RESPONSE", "D-SIGNATURE"],
    needs: ["hook-admin", "public-repo", "receiver"],
    async run(ctx) {
      needsDecision(ctx, "D-SCHEMA-DELIVERY-LOG", "the delivery log this case reads");
      needsDecision(ctx, "D-DELIVERY-CONTENT-TYPE", "a hook of content_type form");
      await withHook(ctx, repoPlace(ctx), "HOOKS-DELIVERY-002", { contentType: "form" }, (hook) => checkDetail(ctx, hook, true));
    },
  },
];

