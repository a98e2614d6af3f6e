// dispatch.ts — records activity events and fans an occurrence out to subscribed repository, organization and
// service hooks; also the ping delivery and the common webhook envelope (repository, organization, sender).
import { randomUUID } from "node:crypto";
import type { World } from "./ctx.ts";
import { hookObj, orgObj, repoFull, userObj, type Obj } from "./present.ts";
import { service } from "./services.ts";
import { fullName, type ActivityEvent, type Hook, type Repo } from "./store.ts";

/** Events only organization hooks receive. */
export const ORG_ONLY: ReadonlySet<string> = new Set(["repository", "membership"]);

export const subscribed = (h: Hook, event: string): boolean => h.events.includes("*") || h.events.includes(event);

export function record(w: World, type: string, actor: string, repo: Repo, payload: Obj, createdAt = new Date()): ActivityEvent {
  const e: ActivityEvent = { id: randomUUID(), type, actor, repo: fullName(repo), public: !repo.private, payload, createdAt };
  const org = w.store.org(repo.owner);
  if (org) e.org = org.login;
  w.store.events.push(e);
  return e;
}

/** repository / organization / sender around a payload. */
export function envelope(w: World, actor: string, repo: Repo | null, fields: Obj, orgLogin?: string): Obj {
  const out: Obj = { ...fields };
  if (repo) out.repository = repoFull(w, repo);
  const org = w.store.org(orgLogin ?? repo?.owner);
  if (org) out.organization = orgObj(w, org.login);
  out.sender = userObj(w, actor);
  return out;
}

/** Sends one delivery to a hook; null when the hook has nowhere to send. */
export function deliverTo(w: World, h: Hook, event: string, payload: Obj): string | null {
  const field = h.name === "web" ? "url" : service(h.name)?.deliverTo;
  const url = field ? h.config[field] : undefined;
  if (!url) return null;
  return w.deliverer.send(
    { url, secret: h.config.secret, contentType: h.config.content_type, insecure: h.config.insecure_ssl === "1", hookId: h.id },
    event, payload,
  );
}

/** Delivers `event` to every active hook subscribed to it on the repository and/or its organization. */
export function dispatch(w: World, event: string, where: { repo?: Repo; org?: string }, payload: Obj): string[] {
  const repoName = where.repo ? fullName(where.repo) : undefined;
  const orgLogin = w.store.org(where.org ?? where.repo?.owner)?.login;
  const ids: string[] = [];
  for (const h of w.store.hooks.values()) {
    if (!h.active || !subscribed(h, event)) continue;
    const hit = h.scope === "repo" ? !ORG_ONLY.has(event) && h.target === repoName : h.target === orgLogin;
    if (!hit) continue;
    const id = deliverTo(w, h, event, payload);
    if (id) ids.push(id);
  }
  return ids;
}

const ZEN = [
  "Design for failure.", "Keep it logically awesome.", "Responsive is better than fast.", "Half measures are as bad as nothing at all.",
  "Speak like a human.", "Mind your words, they are important.", "Approachable is better than simple.", "Non-blocking is better than blocking.",
];

export function ping(w: World, h: Hook, sender: string): string | null {
  const zen = ZEN[Math.floor(Math.random() * ZEN.length)] ?? "Design for failure.";
  const repo = h.scope === "repo" ? w.store.repo(h.target) ?? null : null;
  const payload = envelope(w, sender, repo, { zen, hook_id: h.id, hook: hookObj(w, h) }, h.scope === "org" ? h.target : undefined);
  return deliverTo(w, h, "ping", payload);
}
