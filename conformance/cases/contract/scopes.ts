/**
 * CONTRACT-SCOPE-*: a token that lacks the scope an operation needs. One case per scoped operation
 * group; each operation of the group is called with a token (from the web flow) whose scopes stop
 * just short of the group's, on real resources — a hook of the case's own and a delivery of it —
 * so a 404 (or a 200) instead of the 403 cannot be put down to a missing resource.
 *
 * Two levels. The seed (Authentication › Scopes, Scope headers): its scope table says which
 * scopes grant what on hooks (read:repo_hook reads and pings, write:repo_hook also writes,
 * admin:repo_hook also deletes, admin:org_hook for organization hooks), so a token without them is
 * refused, and the answer carries X-Accepted-OAuth-Scopes, a comma-separated list naming a scope
 * that grants the action and not the token's. The contract: the refusal is 403 with a message
 * naming every accepted scope (D-MISSING-SCOPE), the header lists exactly the operation's
 * `x-accepted-scopes` (D-SCOPE-HEADERS), and the operations the seed's table does not place —
 * test and redelivery, beyond the seed — accept what the contract says (D-MISSING-SCOPE).
 */
import type { Case, CaseDraft, CaseContext, Need } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import type { OperationId } from "../../core/http.ts";
import { check, type Checks } from "../../core/failure.ts";
import { acceptedScopes } from "../oauth/accepted-scopes.ts";
import { COMMA_LIST, OAUTH_NEEDS, revokeToken, scopeSet, tokenFor } from "../oauth/support.ts";
import { createBody, hookRequest, installHook, orgPlace, removeHook, repoPlace, type Installed, type Place } from "../hooks/support.ts";
import { backoff, deliveryTimeout, isPingFor, waitAt } from "../webhooks/support.ts";

const SEED = "Authentication › Scopes (spec/DECISIONS.md: Missing scope)";

interface Call {
  operationId: OperationId;
  params: (h: Installed, deliveryId: number) => Record<string, string | number>;
  json?: (ctx: CaseContext) => unknown;
  /** The operation is the contract's alone (a test delivery, a redelivery): the seed's table does not say which scope grants it. */
  beyondSeed?: boolean;
  /** The operation works on the delivery log (D-SCHEMA-DELIVERY-LOG): left out without one. */
  delivery?: boolean;
  /** The decision whose endpoint the operation is (beyond the seed): left out when the profile switches it off. */
  decision?: string;
}

function placeParams(place: Place): Record<string, string> {
  return place.kind === "repo" ? { owner: place.owner, repo: place.repo } : { org: place.org };
}
const onPlace = (h: Installed) => placeParams(h.place);
const onHook = (h: Installed) => ({ ...placeParams(h.place), hook_id: h.id });
const onDelivery = (h: Installed, d: number) => ({ ...onHook(h), delivery_id: d });
const newHookBody = (ctx: CaseContext) => createBody(ctx.receiver!.url(`/CONTRACT-SCOPE/never-${Date.now()}`), {});

/**
 * The delivery log's newest entry of the hook (its creation ping), with the admin token; an
 * attempt is listed once completed. The log is the contract's (D-SCHEMA-DELIVERY-LOG): without
 * it (switched off, or not answering 200) there is no delivery to call the delivery operations
 * on, and those calls are left out — the seed's part (the hook operations) still runs.
 */
async function someDelivery(ctx: CaseContext, hook: Installed): Promise<number | undefined> {
  if (ctx.decisions.off("D-SCHEMA-DELIVERY-LOG")) {
    ctx.note("D-SCHEMA-DELIVERY-LOG is switched off: the delivery operations are left out");
    return undefined;
  }
  await waitAt(ctx, hook.path, "the creation ping", isPingFor(hook.id));
  const op = hook.place.kind === "repo" ? "listRepoHookDeliveries" : "listOrgHookDeliveries";
  const log: Checks = ctx.rule("D-SCHEMA-DELIVERY-LOG");
  const until = Date.now() + deliveryTimeout(ctx);
  const pause = backoff(100);
  for (;;) {
    const res = await ctx.http.request({ operationId: op, params: onHook(hook), token: ctx.profile.users[0]!.token });
    log.status(res.status, 200, `${op} with users[0]'s token`);
    const list = res.status === 200 ? res.json<unknown>() : undefined;
    const first = Array.isArray(list) ? (list[0] as { id?: unknown } | undefined) : undefined;
    if (first && Number.isInteger(first.id)) return first.id as number;
    if (!Array.isArray(list) || Date.now() >= until) {
      log.ok(false, "the hook's delivery log holds its creation ping", { actual: res.text.slice(0, 160), pointer: "/body" });
      return undefined;
    }
    await pause();
  }
}

/**
 * One call with a token of scope `lacking`. `grants`: the scopes the seed's table says grant the
 * group's operations.
 */
