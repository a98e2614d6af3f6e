/**
 * CONTRACT-SCOPE-*: a token that lacks the scope an operation needs (seed: Authentication ›
 * Scopes — the read/write/admin hook scopes; spec/DECISIONS.md, Missing scope: 403 with a message
 * naming the accepted scopes and `X-Accepted-OAuth-Scopes`). One case per scoped operation group;
 * each operation of the group is called with a token (from the web flow) whose scopes stop just
 * short of the group's, on real resources — a hook of the case's own and a delivery of it — so a
 * 404 (or a 200) instead of the 403 cannot be put down to a missing resource.
 */
import type { Case, CaseDraft, CaseContext, Need } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import type { OperationId } from "../../core/http.ts";
import { check } from "../../core/failure.ts";
import { acceptedScopes } from "../oauth/accepted-scopes.ts";
import { OAUTH_NEEDS, revokeToken, scopeSet, tokenFor } from "../oauth/support.ts";
import { createBody, hookRequest, installHook, orgPlace, removeHook, repoPlace, type Installed, type Place } from "../hooks/support.ts";
import { deliveryTimeout, isPingFor, sleep, waitAt } from "../webhooks/support.ts";

const SEED = "Authentication › Scopes (spec/DECISIONS.md: Missing scope)";

interface Call {
  operationId: OperationId;
  params: (h: Installed, deliveryId: number) => Record<string, string | number>;
  json?: (ctx: CaseContext) => unknown;
}

function placeParams(place: Place): Record<string, string> {
  return place.kind === "repo" ? { owner: place.owner, repo: place.repo } : { org: place.org };
}
const onPlace = (h: Installed) => placeParams(h.place);
const onHook = (h: Installed) => ({ ...placeParams(h.place), hook_id: h.id });
const onDelivery = (h: Installed, d: number) => ({ ...onHook(h), delivery_id: d });
const newHookBody = (ctx: CaseContext) => createBody(ctx.receiver!.url(`/CONTRACT-SCOPE/never-${Date.now()}`), {});

/** The delivery log's newest entry of the hook (its creation ping), with the admin token; an attempt is listed once completed. */
async function someDelivery(ctx: CaseContext, hook: Installed): Promise<number> {
  await waitAt(ctx, hook.path, "the creation ping", isPingFor(hook.id));
  const op = hook.place.kind === "repo" ? "listRepoHookDeliveries" : "listOrgHookDeliveries";
  const until = Date.now() + deliveryTimeout(ctx);
  for (;;) {
    const res = await ctx.http.request({ operationId: op, params: onHook(hook), token: ctx.profile.users[0]!.token });
    check.status(res.status, 200, `${op} with users[0]'s token`);
    const [first] = res.json<{ id: number }[]>();
    if (first) return first.id;
    check.ok(Date.now() < until, "the hook's delivery log holds its creation ping", { actual: [], pointer: "/body" });
    await sleep(100);
  }
}

