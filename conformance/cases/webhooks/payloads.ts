/**
 * WEBHOOK-PAYLOAD-*: each delivery's payload against the webhook schema of its event (seed:
 * Resources › Webhook delivery payload — the event's fields plus action, sender, repository
 * and/or organization; push has its own detailed payload; contract: schemas/webhooks/*.json
 * through the generated `validateWebhook`), and a repository hook's deliveries are about that
 * repository ("triggered whenever a subscribed event occurs there").
 *
 * PAYLOAD-002 makes every event the profile has a trigger for happen once, with a `*` hook on the
 * public repository (and one on the organization, when the profile has one). Some events cannot
 * happen on the public repository by their nature — `public` (that repository is public
 * already), `repository` (a new one), `membership` (a team), `team_add` (a team's repository) —
 * so those are checked when they arrive at either hook and noted when they do not; every other
 * triggered event must arrive. A trigger the target refuses (a `watch` that already happened,
 * say) is noted, not held against the target.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import type { ReceivedDelivery } from "../../core/receiver.ts";
import { check, CaseFailure, SkipCase } from "../../core/failure.ts";
import { webhookEvents } from "../../../generated/validators/index.js";
import { freshSecret, installHook, orgPlace, removeHook, repoPlace, SEED, withHook, type HookSpec, type Installed, type Place } from "../hooks/support.ts";
import { checkPayloadSchema, checkPing, PING_RULES, deliveriesAt, deliveryTimeout, eventOf, isEvent, isPingFor, payloadOf, noteDeliveryTime, pushAndPing, quietMs, receivedAt, waitAt, webhookCase } from "./support.ts";

/** Events that happen somewhere other than the public repository, by their definition in the seed. */
export const ELSEWHERE: Readonly<Record<string, string>> = {
  public: "a repository turning public is not the public repository",
  repository: "a new repository; organization hooks only",
  membership: "a team's membership; organization hooks only",
  team_add: "on the repository the team is added to",
};

const EVENTS = webhookEvents.filter((e) => e !== "ping");

/** The repository a repository hook's delivery is about must be that repository. */
function checkRepository(payload: Record<string, unknown>, place: Place, where: string): void {
  if (place.kind !== "repo") return;
  const name = (payload.repository as { full_name?: string } | undefined)?.full_name;
  check.ok(typeof name === "string" && name.toLowerCase() === place.full.toLowerCase(), `${where}: a repository hook's delivery is about its repository`, { expected: place.full, actual: name, pointer: "/body/repository/full_name" });
}

function triggerRefused(error: unknown): error is Error {
  return error instanceof SkipCase || (error instanceof CaseFailure && /^trigger\b/.test(error.message));
}

/** What went wrong with one delivery of PAYLOAD-002, or undefined. */
/** What is wrong with one delivery: by the payload schemas (the contract's), and by the seed (the repository it names). */
function problemOf(d: ReceivedDelivery, hook: Installed): { schema?: string; seed?: string } {
  const event = eventOf(d);
  const attempt = (check: () => void): string | undefined => {
    try {
      check();
      return undefined;
    } catch (error) {
      if (error instanceof CaseFailure) return `${error.message}${error.detail.pointer ? ` (at ${error.detail.pointer})` : ""}`;
      throw error;
    }
  };
  const schema = attempt(() => checkPayloadSchema(event, payloadOf(d), `${event ?? "?"} at the ${hook.place.kind === "repo" ? "repository" : "organization"} hook`));
  const seed = attempt(() => checkRepository(payloadOf(d), hook.place, `${event} at the repository hook`));
  return { ...(schema ? { schema } : {}), ...(seed ? { seed } : {}) };
}

async function everyEvent(ctx: CaseContext, id: string): Promise<void> {
  const triggers = ctx.profile.triggers ?? {};
  const events = EVENTS.filter((e) => (triggers[e]?.length ?? 0) > 0);
  if (events.length === 0) ctx.skip("profile has no trigger for any webhook event");
  const spec: HookSpec = { events: ["*"], secret: freshSecret() };
  await withHook(ctx, repoPlace(ctx), id, spec, async (repoHook) => {
    const orgHook = await optionalOrgHook(ctx, id, spec);
    let passed = false;
    try {
      await deliverEvery(ctx, events, orgHook ? [repoHook, orgHook] : [repoHook]);
      passed = true;
    } finally {
      if (orgHook) await removeHook(ctx, orgHook, passed);
    }
  });
}

