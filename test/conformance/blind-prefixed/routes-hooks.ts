// routes-hooks.ts — repository and organization hooks: create (201 + Location, ping), list, get, edit (add/remove
// events), delete, ping, and the test-push endpoint; service hooks on repositories (one per service, else 409).
import type { FastifyInstance, FastifyRequest } from "fastify";
import { params, requireScope, requireUser, type UserPrincipal } from "./access.ts";
import { WEBHOOK_EVENTS, pushHookPayload, pushRecord } from "./activity.ts";
import { type Ctx, type Hook, type Org, type Repo, type User, canAdmin, nextId, orgById, orgByLogin, repoById, repoByName } from "./model.ts";
import { paginate } from "./paging.ts";
import { hookView, orgView, repoView, userView } from "./present.ts";
import { ApiError, badBody, invalid, notFound } from "./problem.ts";
import { type Service, serviceByName } from "./services.ts";
import { asObject, intParam } from "./util.ts";

const READ = ["admin:repo_hook", "read:repo_hook", "repo", "write:repo_hook"];
const WRITE = ["admin:repo_hook", "repo", "write:repo_hook"];
const ADMIN = ["admin:repo_hook", "repo"];
const ORG = ["admin:org_hook"];
const MASK = "********";
const ZEN = ["Design for failure.", "Keep it logically awesome.", "Speak like a human.", "Responsive is better than fast.",
  "Practicality beats purity.", "Approachable is better than simple.", "Non-blocking is better than blocking.", "Favor focus over features."];

type Target = { p: UserPrincipal; kind: "repo"; repo: Repo } | { p: UserPrincipal; kind: "org"; org: Org };

function target(ctx: Ctx, req: FastifyRequest, kind: "repo" | "org", accepted: string[]): Target {
  const p = requireUser(req);
  const a = params(req);
  if (kind === "repo") {
    const repo = repoByName(ctx.store, a.owner ?? "", a.repo ?? "");
    if (!repo || !canAdmin(ctx.store, p.user, repo)) throw notFound();
    requireScope(p, accepted);
    return { p, kind, repo };
  }
  const org = orgByLogin(ctx.store, a.org ?? "");
  if (!org || !org.admins.has(p.user.id)) throw notFound();
  requireScope(p, ORG);
  return { p, kind, org };
}
const targetId = (t: Target): number => (t.kind === "repo" ? t.repo.id : t.org.id);

/** Org hooks: OAuth tokens see only hooks their application created; personal tokens only user-created hooks. */
function hooksOf(ctx: Ctx, t: Target): Hook[] {
  const appId = t.kind === "org" && t.p.via === "token" ? t.p.authz?.appId ?? null : undefined;
  return ctx.store.hooks.filter((h) => h.kind === t.kind && h.targetId === targetId(t) && (appId === undefined || h.appId === appId));
}
function findHook(ctx: Ctx, req: FastifyRequest, t: Target): Hook {
  const id = intParam(params(req).id, 0);
  const h = hooksOf(ctx, t).find((x) => x.id === id);
  if (!h) throw notFound();
  return h;
}

function readEvents(v: unknown, field: string, allowed: readonly string[]): string[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw invalid("Hook", field, "invalid", `Validation Failed: ${field} must be an array of strings`);
  const bad = (v as string[]).find((x) => !allowed.includes(x));
  if (bad !== undefined) throw invalid("Hook", field, "invalid", `Validation Failed: unsupported event ${bad}`);
  return v as string[];
}
const normEvents = (ev: readonly string[]): string[] => (ev.includes("*") ? ["*"] : [...new Set(ev)]);

function readConfig(v: unknown, service: Service | null, old?: Record<string, string>): Record<string, string> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw invalid("Hook", "config", v === undefined ? "missing_field" : "invalid");
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === null) continue;
    if (typeof x === "string") out[k] = x;
    else if (typeof x === "number" || typeof x === "boolean") out[k] = typeof x === "boolean" ? (x ? "1" : "0") : String(x);
    else throw invalid("Hook", `config.${k}`, "invalid");
  }
  if (service) return out;
  if (out.secret === MASK && old?.secret !== undefined) out.secret = old.secret;
  const url = out.url;
  if (!url) throw invalid("Hook", "url", "missing_field", "Validation Failed: config.url is missing");
  let ok = false;
  try { const u = new URL(url); ok = u.protocol === "http:" || u.protocol === "https:"; } catch { ok = false; }
  if (!ok) throw invalid("Hook", "url", "invalid", "Validation Failed: config.url is not an http(s) URL");
  out.content_type ??= "json";
  if (out.content_type !== "json" && out.content_type !== "form") throw invalid("Hook", "content_type", "invalid");
  out.insecure_ssl ??= "0";
  return out;
}

function readActive(v: unknown, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (typeof v !== "boolean") throw invalid("Hook", "active", "invalid");
  return v;
}

export function pingHook(ctx: Ctx, h: Hook, sender: User): void {
  if (!h.active) return;
  const payload: Record<string, unknown> = { zen: ZEN[Math.floor(Math.random() * ZEN.length)] ?? "Keep it simple.", hook_id: h.id, hook: hookView(ctx, h) };
  const repo = h.kind === "repo" ? repoById(ctx.store, h.targetId) : undefined;
  const org = h.kind === "org" ? orgById(ctx.store, h.targetId) : undefined;
  if (repo) payload.repository = repoView(ctx, repo);
  if (org) payload.organization = orgView(ctx, org);
  payload.sender = userView(ctx, sender);
  ctx.deliver(h, "ping", payload);
}

