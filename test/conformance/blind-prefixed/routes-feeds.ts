// routes-feeds.ts — the nine activity event feeds: 90-day window, 30 per page, 10 pages, visibility rules,
// X-Poll-Interval (ETag/304 is handled by the pipeline).
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { params, privateOk, requireUser, viewerOf, visibleRepo } from "./access.ts";
import { principalOf } from "./api-auth.ts";
import { type Activity, type Ctx, canRead, isOrgMember, orgByLogin, repoById, userByLogin } from "./model.ts";
import { paginate } from "./paging.ts";
import { activityView } from "./present.ts";
import { notFound } from "./problem.ts";
import { DAY } from "./util.ts";

export const POLL_INTERVAL = 60;

export function feedRoutes(ctx: Ctx, app: FastifyInstance): void {
  const s = ctx.store;
  const recent = (): Activity[] => {
    const cutoff = Date.now() - 90 * DAY;
    return s.activities.filter((a) => a.createdAt >= cutoff).sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
  };
  /** Private events are shown only to a caller with access to their repository and a `repo`-capable credential. */
  const visibleTo = (req: FastifyRequest, includePrivate: boolean) => (a: Activity): boolean => {
    if (a.public) return true;
    if (!includePrivate) return false;
    const p = principalOf(req);
    const repo = a.repoId == null ? undefined : repoById(s, a.repoId);
    return p.kind === "user" && privateOk(p) && !!repo && canRead(s, p.user, repo);
  };
  const send = (req: FastifyRequest, reply: FastifyReply, list: Activity[]) => {
    reply.header("X-Poll-Interval", String(POLL_INTERVAL));
    return paginate(ctx, req, reply, list, true).map((a) => activityView(ctx, a));
  };
  const userParam = (req: FastifyRequest) => {
    const u = userByLogin(s, params(req).username ?? "");
    if (!u) throw notFound();
    return u;
  };
  const PUBLIC = { config: { accepted: [] as string[] } };
  const PRIVATE = { config: { accepted: ["repo"] } };

  app.get("/events", PUBLIC, async (req, reply) => send(req, reply, recent().filter((a) => a.public)));

  app.get("/repos/:owner/:repo/events", PRIVATE, async (req, reply) => {
    const repo = visibleRepo(ctx, req);
    return send(req, reply, recent().filter((a) => a.repoId === repo.id).filter(visibleTo(req, true)));
  });

  app.get("/networks/:owner/:repo/events", PUBLIC, async (req, reply) => {
    const repo = visibleRepo(ctx, req);
    let root = repo;
    while (root.forkOf != null) { const parent = repoById(s, root.forkOf); if (!parent) break; root = parent; }
    const inNetwork = (id: number | null): boolean => {
      let r = id == null ? undefined : repoById(s, id);
      while (r) { if (r.id === root.id) return true; r = r.forkOf == null ? undefined : repoById(s, r.forkOf); }
      return false;
    };
    return send(req, reply, recent().filter((a) => a.public && inNetwork(a.repoId)));
  });

  app.get("/orgs/:org/events", PUBLIC, async (req, reply) => {
    const org = orgByLogin(s, params(req).org ?? "");
    if (!org) throw notFound();
    return send(req, reply, recent().filter((a) => a.public && a.orgId === org.id));
  });

  const received = (req: FastifyRequest, reply: FastifyReply, onlyPublic: boolean) => {
    const u = userParam(req);
    const self = !onlyPublic && viewerOf(req)?.id === u.id;
    const watched = new Set(s.repos.filter((r) => r.watchers.has(u.id)).map((r) => r.id));
    return send(req, reply, recent()
      .filter((a) => (a.repoId != null && watched.has(a.repoId)) || u.following.has(a.actorId))
      .filter(visibleTo(req, self)));
  };
  app.get("/users/:username/received_events", PRIVATE, async (req, reply) => received(req, reply, false));
  app.get("/users/:username/received_events/public", PUBLIC, async (req, reply) => received(req, reply, true));

  const performed = (req: FastifyRequest, reply: FastifyReply, onlyPublic: boolean) => {
    const u = userParam(req);
    const self = !onlyPublic && viewerOf(req)?.id === u.id;
    return send(req, reply, recent().filter((a) => a.actorId === u.id).filter(visibleTo(req, self)));
  };
  app.get("/users/:username/events", PRIVATE, async (req, reply) => performed(req, reply, false));
  app.get("/users/:username/events/public", PUBLIC, async (req, reply) => performed(req, reply, true));

  app.get("/users/:username/events/orgs/:org", PRIVATE, async (req, reply) => {
    const p = requireUser(req);
    const u = userParam(req);
    const org = orgByLogin(s, params(req).org ?? "");
    if (p.user.id !== u.id || !org || !isOrgMember(org, u)) throw notFound();
    return send(req, reply, recent().filter((a) => a.orgId === org.id).filter(visibleTo(req, true)));
  });
}