/** A `*` hook on the profile's organization too, when it has one: organization-only events arrive there. */
async function optionalOrgHook(ctx: CaseContext, id: string, spec: HookSpec): Promise<Installed | undefined> {
  if (!ctx.profile.org) return undefined;
  try {
    return await installHook(ctx, orgPlace(ctx), id, spec, "org");
  } catch (error) {
    if (!(error instanceof CaseFailure)) throw error;
    ctx.note(`no organization hook (${error.message}): organization-only events are checked only if they reach the repository hook`);
    return undefined;
  }
}

/** Makes each event happen once; the ones the profile's trigger refused are noted and left out. */
async function triggerEach(ctx: CaseContext, events: readonly string[], ours: (d: ReceivedDelivery) => boolean): Promise<string[]> {
  // pull_request first: its delivery gives the number a review comment trigger may need.
  const ordered = [...events.filter((e) => e === "pull_request"), ...events.filter((e) => e !== "pull_request")];
  const triggered: string[] = [];
  let pullNumber: number | undefined;
  for (const event of ordered) {
    const params = event === "pull_request_review_comment" && pullNumber !== undefined ? { number: String(pullNumber) } : undefined;
    const triggeredAt = Date.now();
    try {
      await ctx.trigger(event, params);
      triggered.push(event);
    } catch (error) {
      if (!triggerRefused(error)) throw error;
      ctx.note(`${event}: not triggered (${error.message})`);
      continue;
    }
    if (event === "pull_request") {
      const d = await receivedAt(ctx, (x) => ours(x) && eventOf(x) === "pull_request", deliveryTimeout(ctx)).catch(() => undefined);
      if (d) noteDeliveryTime(ctx, Math.max(0, d.receivedAt - triggeredAt));
      const number = d ? (payloadOf(d).number as unknown) : undefined;
      if (typeof number === "number") pullNumber = number;
    }
  }
  return triggered;
}

async function deliverEvery(ctx: CaseContext, events: readonly string[], hooks: readonly Installed[]): Promise<void> {
  const paths = new Set(hooks.map((h) => h.path));
  const ours = (d: ReceivedDelivery) => paths.has(d.path);
  const triggered = await triggerEach(ctx, events, ours);
  const required = triggered.filter((e) => !(e in ELSEWHERE));
  const elsewhere = triggered.filter((e) => e in ELSEWHERE);
  const deadline = Date.now() + deliveryTimeout(ctx);
  const waited = await Promise.allSettled(required.map((e) => receivedAt(ctx, (d) => ours(d) && eventOf(d) === e, Math.max(1, deadline - Date.now()))));
  const missing = required.filter((_, i) => waited[i]!.status === "rejected");
  // The others get a short grace once everything required is in: a few times as long as a
  // delivery takes on this target (support.ts quietMs).
  const grace = quietMs(ctx);
  const late = await Promise.allSettled(elsewhere.map((e) => receivedAt(ctx, (d) => ours(d) && eventOf(d) === e, grace)));
  const notArrived = elsewhere.filter((_, i) => late[i]!.status === "rejected");
  if (notArrived.length > 0) ctx.note(`not delivered to these hooks (their triggers may act outside ${hooks.map((h) => (h.place.kind === "repo" ? h.place.full : h.place.org)).join(" and ")}): ${notArrived.map((e) => `${e} (${ELSEWHERE[e]})`).join("; ")}`);

  const absent = missing.map((e) => `${e} was triggered but no ${e} delivery arrived within ${deliveryTimeout(ctx)} ms`);
  if (absent.length > 0) check.fail(`${absent.length} triggered event(s) not delivered: ${absent[0]}`, { expected: "every triggered event delivered", actual: absent });
  const problems: string[] = [];
  const seedProblems: string[] = [];
  const checked = new Set<string>();
  for (const hook of hooks) {
    for (const d of deliveriesAt(ctx, hook.path)) {
      if (eventOf(d) === "ping") continue;
      const problem = problemOf(d, hook);
      if (problem.schema) problems.push(problem.schema);
      if (problem.seed) seedProblems.push(problem.seed);
      if (!problem.schema && !problem.seed) checked.add(eventOf(d)!);
    }
  }
  ctx.note(`payloads checked: ${[...checked].sort().join(", ") || "none"}`);
  if (seedProblems.length > 0) check.fail(`${seedProblems.length} payload(s) name the wrong place: ${seedProblems[0]}`, { expected: "the repository (and organization) where the event occurred", actual: seedProblems });
  // The payload schemas are the contract's (the seed shows no payload's fields but a few):
  // switched off, every event delivered is what is left to check, and it was.
  if (problems.length > 0 && ctx.decisions.on("D-SCHEMA-WEBHOOK-MIRROR")) ctx.rule("D-SCHEMA-WEBHOOK-MIRROR").fail(`${problems.length} problem(s) with the payloads of ${triggered.length} triggered events: ${problems[0]}`, { expected: "each payload valid against its webhook schema", actual: problems });
}

