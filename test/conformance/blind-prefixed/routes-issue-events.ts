// routes-issue-events.ts — the issue event API: per-issue list, repository-wide list, single event.
import type { FastifyInstance } from "fastify";
import { params, visibleRepo } from "./access.ts";
import type { Ctx } from "./model.ts";
import { paginate } from "./paging.ts";
import { issueEventView } from "./present.ts";
import { notFound } from "./problem.ts";
import { intParam } from "./util.ts";

export function issueEventRoutes(ctx: Ctx, app: FastifyInstance): void {
  const s = ctx.store;
  const opts = { config: { accepted: ["repo"] } };

  app.get("/repos/:owner/:repo/issues/:issue_number/events", opts, async (req, reply) => {
    const repo = visibleRepo(ctx, req);
    const n = intParam(params(req).issue_number, 0);
    const issue = s.issues.find((i) => i.repoId === repo.id && i.number === n);
    if (!issue) throw notFound();
    const list = s.issueEvents.filter((e) => e.issueId === issue.id).sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
    return paginate(ctx, req, reply, list, false).map((e) => issueEventView(ctx, e, false));
  });

  app.get("/repos/:owner/:repo/issues/events", opts, async (req, reply) => {
    const repo = visibleRepo(ctx, req);
    const list = s.issueEvents.filter((e) => e.repoId === repo.id).sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
    return paginate(ctx, req, reply, list, false).map((e) => issueEventView(ctx, e, true));
  });

  app.get("/repos/:owner/:repo/issues/events/:id", opts, async (req) => {
    const repo = visibleRepo(ctx, req);
    const id = intParam(params(req).id, 0);
    const e = s.issueEvents.find((x) => x.id === id && x.repoId === repo.id);
    if (!e) throw notFound();
    return issueEventView(ctx, e, true);
  });
}