function group(id: string, title: string, place: "repo" | "org", lacking: string, calls: Call[]): CaseDraft {
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
          for (const call of calls) {
            const accepted = acceptedScopes(call.operationId);
            const res = await ctx.http.request({ operationId: call.operationId, params: call.params(hook, deliveryId), token, ...(call.json ? { json: call.json(ctx) } : {}) });
            const where = `${call.operationId} with a token of scope "${lacking}" (it accepts ${accepted.join(", ")})`;
            check.status(res.status, 403, `${where}: 403 for a missing scope, not ${res.status}`);
            const message = String(res.json<{ message?: unknown }>().message ?? "");
            const unnamed = accepted.filter((s) => !message.includes(s));
            check.equal(unnamed, [], `${where}: the 403 message names every accepted scope`, "/body/message");
            check.equal(scopeSet(res.headers.get("x-accepted-oauth-scopes")), accepted, `${where}: X-Accepted-OAuth-Scopes`, "/headers/x-accepted-oauth-scopes");
          }
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
const RULES: Record<string, readonly string[]> = {
  "CONTRACT-SCOPE-001": ["D-MISSING-SCOPE", "S-SCOPE-HOOKS", "S-SCOPE-TABLE", "S-SCOPE-HEADERS", "D-HOOK-ENDPOINTS"],
  "CONTRACT-SCOPE-002": ["D-MISSING-SCOPE", "S-SCOPE-HOOKS", "S-SCOPE-TABLE", "S-SCOPE-HEADERS", "D-HOOK-ENDPOINTS"],
  "CONTRACT-SCOPE-003": ["D-MISSING-SCOPE", "S-SCOPE-HOOKS", "S-SCOPE-TABLE", "S-SCOPE-HEADERS", "D-HOOK-ENDPOINTS"],
  "CONTRACT-SCOPE-004": ["D-MISSING-SCOPE", "S-SCOPE-HOOKS", "S-SCOPE-TABLE", "S-SCOPE-HEADERS", "D-HOOK-ENDPOINTS"],
};

export const SCOPE_CASES: Case[] = withRules(RULES, [
  group("CONTRACT-SCOPE-001", "Reading repository hooks without a hook scope: 403 naming the accepted scopes", "repo", "gist", [
    { operationId: "listRepoHooks", params: onPlace },
    { operationId: "getRepoHook", params: onHook },
    { operationId: "pingRepoHook", params: onHook },
    { operationId: "listRepoHookDeliveries", params: onHook },
    { operationId: "getRepoHookDelivery", params: onDelivery },
  ]),
  group("CONTRACT-SCOPE-002", "Writing repository hooks with read:repo_hook only: 403 naming the accepted scopes", "repo", "read:repo_hook", [
    { operationId: "createRepoHook", params: onPlace, json: newHookBody },
    { operationId: "updateRepoHook", params: onHook, json: () => ({ active: true }) },
    { operationId: "testRepoHook", params: onHook },
    { operationId: "redeliverRepoHookDelivery", params: onDelivery },
  ]),
  group("CONTRACT-SCOPE-003", "Deleting a repository hook with write:repo_hook only: 403 naming the accepted scopes", "repo", "write:repo_hook", [{ operationId: "deleteRepoHook", params: onHook }]),
  group("CONTRACT-SCOPE-004", "Organization hooks with admin:repo_hook only: 403 naming admin:org_hook", "org", "admin:repo_hook", [
    { operationId: "listOrgHooks", params: onPlace },
    { operationId: "createOrgHook", params: onPlace, json: newHookBody },
    { operationId: "getOrgHook", params: onHook },
    { operationId: "updateOrgHook", params: onHook, json: () => ({ active: true }) },
    { operationId: "pingOrgHook", params: onHook },
    { operationId: "listOrgHookDeliveries", params: onHook },
    { operationId: "getOrgHookDelivery", params: onDelivery },
    { operationId: "redeliverOrgHookDelivery", params: onDelivery },
    { operationId: "deleteOrgHook", params: onHook },
  ]),
  {
    id: "CONTRACT-SCOPE-005",
    title: "The organization dashboard feed with a token without repo: 403 naming repo",
    area: "contract",
    seed: SEED,
    rules: ["D-MISSING-SCOPE", "S-FEED-DASHBOARD-AUTH", "D-FEED-VISIBILITY", "D-ANONYMOUS-ACCESS"],
    needs: [...OAUTH_NEEDS, "org"],
    async run(ctx) {
      const { token } = await tokenFor(ctx, "gist");
      try {
        const login = ctx.profile.users[0]!.login;
        const res = await ctx.http.request({ operationId: "listUserOrgEvents", params: { username: login, org: ctx.profile.org! }, token });
        check.status(res.status, 403, `/users/${login}/events/orgs/${ctx.profile.org} with a token of scope gist: 403 for a missing scope`);
        check.ok(String(res.json<{ message?: unknown }>().message ?? "").includes("repo"), "the 403 message names the accepted scope repo", { actual: res.json(), pointer: "/body/message" });
        check.equal(scopeSet(res.headers.get("x-accepted-oauth-scopes")), acceptedScopes("listUserOrgEvents"), "X-Accepted-OAuth-Scopes", "/headers/x-accepted-oauth-scopes");
      } finally {
        await revokeToken(ctx, token);
      }
    },
  },
]);
