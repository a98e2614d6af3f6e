/**
 * The independent server's hooks: repository and organization webhooks (created with 200, pinged
 * with 202, deleted with 200 and a body), service hooks from its own catalog (`GET /hooks` in its
 * own shape), and deliveries — a JSON POST with the seed's headers, signed with HMAC-SHA256 only
 * (`X-Hub-Signature: sha256=…`). Scopes as the seed's table gives them; admin:org_hook tokens
 * only on hooks made the same way (application or personal).
 */
import { createHmac, randomUUID } from "node:crypto";
import type { Hook, Repo, State, User } from "./state.ts";
import { SERVICES } from "./state.ts";
import { hookObject, repoObject, userObject } from "./shapes.ts";
import { bodyOf, problem, type Answer, type Req } from "./http.ts";
import { covers } from "./oauth.ts";

export const WEBHOOK_EVENTS = ["*", "commit_comment", "create", "delete", "deployment", "deployment_status", "fork", "gollum", "issue_comment", "issues", "member", "membership", "page_build", "public", "pull_request_review_comment", "pull_request", "push", "repository", "release", "status", "team_add", "watch"];

const ZEN = ["Keep it small.", "Say what you mean.", "Fewer moving parts."];

export interface HookOptions {
  /** Test-only breach of the seed: ping hooks that are not active. */
  pingInactive?: boolean;
  /** Test-only breach of the seed: sign with a key other than the hook's secret. */
  wrongSignature?: boolean;
}

