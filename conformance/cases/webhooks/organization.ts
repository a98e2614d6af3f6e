/**
 * WEBHOOK-ORG-*: a field present only in some situations, checked in that situation (spec/
 * DECISIONS.md, Webhook payloads: `organization` present when an organization owns the
 * repository; Ping — `organization` on an organization hook's ping). An organization hook gets a
 * push to one of the organization's repositories — found in the organization's feed, so the case
 * needs no extra profile field — and its payload must name the organization.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import { check, type Checks } from "../../core/failure.ts";
import { orgPlace, SEED, withHook } from "../hooks/support.ts";
import { creationPing, isEvent, mark, payloadOf, webhookCase } from "./support.ts";

const RULES: Record<string, readonly string[]> = {
  // The seed: "repository and/or organization (where the event occurred)" — that organization is
  // there when an organization owns the repository is the contract's word.
  "WEBHOOK-ORG-001": ["S-WEBHOOK-PLACES", "S-WEBHOOK-PAYLOAD", "D-SCHEMA-WEBHOOK-REPOSITORY-SENDER", "D-SCHEMA-WEBHOOK-PING"],
};

/** A repository of the organization, from the organization's public feed (skips when it shows none). */
async function orgRepository(ctx: CaseContext, org: string): Promise<string> {
  const res = await ctx.http.request({ operationId: "listOrgEvents", params: { org }, token: ctx.profile.users[0]?.token });
  check.status(res.status, 200, `GET /orgs/${org}/events`);
  const name = res.json<{ repo?: { name?: string } }[]>().map((e) => e.repo?.name).find((n) => n?.toLowerCase().startsWith(`${org.toLowerCase()}/`));
  if (!name) ctx.skip(`/orgs/${org}/events shows no repository of ${org} to push to`);
  return name;
}

function checkOrganization(checks: Checks, payload: Record<string, unknown>, org: string, where: string): void {
  const got = payload.organization as { login?: string } | undefined;
  checks.ok(got && typeof got === "object", `${where}: the payload carries organization`, { expected: { login: org }, actual: got, pointer: "/body/organization" });
  checks.equal(got?.login?.toLowerCase(), org.toLowerCase(), `${where}: organization is ${org}`, "/body/organization/login");
}

export const ORGANIZATION_CASES: Case[] = withRules(RULES, [
  webhookCase("WEBHOOK-ORG-001", "An organization hook's ping and a push to an organization's repository carry organization", SEED.payload, ["org", "trigger"], async (ctx, id) => {
    const org = ctx.profile.org!;
    const repository = await orgRepository(ctx, org);
    await withHook(ctx, orgPlace(ctx), id, { events: ["push"] }, async (hook) => {
      const ping = await creationPing(ctx, hook);
      if (ping) checkOrganization(ctx.rule("D-SCHEMA-WEBHOOK-PING"), payloadOf(ping), org, "the organization hook's ping");
      const since = mark(ctx, hook.path);
      await ctx.trigger("push", { repo: repository });
      const push = await since.next(`the push to ${repository}`, isEvent("push"));
      const payload = payloadOf(push);
      check.equal((payload.repository as { full_name?: string } | undefined)?.full_name?.toLowerCase(), repository.toLowerCase(), `the push is to ${repository}`, "/body/repository/full_name");
      checkOrganization(ctx.rule("D-SCHEMA-WEBHOOK-REPOSITORY-SENDER"), payload, org, `the push to ${repository}, a repository of ${org}`);
    });
  }),
]);
