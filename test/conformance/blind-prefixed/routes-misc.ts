// routes-misc.ts — the service hook catalogue (GET /hooks), the authenticated user (GET /user) and GET /rate_limit (free of charge).
import type { FastifyInstance } from "fastify";
import { requireUser } from "./access.ts";
import { LIMITS, principalOf } from "./api-auth.ts";
import type { Ctx } from "./model.ts";
import { paginate } from "./paging.ts";
import { userView } from "./present.ts";
import { SERVICES } from "./services.ts";

export function miscRoutes(ctx: Ctx, app: FastifyInstance): void {
  app.get("/hooks", async (req, reply) =>
    paginate(ctx, req, reply, SERVICES, false).map((s) => ({
      name: s.name, title: s.title, events: [...s.events], supported_events: [...s.supported_events], schema: s.schema.map((x) => [...x]),
    })));

  app.get("/user", async (req) => {
    const p = requireUser(req);
    return { ...userView(ctx, p.user), name: p.user.name, email: p.user.email, two_factor_authentication: p.user.totpSecret !== null };
  });

  app.get("/rate_limit", async (req) => {
    const p = principalOf(req);
    const key = p.kind === "user" ? `user:${p.user.id}` : p.kind === "app" ? `app:${p.app.id}` : `ip:${req.ip}`;
    const limit = p.kind === "anon" ? LIMITS.anonymous : LIMITS.authenticated;
    const b = ctx.store.buckets.get(key);
    const used = b && b.resetAt > Date.now() ? b.used : 0;
    const core = { limit, remaining: Math.max(0, limit - used), reset: Math.ceil((b?.resetAt ?? Date.now() + 3_600_000) / 1000) };
    return { resources: { core }, rate: core };
  });
}
