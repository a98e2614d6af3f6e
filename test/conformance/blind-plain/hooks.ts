// hooks.ts — repository and organization hooks (webhooks and service hooks): create (200), list, get, edit with
// add/remove events, delete (200 with the hook), ping (202), test push (204), and the GET /hooks service catalog.
import { needScopes, needUser, paged, type ApiCtx } from "./ctx.ts";
import { ping, deliverTo, envelope, subscribed, ORG_ONLY } from "./dispatch.ts";
import { invalid, notFound, type Reply } from "./http.ts";
import { hookObj } from "./present.ts";
import type { Router } from "./router.ts";
import { catalogObj, service, SERVICES, type Service } from "./services.ts";
import { fullName, type Hook } from "./store.ts";
import { positiveInt, type JsonObject } from "./util.ts";

export const WEBHOOK_EVENTS: ReadonlySet<string> = new Set([
  "*", "commit_comment", "create", "delete", "deployment", "deployment_status", "fork", "gollum", "issue_comment", "issues",
  "member", "membership", "page_build", "public", "pull_request_review_comment", "pull_request", "push", "repository",
  "release", "status", "team_add", "watch",
]);

const REPO_READ = ["read:repo_hook", "write:repo_hook", "admin:repo_hook", "repo"];
const REPO_WRITE = ["write:repo_hook", "admin:repo_hook", "repo"];
const REPO_ADMIN = ["admin:repo_hook", "repo"];
const ORG_SCOPES = ["admin:org_hook"];

interface Where { scope: "repo" | "org"; target: string }

function repoTarget(c: ApiCtx, owner: string | undefined, name: string | undefined, accepted: string[]): Where {
  c.accepted = accepted;
  const u = needUser(c);
  const r = c.w.store.repoOf(owner, name);
  if (!r || !c.w.store.canSee(u.login, r) || !c.w.store.isAdmin(u.login, r)) throw notFound();
  needScopes(c, accepted);
  return { scope: "repo", target: fullName(r) };
}

function orgTarget(c: ApiCtx, login: string | undefined): Where {
  c.accepted = ORG_SCOPES;
  const u = needUser(c);
  const o = c.w.store.org(login);
  if (!o || !o.admins.has(u.login)) throw notFound();
  needScopes(c, ORG_SCOPES);
  return { scope: "org", target: o.login };
}

/** Organization hooks: an OAuth app's token sees the app's hooks, a personal token the users' hooks. */
function visible(c: ApiCtx, h: Hook): boolean {
  if (h.scope !== "org" || c.id.kind !== "user" || c.id.via !== "token") return true;
  return h.byApp === c.id.auth.clientId;
}

function findHook(c: ApiCtx, where: Where, id: string | undefined): Hook {
  const h = c.w.store.hooks.get(positiveInt(id) ?? 0);
  if (!h || h.scope !== where.scope || h.target !== where.target || !visible(c, h)) throw notFound();
  return h;
}

function parseEvents(raw: unknown, field: string, where: Where, svc: Service | undefined): string[] {
  if (!Array.isArray(raw) || !raw.every((e): e is string => typeof e === "string")) throw invalid("invalid", `${field} must be an array of strings`);
  for (const e of raw) {
    const ok = svc ? svc.supported_events.includes(e) || e === "*" : WEBHOOK_EVENTS.has(e) && (where.scope === "org" || !ORG_ONLY.has(e));
    if (!ok) throw invalid("invalid", `${field} contains an unsupported event: ${e}`);
  }
  return [...new Set(raw)];
}

const wildcard = (events: string[]): string[] => (events.includes("*") ? ["*"] : events);

function parseConfig(raw: unknown, svc: Service | undefined): Record<string, string> {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw invalid("missing_field", "config must be an object");
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw as JsonObject)) {
    if (v === null || v === undefined) continue;
    if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") throw invalid("invalid", `config.${k} must be a string`);
    if (svc && !svc.schema.some(([, name]) => name === k)) throw invalid("invalid", `config.${k} is not an option of ${svc.name}`);
    out[k] = typeof v === "boolean" ? (v ? "1" : "0") : String(v);
  }
  if (svc) {
    for (const k of svc.required) if (!out[k]) throw invalid("missing_field", `config.${k} is required`);
    return out;
  }
  const url = out.url;
  if (!url) throw invalid("missing_field", "config.url is required");
  let parsed: URL | undefined;
  try { parsed = new URL(url); } catch { parsed = undefined; }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) throw invalid("invalid", "config.url must be an http(s) URL");
  if (out.content_type !== undefined && out.content_type !== "json" && out.content_type !== "form") throw invalid("invalid", "config.content_type must be json or form");
  if (out.insecure_ssl !== undefined && out.insecure_ssl !== "0" && out.insecure_ssl !== "1") throw invalid("invalid", "config.insecure_ssl must be 0 or 1");
  return out;
}