async function refused(ctx: CaseContext, call: Call, hook: Installed, deliveryId: number | undefined, token: string, lacking: string, grants: readonly string[]): Promise<void> {
  const accepted = acceptedScopes(call.operationId);
  if (call.delivery && deliveryId === undefined) return;
  if (call.decision && ctx.decisions.off(call.decision)) return;
  const res = await ctx.http.request({ operationId: call.operationId, params: call.params(hook, deliveryId ?? 0), token, ...(call.json ? { json: call.json(ctx) } : {}) });
  // An operation beyond the seed that the target answers 404 is not there at all: that is its own decision's departure, not the scope's.
  const missing: Checks = ctx.rule(call.decision && res.status === 404 ? call.decision : "D-MISSING-SCOPE");
  const seedRule: Checks = call.beyondSeed ? missing : check;
  const seedHeaders: Checks = call.beyondSeed ? missing : ctx.rule("S-SCOPE-HEADERS");
  const where = `${call.operationId} with a token of scope "${lacking}" (it accepts ${accepted.join(", ")})`;
  seedRule.ok(res.status >= 400 && res.status < 500, `${where}: refused with a 4xx — the seed's scope table grants it only with ${grants.join(", ")}`, { expected: "a 4xx", actual: res.status, pointer: "/status" });
  missing.status(res.status, 403, `${where}: 403 for a missing scope, not ${res.status} (D-MISSING-SCOPE)`);
  // The message's text is the error shape's (D-ERRORS owns every error text), read only when it is there.
  if (res.status === 403 && ctx.decisions.on("D-ERRORS")) {
    const body = res.json<unknown>();
    const message = String((body !== null && typeof body === "object" ? (body as { message?: unknown }).message : undefined) ?? "");
    ctx.rule("D-ERRORS").equal(accepted.filter((s) => !message.includes(s)), [], `${where}: the 403 message names every accepted scope (D-ERRORS)`, "/body/message");
  }
  const header = res.headers.get("x-accepted-oauth-scopes");
  seedHeaders.matches(header, COMMA_LIST, `${where}: X-Accepted-OAuth-Scopes is a comma-separated list`, "/headers/x-accepted-oauth-scopes");
  const listed = scopeSet(header);
  seedHeaders.ok(!listed.includes(lacking) && listed.some((s) => grants.includes(s)), `${where}: X-Accepted-OAuth-Scopes names a scope that grants the action (${grants.join(", ")}) and not the token's ${lacking}`, { actual: header, pointer: "/headers/x-accepted-oauth-scopes" });
  ctx.rule("D-SCOPE-HEADERS").equal(listed, accepted, `${where}: X-Accepted-OAuth-Scopes is the contract's x-accepted-scopes (D-SCOPE-HEADERS)`, "/headers/x-accepted-oauth-scopes");
}

function group(id: string, title: string, place: "repo" | "org", lacking: string, grants: readonly string[], calls: Call[]): CaseDraft {
  const needs: Need[] = [...OAUTH_NEEDS, "hook-admin", "receiver", place === "repo" ? "public-repo" : "org"];
  return {
    id,
    title,
    area: "contract",
    seed: SEED,
    needs,
    async run(ctx) {
      const hook = await installHook(ctx, place === "repo" ? repoPlace(ctx) : orgPlace(ctx), id, {});
      let passed = false;
      try {
        const deliveryId = await someDelivery(ctx, hook);
        const { token, scope } = await tokenFor(ctx, lacking);
        try {
          check.equal(scopeSet(scope), scopeSet(lacking), `the token asked for "${lacking}" has just that`, "/body/scope");
          for (const call of calls) await refused(ctx, call, hook, deliveryId, token, lacking, grants);
        } finally {
          await revokeToken(ctx, token);
        }
        passed = true;
      } finally {
        await removeHook(ctx, hook, passed);
      }
    },
  };
}

/** The rules each case below enforces (spec/seed-rules.yaml, spec/DECISIONS.md). */
const HOOK_RULES = ["S-SCOPE-HOOKS", "S-SCOPE-TABLE", "S-SCOPE-HEADERS", "D-MISSING-SCOPE", "D-SCOPE-HEADERS", "D-HOOK-ENDPOINTS", "D-SCHEMA-DELIVERY-LOG", "D-ERRORS", "D-REF-HOOKS-POST-TESTS"] as const;
const RULES: Record<string, readonly string[]> = {
  "CONTRACT-SCOPE-001": HOOK_RULES,
  "CONTRACT-SCOPE-002": HOOK_RULES,
  "CONTRACT-SCOPE-003": HOOK_RULES,
  "CONTRACT-SCOPE-004": HOOK_RULES,
};

