/**
 * Cases written for the suite's own tests against the reference: through the authorize page
 * (approve and deny) with whichever driver the profile names, and a webhook delivered to the
 * built-in receiver after a triggered push. They use only the contract, like the real cases.
 */
import { createHmac } from "node:crypto";
import type { Case } from "../../conformance/core/types.ts";
import { check } from "../../conformance/core/failure.ts";

const HOOK_SECRET = "conformance-secret";

export const AUTHORIZE_CASES: Case[] = [
  {
    id: "REF-AUTHORIZE-001",
    title: "The authorize driver gets a code that exchanges for a token",
    area: "oauth",
    seed: "Web application flow",
    needs: ["app", "authorize"],
    async run(ctx) {
      const app = ctx.profile.app!;
      const location = await ctx.authorize({ client_id: app.clientId, scope: "user", state: "s-1" });
      check.equal(`${location.origin}${location.pathname}`, app.callbackUrl, "redirect to the callback");
      check.equal(location.searchParams.get("state"), "s-1", "state");
      const code = location.searchParams.get("code");
      check.ok(code, "a code");
      const res = await ctx.http.request({ operationId: "createAccessToken", headers: { accept: "application/json" }, form: { client_id: app.clientId, client_secret: app.clientSecret, code } });
      check.matches(res.json<{ access_token?: string }>().access_token, /^[0-9a-f]{40}$/, "a token");
    },
  },
  {
    id: "REF-AUTHORIZE-002",
    title: "Denying on the consent page redirects with access_denied",
    area: "oauth",
    seed: "Web application flow",
    needs: ["app", "authorize"],
    async run(ctx) {
      const location = await ctx.authorize({ client_id: ctx.profile.app!.clientId, scope: "gist", state: "s-2" }, { decision: "deny" });
      check.equal(location.searchParams.get("error"), "access_denied", "error");
      check.equal(location.searchParams.get("state"), "s-2", "state");
    },
  },
];

export const WEBHOOK_CASE: Case = {
    id: "REF-WEBHOOK-001",
    title: "A triggered push is delivered to the built-in receiver, signed over the raw body",
    area: "webhooks",
    seed: "Webhooks",
    needs: ["hook-admin", "receiver", "trigger"],
    async run(ctx) {
      const [owner, repo] = ctx.profile.repos!.public!.split("/") as [string, string];
      const token = ctx.profile.users[0]!.token!;
      const url = ctx.receiver!.url("/hooks/REF-WEBHOOK-001");
      const created = await ctx.http.request({ operationId: "createRepoHook", params: { owner, repo }, token, json: { name: "web", config: { url, content_type: "json", secret: HOOK_SECRET }, events: ["push"], active: true } });
      check.status(created.status, 201);
      const hookId = created.json<{ id: number }>().id;
      await ctx.receiver!.waitFor((d) => d.path === "/hooks/REF-WEBHOOK-001" && d.headers["x-service-event"] === "ping", ctx.profile.deliveryTimeoutMs ?? 10_000);
      await ctx.trigger("push", { commits: "2" });
      const push = await ctx.receiver!.waitFor((d) => d.path === "/hooks/REF-WEBHOOK-001" && d.headers["x-service-event"] === "push", ctx.profile.deliveryTimeoutMs ?? 10_000);
      const expected = `sha256=${createHmac("sha256", HOOK_SECRET).update(push.raw).digest("hex")}`;
      check.equal(push.headers["x-hub-signature-256"], expected, "signature over the raw body", "/headers/x-hub-signature-256");
      check.equal((JSON.parse(push.raw.toString("utf8")) as { commits: unknown[] }).commits.length, 2, "two commits", "/body/commits");
      await ctx.http.request({ operationId: "deleteRepoHook", params: { owner, repo, hook_id: hookId }, token });
    },
  };
