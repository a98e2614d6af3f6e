/**
 * HOOKS-OWNERSHIP-*: organization hooks and the token that manages them (seed: Authentication ›
 * Scopes — admin:org_hook: "OAuth tokens only on hooks created by the OAuth application;
 * personal access tokens only on hooks created by a user"; D-REF-HOOKS-ORG-TOKENS: a hook the
 * token may not manage is not there for it, 404). The OAuth token comes from the web flow with
 * the profile's application. The personal token is made for the case with Basic authentication
 * (the non-web flow, without an application) when the profile gives users[0]'s password and keeps
 * the contract's authorizations API; otherwise users[0]'s profile token is taken as one (noted).
 */
import type { Case, CaseContext } from "../../core/types.ts";
import type { HttpResponse } from "../../core/http.ts";
import { HttpClient } from "../../core/http.ts";
import { check } from "../../core/failure.ts";
import { adminToken, createBody, hookPath, receiverOf, SEED, type Hook } from "./support.ts";
import { OAUTH_NEEDS, revokeToken, tokenFor } from "../oauth/support.ts";
import { createToken, freshNote, tidy } from "../oauth/nonweb-support.ts";

/** A token of users[0] without an application, and how to delete it again (when the case made it). */
async function personalToken(ctx: CaseContext): Promise<{ token: string; done: () => Promise<void> }> {
  const user = ctx.profile.users[0]!;
  if (!user.password || ctx.decisions.off("D-NONWEB-AUTHORIZATIONS")) {
    ctx.note("users[0]'s profile token is taken as the personal token (no password, or the authorizations API is switched off)");
    return { token: adminToken(ctx), done: async () => undefined };
  }
  const basic = { username: user.login, password: user.password };
  const created = await createToken(ctx, basic, { scopes: ["admin:org_hook"], note: freshNote("HOOKS-OWNERSHIP-001") });
  return { token: created.token, done: () => tidy(ctx, basic, created.id) };
}

const SCOPES_SEED = `Authentication › Scopes (admin:org_hook); ${SEED.subscription}`;

function orgHooks(ctx: CaseContext, token: string, op: "listOrgHooks" | "getOrgHook" | "createOrgHook" | "deleteOrgHook", options: { id?: number; json?: unknown; client?: HttpClient; validate?: boolean } = {}): Promise<HttpResponse> {
  return (options.client ?? ctx.http).request({
    operationId: op,
    params: { org: ctx.profile.org!, ...(options.id !== undefined ? { hook_id: options.id } : {}) },
    token,
    ...(options.json !== undefined ? { json: options.json } : {}),
    ...(options.validate === false ? { validate: false } : {}),
  });
}

async function listedIds(ctx: CaseContext, token: string, who: string): Promise<number[]> {
  const res = await orgHooks(ctx, token, "listOrgHooks");
  check.status(res.status, 200, `GET /orgs/${ctx.profile.org}/hooks with ${who}`);
  const list = res.json<unknown>();
  check.ok(Array.isArray(list), `GET /orgs/${ctx.profile.org}/hooks lists the hooks as an array`, { expected: "an array of hooks", actual: res.text.slice(0, 160), pointer: "/body" });
  return (list as Hook[]).map((h) => h?.id);
}

export const ORG_TOKEN_CASES: Case[] = [
  {
    id: "HOOKS-OWNERSHIP-001",
    title: "An OAuth token manages only the organization hooks its application created; a personal token only those created without one",
    area: "hooks",
    seed: SCOPES_SEED,
    rules: ["S-SCOPE-HOOKS", "D-REF-HOOKS-ORG-TOKENS", "D-HOOK-ENDPOINTS", "D-HOOK-STATUSES"],
    needs: [...OAUTH_NEEDS, "user", "org", "receiver"],
    async run(ctx) {
      const mine = await personalToken(ctx);
      const personal = mine.token;
      const org = ctx.profile.org!;
      const { token: oauth } = await tokenFor(ctx, "admin:org_hook");
      const made: { id: number; token: string }[] = [];
      const create = async (token: string, who: string, label: string): Promise<number> => {
        const res = await orgHooks(ctx, token, "createOrgHook", { json: createBody(receiverOf(ctx).url(hookPath("HOOKS-OWNERSHIP-001", label)), { events: ["repository"] }) });
        // On the clean-up list before any check, so a hook made with an unexpected status is removed too.
        const body = res.status >= 200 && res.status < 300 ? res.json<unknown>() : undefined;
        const id = body !== null && typeof body === "object" && Number.isInteger((body as Hook).id) ? (body as Hook).id : undefined;
        if (id !== undefined) made.push({ id, token });
        // Creating a hook is the contract's API (the seed shows none): any 2xx with an id, 201 under D-HOOK-STATUSES.
        check.ok(id !== undefined, `POST /orgs/${org}/hooks with ${who} creates the hook (a 2xx with its id)`, { expected: "2xx with an id", actual: `${res.status} ${res.text.slice(0, 160)}`, pointer: "/status" });
        ctx.rule("D-HOOK-STATUSES").status(res.status, 201, `POST /orgs/${org}/hooks with ${who}: 201 Created`);
        return id!;
      };
      try {
        const byApp = await create(oauth, "the OAuth token", "oauth");
        const byUser = await create(personal, "the personal token", "personal");
        const appSees = await listedIds(ctx, oauth, "the OAuth token");
        check.ok(appSees.includes(byApp), "the OAuth token lists the hook its application created", { expected: byApp, actual: appSees, pointer: "/body" });
        check.ok(!appSees.includes(byUser), "the OAuth token does not list the hook created with the personal token", { expected: `not ${byUser}`, actual: appSees, pointer: "/body" });
        const userSees = await listedIds(ctx, personal, "the personal token");
        check.ok(userSees.includes(byUser), "the personal token lists the hook created with it", { expected: byUser, actual: userSees, pointer: "/body" });
        check.ok(!userSees.includes(byApp), "the personal token does not list the hook the application created", { expected: `not ${byApp}`, actual: userSees, pointer: "/body" });
        const foreign = await orgHooks(ctx, personal, "getOrgHook", { id: byApp });
        check.ok(foreign.status >= 400, "the personal token cannot read the application's hook", { expected: "a refusal", actual: foreign.status, pointer: "/status" });
        ctx.rule("D-REF-HOOKS-ORG-TOKENS").status(foreign.status, 404, "… answered 404, as if it were not there");
        const removeForeign = await orgHooks(ctx, oauth, "deleteOrgHook", { id: byUser });
        check.ok(removeForeign.status >= 400, "the OAuth token cannot delete the hook created with the personal token", { expected: "a refusal", actual: removeForeign.status, pointer: "/status" });
        ctx.rule("D-REF-HOOKS-ORG-TOKENS").status(removeForeign.status, 404, "… answered 404");
      } finally {
        const side = new HttpClient(ctx.baseUrl, ctx.authUrl);
        for (const { id, token } of made) {
          const gone = await orgHooks(ctx, token, "deleteOrgHook", { id, client: side, validate: false }).catch((e: Error) => e);
          if (gone instanceof Error || ((gone.status < 200 || gone.status >= 300) && gone.status !== 404)) ctx.note(`left behind: hook ${id} on /orgs/${org}/hooks (DELETE ${gone instanceof Error ? `failed: ${gone.message}` : `answered ${gone.status}`})`);
        }
        await revokeToken(ctx, oauth);
        await mine.done();
      }
    },
  },
];