/** What the seed's scope table says grants reading, writing and deleting repository hooks, and organization hooks. */
const READ = ["read:repo_hook", "write:repo_hook", "admin:repo_hook"];
const WRITE = ["write:repo_hook", "admin:repo_hook"];
const DELETE = ["admin:repo_hook"];
const ORG = ["admin:org_hook"];

export const SCOPE_CASES: Case[] = withRules(RULES, [
  group("CONTRACT-SCOPE-001", "Reading repository hooks without a hook scope: 403 naming the accepted scopes", "repo", "gist", READ, [
    { operationId: "listRepoHooks", params: onPlace },
    { operationId: "getRepoHook", params: onHook },
    { operationId: "pingRepoHook", params: onHook },
    { operationId: "listRepoHookDeliveries", params: onHook, delivery: true },
    { operationId: "getRepoHookDelivery", params: onDelivery, delivery: true },
  ]),
  group("CONTRACT-SCOPE-002", "Writing repository hooks with read:repo_hook only: 403 naming the accepted scopes", "repo", "read:repo_hook", WRITE, [
    { operationId: "createRepoHook", params: onPlace, json: newHookBody },
    { operationId: "updateRepoHook", params: onHook, json: () => ({ active: true }) },
    { operationId: "testRepoHook", params: onHook, beyondSeed: true, decision: "D-REF-HOOKS-POST-TESTS" },
    { operationId: "redeliverRepoHookDelivery", params: onDelivery, beyondSeed: true, delivery: true },
  ]),
  group("CONTRACT-SCOPE-003", "Deleting a repository hook with write:repo_hook only: 403 naming the accepted scopes", "repo", "write:repo_hook", DELETE, [{ operationId: "deleteRepoHook", params: onHook }]),
  group("CONTRACT-SCOPE-004", "Organization hooks with admin:repo_hook only: 403 naming admin:org_hook", "org", "admin:repo_hook", ORG, [
    { operationId: "listOrgHooks", params: onPlace },
    { operationId: "createOrgHook", params: onPlace, json: newHookBody },
    { operationId: "getOrgHook", params: onHook },
    { operationId: "updateOrgHook", params: onHook, json: () => ({ active: true }) },
    { operationId: "pingOrgHook", params: onHook },
    { operationId: "listOrgHookDeliveries", params: onHook, delivery: true },
    { operationId: "getOrgHookDelivery", params: onDelivery, delivery: true },
    { operationId: "redeliverOrgHookDelivery", params: onDelivery, delivery: true },
    { operationId: "deleteOrgHook", params: onHook },
  ]),
  {
    id: "CONTRACT-SCOPE-005",
    title: "The organization dashboard feed with a token without repo: 403 naming repo",
    area: "contract",
    seed: SEED,
    // The seed asks only for authentication as the user, which a gist token of that user is: that
    // the dashboard wants repo is the contract's (D-ANONYMOUS-ACCESS), and so is the 403.
    rules: ["D-MISSING-SCOPE", "D-FEED-VISIBILITY", "D-ANONYMOUS-ACCESS", "D-SCOPE-HEADERS", "D-ERRORS"],
    needs: [...OAUTH_NEEDS, "org"],
    async run(ctx) {
      const { token } = await tokenFor(ctx, "gist");
      try {
        const login = ctx.profile.users[0]!.login;
        const res = await ctx.http.request({ operationId: "listUserOrgEvents", params: { username: login, org: ctx.profile.org! }, token });
        const where = `/users/${login}/events/orgs/${ctx.profile.org} with a token of scope gist`;
        // That the dashboard wants repo is D-ANONYMOUS-ACCESS; that the refusal is 403, D-MISSING-SCOPE; its text, D-ERRORS.
        ctx.rule("D-ANONYMOUS-ACCESS").ok(res.status >= 400 && res.status < 500, `${where}: refused, the dashboard wants repo`, { expected: "a 4xx", actual: res.status, pointer: "/status" });
        if (res.status < 400) return;
        ctx.rule("D-MISSING-SCOPE").status(res.status, 403, `${where}: 403 for a missing scope`);
        if (res.status === 403 && ctx.decisions.on("D-ERRORS")) {
          const body = res.json<unknown>();
          const message = String((body !== null && typeof body === "object" ? (body as { message?: unknown }).message : undefined) ?? "");
          ctx.rule("D-ERRORS").ok(message.includes("repo"), "the 403 message names the accepted scope repo", { actual: body, pointer: "/body/message" });
        }
        const headers: Checks = ctx.rule("D-SCOPE-HEADERS");
        headers.equal(scopeSet(res.headers.get("x-accepted-oauth-scopes")), acceptedScopes("listUserOrgEvents"), "X-Accepted-OAuth-Scopes is the contract's x-accepted-scopes (D-SCOPE-HEADERS)", "/headers/x-accepted-oauth-scopes");
      } finally {
        await revokeToken(ctx, token);
      }
    },
  },
]);