export class Hooks {
  /** Deliveries in flight, so close() can wait for them. */
  readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly s: State,
    private readonly base: () => string,
    private readonly options: HookOptions = {},
  ) {}

  /** Where a hook path points: the repository or the organization, after access and scope checks. */
  private place(req: Req, m: RegExpExecArray, write: "read" | "write" | "admin"): { place: Hook["place"]; repo?: Repo } | Answer {
    if (!req.user || !req.token) return problem(401, "unauthenticated", "A token is needed for hooks");
    const scopes = req.token.scopes;
    if (m[1] === "repos") {
      const repo = this.s.repo(m[2]!, m[3]!);
      if (!repo || !this.s.administers(repo, req.user.id)) return problem(404, "not_found", "No such repository (or not yours)");
      const need = write === "read" ? "read:repo_hook" : write === "write" ? "write:repo_hook" : "admin:repo_hook";
      if (!covers(scopes, need)) return problem(403, "scope_missing", `This needs ${need}`, { "x-accepted-oauth-scopes": `${need},admin:repo_hook` });
      return { place: { repoId: repo.id }, repo };
    }
    const org = this.s.orgs.get(m[2]!.toLowerCase());
    if (!org || !org.admins.includes(req.user.id)) return problem(404, "not_found", "No such organization (or not yours)");
    if (!covers(scopes, "admin:org_hook")) return problem(403, "scope_missing", "This needs admin:org_hook", { "x-accepted-oauth-scopes": "admin:org_hook" });
    return { place: { org: org.login } };
  }

  /** Seed: admin:org_hook works only on org hooks made the same way (OAuth app vs personal token). */
  private mayTouch(req: Req, h: Hook): boolean {
    if ("repoId" in h.place) return true;
    return (h.createdBy.clientId ?? null) === (req.token?.clientId ?? null);
  }

  handle(req: Req): Answer | Promise<Answer> | undefined {
    if (req.path === "/hooks" && req.method === "GET") return { status: 200, json: { services: Object.entries(SERVICES).map(([key, v]) => ({ key, accepts: v.events, settings: v.options })) } };
    const m = /^\/(repos)\/([^/]+)\/([^/]+)\/hooks(?:\/([^/]+)(\/pings)?)?$|^\/(orgs)\/([^/]+)\/hooks(?:\/([^/]+)(\/pings)?)?$/.exec(req.path);
    if (!m) return undefined;
    const norm = m[1] ? m : ([m[0], m[6], m[7], undefined, m[8], m[9]] as unknown as RegExpExecArray);
    const [, , , , idText, pings] = norm;
    const level = req.method === "GET" ? "read" : req.method === "DELETE" ? "admin" : "write";
    const where = this.place(req, norm, level);
    if ("status" in where) return where;
    const mine = this.s.hooks.filter((h) => JSON.stringify(h.place) === JSON.stringify(where.place));
    if (idText === undefined) {
      const page = req.url.searchParams.getAll("page");
      if (page.length > 1 || (page[0] !== undefined && !/^[1-9][0-9]{0,5}$/.test(page[0]))) return problem(422, "bad_page", "page is a whole number from 1");
      if (req.method === "GET") return { status: 200, json: page[0] !== undefined && page[0] !== "1" ? [] : mine.filter((h) => this.mayTouch(req, h)).map((h) => hookObject(this.base(), this.s, h)) };
      if (req.method === "POST") return this.create(req, where.place, where.repo);
      return problem(405, "method_not_allowed", "GET or POST here");
    }
    const hook = /^[0-9]{1,9}$/.test(idText) ? mine.find((h) => h.id === Number(idText)) : undefined;
    if (!hook || !this.mayTouch(req, hook)) return problem(404, "not_found", "No such hook");
    if (pings) {
      if (req.method !== "POST") return problem(405, "method_not_allowed", "POST here");
      this.ping(hook);
      return { status: 202, json: { queued: true } };
    }
    if (req.method === "GET") return { status: 200, json: hookObject(this.base(), this.s, hook) };
    if (req.method === "DELETE") {
      this.s.hooks = this.s.hooks.filter((h) => h !== hook);
      return { status: 200, json: { deleted: hook.id } };
    }
    if (req.method === "PATCH") return this.edit(req, hook);
    return problem(405, "method_not_allowed", "GET, PATCH or DELETE here");
  }

  private events(value: unknown, allowed: string[]): string[] | string {
    if (!Array.isArray(value) || value.some((e) => typeof e !== "string")) return "events is a list of event names";
    const bad = value.filter((e) => !allowed.includes(e));
    if (bad.length > 0) return `unknown events: ${bad.join(", ")}`;
    return value.includes("*") ? ["*"] : [...new Set(value as string[])];
  }

  private config(value: unknown, service: boolean): Record<string, string> | string {
    if (!value || typeof value !== "object" || Array.isArray(value)) return "config is an object";
    const c = value as Record<string, unknown>;
    if (Object.values(c).some((v) => typeof v !== "string")) return "config values are strings";
    if (!service) {
      if (typeof c.url !== "string" || !/^https?:\/\/[^\s@/]+(\/[^\s]*)?$/.test(c.url)) return "config.url is an http(s) URL without user info";
      if (c.content_type !== undefined && c.content_type !== "json") return "this service delivers JSON only (content_type json)";
    }
    return c as Record<string, string>;
  }

  private create(req: Req, place: Hook["place"], repo: Repo | undefined): Answer {
    const orgOnly = (events: unknown) => repo !== undefined && Array.isArray(events) && events.some((e) => e === "membership" || e === "repository");
    const body = bodyOf(req);
    if (!body) return problem(400, "unreadable", "The body is not a JSON object");
    const name = body.name;
    const service = typeof name === "string" && name !== "web" ? SERVICES[name] : undefined;
    if (name !== "web" && !service) return problem(422, "invalid", "name is web or a service of GET /hooks");
    if (service && !repo) return problem(422, "invalid", "service hooks go on repositories only");
    if (service && this.s.hooks.some((h) => h.name === name && JSON.stringify(h.place) === JSON.stringify(place))) return problem(422, "invalid", `this repository already has a ${name} hook`);
    const config = this.config(body.config, Boolean(service));
    if (typeof config === "string") return problem(422, "invalid", config);
    const events = body.events === undefined ? (service ? [...service.events] : ["push"]) : this.events(body.events, service ? service.events : WEBHOOK_EVENTS);
    if (typeof events === "string") return problem(422, "invalid", events);
    // Seed: membership and repository are organization hooks only.
    if (orgOnly(events)) return problem(422, "invalid", "membership and repository are for organization hooks");
    if (body.active !== undefined && typeof body.active !== "boolean") return problem(422, "invalid", "active is true or false");
    const now = new Date();
    const hook: Hook = { id: this.s.next(), place, name: name as string, events, active: body.active !== false, config, createdBy: { userId: req.user!.id, ...(req.token?.clientId ? { clientId: req.token.clientId } : {}) }, createdAt: now, updatedAt: now };
    this.s.hooks.push(hook);
    if (!service && (hook.active || this.options.pingInactive)) this.ping(hook);
    return { status: 200, json: hookObject(this.base(), this.s, hook) };
  }

  private edit(req: Req, hook: Hook): Answer {
    const body = bodyOf(req);
    if (!body) return problem(400, "unreadable", "The body is not a JSON object");
    const allowed = hook.name === "web" ? WEBHOOK_EVENTS : SERVICES[hook.name]!.events;
    let events = hook.events;
    if (body.events !== undefined) {
      const e = this.events(body.events, allowed);
      if (typeof e === "string") return problem(422, "invalid", e);
      events = e;
    }
    for (const key of ["add_events", "remove_events"] as const) {
      if (body[key] === undefined) continue;
      const e = this.events(body[key], allowed);
      if (typeof e === "string") return problem(422, "invalid", e);
      events = key === "add_events" ? (e.includes("*") ? ["*"] : [...new Set([...events, ...e])]) : events.filter((x) => !e.includes(x));
    }
    if (body.active !== undefined && typeof body.active !== "boolean") return problem(422, "invalid", "active is true or false");
    let config = hook.config;
    if (body.config !== undefined) {
      const c = this.config(body.config, hook.name !== "web");
      if (typeof c === "string") return problem(422, "invalid", c);
      config = { ...(hook.config.secret !== undefined && c.secret === undefined ? { secret: hook.config.secret } : {}), ...c };
    }
    Object.assign(hook, { events, config, active: body.active ?? hook.active, updatedAt: new Date() });
    return { status: 200, json: hookObject(this.base(), this.s, hook) };
  }

  private ping(hook: Hook): void {
    if (!hook.active && !this.options.pingInactive) return;
    this.deliver(hook, "ping", { zen: ZEN[hook.id % ZEN.length], hook_id: hook.id, hook: hookObject(this.base(), this.s, hook) });
  }

  /** An event on `repo` by `actor`: delivered to its active hooks and its organization's that take it. */
  emit(repo: Repo, actor: User, event: string, fields: Record<string, unknown>): void {
    const org = this.s.orgs.get(repo.owner.toLowerCase());
    const payload = { ...fields, repository: repoObject(this.base(), this.s, repo), sender: userObject(this.base(), actor), ...(org ? { organization: { login: org.login, id: org.id, url: `${this.base()}/orgs/${org.login}` } } : {}) };
    for (const hook of this.s.hooks) {
      const here = "repoId" in hook.place ? hook.place.repoId === repo.id : hook.place.org === org?.login;
      if (!here || hook.name !== "web" || !hook.active) continue;
      if (hook.events.includes("*") || hook.events.includes(event)) this.deliver(hook, event, payload);
    }
  }

  private deliver(hook: Hook, event: string, payload: unknown): void {
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "Service-Hookshot/indie-2.1", "x-service-event": event, "x-service-delivery": randomUUID() };
    const secret = hook.config.secret;
    if (secret !== undefined && secret !== "") headers["x-hub-signature"] = `sha256=${createHmac("sha256", this.options.wrongSignature ? `${secret}x` : secret).update(body).digest("hex")}`;
    const sending = fetch(hook.config.url!, { method: "POST", headers, body, signal: AbortSignal.timeout(5000) })
      .then((r) => r.arrayBuffer())
      .then(() => undefined, () => undefined);
    this.pending.add(sending);
    void sending.finally(() => this.pending.delete(sending));
  }
}