/** The rules each case below enforces (spec/seed-rules.yaml, spec/DECISIONS.md). */
const RULES: Record<string, readonly string[]> = {
  "WEBHOOK-PAYLOAD-001": ["S-WEBHOOK-PAYLOAD", ...PING_RULES, "D-SCHEMA-WEBHOOK-MIRROR", "D-SCHEMA-WEBHOOK-PUSH", "D-SCHEMA-WEBHOOK-REPOSITORY-SENDER", "D-SCHEMA-PUSH-REPOSITORY-OWNER", "D-SCHEMA-REPOSITORY-TIMES", "D-SCHEMA-PUSH-COMMIT"],
  "WEBHOOK-PAYLOAD-002": ["S-WEBHOOK-EVENTS", "S-WEBHOOK-PAYLOAD", "D-SCHEMA-WEBHOOK-MIRROR", "D-SCHEMA-WEBHOOK-ACTION", "D-SCHEMA-WEBHOOK-MEMBERSHIP", "D-SCHEMA-WEBHOOK-FORK", "D-SCHEMA-REPOSITORY-REQUIRED-FIELDS", "D-SCHEMA-NON-URI-URLS", "D-SCHEMA-ISSUE", "D-SCHEMA-MILESTONE", "D-SCHEMA-PULL-REQUEST", "D-SCHEMA-COMMIT-COMMENT", "D-SCHEMA-DEPLOYMENT-PAYLOAD", "D-SCHEMA-PAGE-BUILD", "D-SCHEMA-ORGANIZATION", "D-SCHEMA-USER-TYPE"],
};

export const PAYLOAD_CASES: Case[] = withRules(RULES, [
  webhookCase("WEBHOOK-PAYLOAD-001", "ping, push and issues payloads validate against their webhook schemas and name the hook's repository", SEED.payload, ["trigger"], async (ctx, id) => {
    const place = repoPlace(ctx);
    await withHook(ctx, place, id, { events: ["push", "issues"], secret: freshSecret() }, async (hook) => {
      await ctx.trigger("issues");
      await pushAndPing(ctx, hook);
      const issues = await waitAt(ctx, hook.path, "an issues delivery after the issues trigger", isEvent("issues"));
      const push = await waitAt(ctx, hook.path, "the push delivery", isEvent("push"));
      const ping = await waitAt(ctx, hook.path, "a ping", isPingFor(hook.id));
      checkPing(ctx, ping, hook.id, "the ping");
      for (const [event, d] of [["push", push], ["issues", issues]] as const) {
        const payload = payloadOf(d);
        const schemaRule = event === "push" ? "D-SCHEMA-WEBHOOK-PUSH" : "D-SCHEMA-WEBHOOK-MIRROR";
        if (ctx.decisions.on(schemaRule)) checkPayloadSchema(event, payload, `the ${event} delivery`, ctx.rule(schemaRule));
        checkRepository(payload, place, `the ${event} delivery`);
      }
    });
  }),

  webhookCase("WEBHOOK-PAYLOAD-002", "Every event the profile can trigger is delivered to a * hook with a payload valid against its schema", SEED.payload, ["trigger"], everyEvent),
]);
