// feeds.ts — the nine activity event feeds: visibility, the 90-day window, 30 per page and at most 10 pages,
// Link (next, last) and X-Poll-Interval. ETag / 304 is added for every GET by the API pipeline.
import { canRead, hasScopes, needUser, viewer, type ApiCtx } from "./ctx.ts";
import { notFound, type Reply } from "./http.ts";
import { activityObj } from "./present.ts";
import type { Router } from "./router.ts";
import { fullName, type ActivityEvent, type Repo, type User } from "./store.ts";
import { DAY, linkHeader, positiveInt } from "./util.ts";

const PER_PAGE = 30;
const MAX_PAGES = 10;
const WINDOW_MS = 90 * DAY;

function feed(c: ApiCtx, pick: (e: ActivityEvent) => boolean): Reply {
  const cutoff = Date.now() - WINDOW_MS;
  const all: ActivityEvent[] = [];
  const events = c.w.store.events;
  for (let i = events.length - 1; i >= 0 && all.length < PER_PAGE * MAX_PAGES; i--) {
    const e = events[i];
    if (e && e.createdAt.getTime() >= cutoff && pick(e)) all.push(e);
  }
  const page = positiveInt(c.q.get("page")) ?? 1;
  const last = Math.max(1, Math.ceil(all.length / PER_PAGE));
  const headers: Record<string, string> = { "X-Poll-Interval": "60" };
  const link = linkHeader(c.url, page, last, ["next", "last"]);
  if (link) headers.Link = link;
  return { status: 200, body: all.slice((page - 1) * PER_PAGE, page * PER_PAGE).map((e) => activityObj(c.w, e)), headers };
}

/** Whether `u` (authenticated as themselves, with `repo` for private data) may see a private event. */
function privateOk(c: ApiCtx, u: User, e: ActivityEvent): boolean {
  const r = c.w.store.repo(e.repo);
  return r !== undefined && c.w.store.canSee(u.login, r) && hasScopes(c, ["repo"]);
}

function userParam(c: ApiCtx, login: string | undefined): User {
  const u = c.w.store.user(login);
  if (!u) throw notFound();
  return u;
}

const isSelf = (c: ApiCtx, u: User): boolean => viewer(c)?.login === u.login;

function repoParam(c: ApiCtx, owner: string | undefined, name: string | undefined): Repo {
  const r = c.w.store.repoOf(owner, name);
  if (!r || !canRead(c, r)) throw notFound();
  return r;
}

export function registerFeeds(r: Router<ApiCtx>): void {
  r.on("GET", "/events", (c) => feed(c, (e) => e.public));

  r.on("GET", "/repos/:owner/:repo/events", (c, { owner, repo }) => {
    const rp = repoParam(c, owner, repo);
    if (rp.private) c.accepted = ["repo"];
    const name = fullName(rp);
    return feed(c, (e) => e.repo === name);
  });

  r.on("GET", "/networks/:owner/:repo/events", (c, { owner, repo }) => {
    const rp = repoParam(c, owner, repo);
    const store = c.w.store;
    const root = (x: Repo): string => {
      let cur = x;
      for (let n = 0; cur.forkOf && n < 50; n++) cur = store.repo(cur.forkOf) ?? cur;
      return fullName(cur);
    };
    const top = root(rp);
    const network = new Set([...store.repos.values()].filter((x) => root(x) === top).map(fullName));
    return feed(c, (e) => e.public && network.has(e.repo));
  });

  r.on("GET", "/orgs/:org/events", (c, { org }) => {
    const o = c.w.store.org(org);
    if (!o) throw notFound();
    return feed(c, (e) => e.public && e.org === o.login);
  });

  const received = (c: ApiCtx, login: string | undefined, publicOnly: boolean): Reply => {
    const u = userParam(c, login);
    const self = !publicOnly && isSelf(c, u);
    return feed(c, (e) => (u.watching.has(e.repo) || u.following.has(e.actor)) && (e.public || (self && privateOk(c, u, e))));
  };
  r.on("GET", "/users/:username/received_events", (c, p) => received(c, p.username, false));
  r.on("GET", "/users/:username/received_events/public", (c, p) => received(c, p.username, true));

  const performed = (c: ApiCtx, login: string | undefined, publicOnly: boolean): Reply => {
    const u = userParam(c, login);
    const self = !publicOnly && isSelf(c, u);
    return feed(c, (e) => e.actor === u.login && (e.public || (self && privateOk(c, u, e))));
  };
  r.on("GET", "/users/:username/events", (c, p) => performed(c, p.username, false));
  r.on("GET", "/users/:username/events/public", (c, p) => performed(c, p.username, true));

  r.on("GET", "/users/:username/events/orgs/:org", (c, { username, org }) => {
    const me = needUser(c);
    const u = userParam(c, username);
    const o = c.w.store.org(org);
    if (me.login !== u.login || !o || !(o.members.has(u.login) || o.admins.has(u.login))) throw notFound();
    return feed(c, (e) => e.org === o.login && (e.public || privateOk(c, u, e)));
  });
}