async function create(c: ApiCtx, where: Where): Promise<Reply> {
  const b = await c.json();
  if (typeof b.name !== "string" || b.name === "") throw invalid("missing_field", "name is required");
  let svc: Service | undefined;
  if (b.name !== "web") {
    if (where.scope === "org") throw invalid("invalid", "Organization hooks must be named web");
    svc = service(b.name);
    if (!svc) throw invalid("invalid", `Unknown service: ${b.name}`);
    const taken = [...c.w.store.hooks.values()].some((h) => h.scope === "repo" && h.target === where.target && h.name === b.name);
    if (taken) throw invalid("already_exists", "Hook already exists on this repository");
  }
  const config = parseConfig(b.config ?? (svc ? {} : undefined), svc);
  const events = b.events === undefined ? [...(svc?.events ?? ["push"])] : wildcard(parseEvents(b.events, "events", where, svc));
  if (b.active !== undefined && typeof b.active !== "boolean") throw invalid("invalid", "active must be a boolean");
  const now = new Date();
  const h: Hook = {
    id: c.w.store.next("hook"), scope: where.scope, target: where.target, name: b.name, events, active: b.active ?? true,
    config, createdAt: now, updatedAt: now, byApp: c.id.kind === "user" && c.id.via === "token" ? c.id.auth.clientId : null,
  };
  c.w.store.hooks.set(h.id, h);
  if (!svc && h.active) ping(c.w, h, needUser(c).login);
  return { status: 200, body: hookObj(c.w, h) };
}

async function edit(c: ApiCtx, where: Where, h: Hook): Promise<Reply> {
  const b = await c.json();
  const svc = h.name === "web" ? undefined : service(h.name);
  const config = b.config === undefined ? h.config : parseConfig(b.config, svc);
  let events = b.events === undefined ? h.events : parseEvents(b.events, "events", where, svc);
  if (b.add_events !== undefined) events = [...new Set([...events, ...parseEvents(b.add_events, "add_events", where, svc)])];
  if (b.remove_events !== undefined) {
    const rm = parseEvents(b.remove_events, "remove_events", where, svc);
    events = events.filter((e) => !rm.includes(e));
  }
  if (b.active !== undefined && typeof b.active !== "boolean") throw invalid("invalid", "active must be a boolean");
  Object.assign(h, { config, events: wildcard(events), active: b.active ?? h.active, updatedAt: new Date() });
  return { status: 200, body: hookObj(c.w, h) };
}

function routes(r: Router<ApiCtx>, base: string, at: (c: ApiCtx, p: Record<string, string>, accepted: string[]) => Where): void {
  const read = (c: ApiCtx, p: Record<string, string>): Where => at(c, p, REPO_READ);
  r.on("GET", base, (c, p) => {
    const where = read(c, p);
    const list = [...c.w.store.hooks.values()].filter((h) => h.scope === where.scope && h.target === where.target && visible(c, h));
    return paged(c, list, (h) => hookObj(c.w, h));
  });
  r.on("POST", base, (c, p) => create(c, at(c, p, REPO_WRITE)));
  r.on("GET", `${base}/:id`, (c, p) => ({ status: 200, body: hookObj(c.w, findHook(c, read(c, p), p.id)) }));
  r.on("PATCH", `${base}/:id`, (c, p) => {
    const where = at(c, p, REPO_WRITE);
    return edit(c, where, findHook(c, where, p.id));
  });
  r.on("DELETE", `${base}/:id`, (c, p) => {
    const h = findHook(c, at(c, p, REPO_ADMIN), p.id);
    c.w.store.hooks.delete(h.id);
    return { status: 200, body: hookObj(c.w, h) };
  });
  r.on("POST", `${base}/:id/pings`, (c, p) => {
    const h = findHook(c, read(c, p), p.id);
    ping(c.w, h, needUser(c).login);
    return { status: 202 };
  });
}

export function registerHooks(r: Router<ApiCtx>): void {
  r.on("GET", "/hooks", (c) => paged(c, SERVICES, catalogObj));
  routes(r, "/repos/:owner/:repo/hooks", (c, p, accepted) => repoTarget(c, p.owner, p.repo, accepted));
  routes(r, "/orgs/:org/hooks", (c, p) => orgTarget(c, p.org));

  r.on("POST", "/repos/:owner/:repo/hooks/:id/tests", (c, p) => {
    const where = repoTarget(c, p.owner, p.repo, REPO_WRITE);
    const h = findHook(c, where, p.id);
    const repo = c.w.store.repo(where.target);
    if (repo && subscribed(h, "push")) {
      const last = repo.lastPush ?? { ref: "refs/heads/master", before: "0".repeat(40), after: repo.heads.get("refs/heads/master") ?? "0".repeat(40), created: false, deleted: false, forced: false, base_ref: null, commits: [], head_commit: null };
      deliverTo(c.w, h, "push", envelope(c.w, needUser(c).login, repo, last));
    }
    return { status: 204 };
  });
}