export function hookRoutes(ctx: Ctx, app: FastifyInstance): void {
  for (const kind of ["repo", "org"] as const) {
    const base = kind === "repo" ? "/repos/:owner/:repo/hooks" : "/orgs/:org/hooks";
    const acc = (level: string[]): { config: { accepted: string[] } } => ({ config: { accepted: kind === "repo" ? level : ORG } });

    app.get(base, acc(READ), async (req, reply) => {
      const t = target(ctx, req, kind, READ);
      return paginate(ctx, req, reply, hooksOf(ctx, t), false).map((h) => hookView(ctx, h));
    });

    app.get(`${base}/:id`, acc(READ), async (req) => hookView(ctx, findHook(ctx, req, target(ctx, req, kind, READ))));

    app.post(base, acc(WRITE), async (req, reply) => {
      const t = target(ctx, req, kind, WRITE);
      const b = asObject(req.body);
      if (!b) throw badBody();
      const name = b.name;
      if (typeof name !== "string" || name === "") throw invalid("Hook", "name", "missing_field");
      const service = name === "web" ? null : serviceByName(name) ?? null;
      if (name !== "web" && !service) throw invalid("Hook", "name", "invalid", `Validation Failed: invalid service name ${name}`);
      if (t.kind === "org" && service) throw invalid("Hook", "name", "invalid", "Validation Failed: organization hooks must be named web");
      const config = readConfig(b.config, service);
      let events = b.events === undefined ? [...(service?.events ?? ["push"])] : normEvents(readEvents(b.events, "events", service?.supported_events ?? WEBHOOK_EVENTS));
      if (events.length === 0) events = [...(service?.events ?? ["push"])];
      const active = readActive(b.active, true);
      if (service && ctx.store.hooks.some((h) => h.kind === "repo" && h.targetId === targetId(t) && h.name === name)) {
        throw new ApiError(409, `A ${name} service hook already exists on this repository`);
      }
      const now = Date.now();
      const h: Hook = {
        id: nextId(ctx.store, "hook", 1), kind, targetId: targetId(t), name, events, active, config, createdAt: now, updatedAt: now,
        appId: t.p.via === "token" ? t.p.authz?.appId ?? null : null, lastResponse: { code: null, status: "unused", message: null }, seed: false,
      };
      ctx.store.hooks.push(h);
      const view = hookView(ctx, h);
      reply.code(201).header("Location", String(view.url));
      if (name === "web") setImmediate(() => pingHook(ctx, h, t.p.user));
      return view;
    });

    app.patch(`${base}/:id`, acc(WRITE), async (req) => {
      const t = target(ctx, req, kind, WRITE);
      const h = findHook(ctx, req, t);
      const b = asObject(req.body);
      if (!b) throw badBody();
      const service = h.name === "web" ? null : serviceByName(h.name) ?? null;
      const allowed = service?.supported_events ?? WEBHOOK_EVENTS;
      const config = b.config === undefined ? h.config : readConfig(b.config, service, h.config);
      let events = b.events === undefined ? h.events : normEvents(readEvents(b.events, "events", allowed));
      if (b.remove_events !== undefined) { const rm = readEvents(b.remove_events, "remove_events", allowed); events = events.filter((e) => !rm.includes(e)); }
      if (b.add_events !== undefined) events = normEvents([...events, ...readEvents(b.add_events, "add_events", allowed)]);
      const active = readActive(b.active, h.active);
      Object.assign(h, { config, events, active, updatedAt: Date.now() });
      return hookView(ctx, h);
    });

    app.delete(`${base}/:id`, acc(kind === "repo" ? ADMIN : ORG), async (req, reply) => {
      const t = target(ctx, req, kind, ADMIN);
      const h = findHook(ctx, req, t);
      ctx.store.hooks = ctx.store.hooks.filter((x) => x !== h);
      return reply.code(204).send();
    });

    app.post(`${base}/:id/pings`, acc(READ), async (req, reply) => {
      const t = target(ctx, req, kind, READ);
      pingHook(ctx, findHook(ctx, req, t), t.p.user);
      return reply.code(204).send();
    });
  }

  // Test push: re-sends the latest push of the repository to this hook (when it is subscribed to push).
  app.post("/repos/:owner/:repo/hooks/:id/tests", { config: { accepted: WRITE } }, async (req, reply) => {
    const t = target(ctx, req, "repo", WRITE);
    const h = findHook(ctx, req, t);
    if (t.kind === "repo" && h.active && (h.events.includes("push") || h.events.includes("*"))) {
      const repo = t.repo;
      const push = repo.lastPush ?? pushRecord(repo, t.p.user, `refs/heads/${repo.defaultBranch}`, "Initial commit");
      const pusher = ctx.store.users.find((u) => u.id === push.actorId) ?? t.p.user;
      const org = repo.isOrg ? orgById(ctx.store, repo.ownerId) : undefined;
      ctx.deliver(h, "push", {
        ...pushHookPayload(ctx, repo, push, pusher), repository: repoView(ctx, repo),
        ...(org ? { organization: orgView(ctx, org) } : {}), sender: userView(ctx, t.p.user),
      });
    }
    return reply.code(204).send();
  });
}
