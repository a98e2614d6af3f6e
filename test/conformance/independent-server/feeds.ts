/**
 * The independent server's read-only lists: the nine activity feeds (30 a page, ten pages, 90
 * days, weak ETags, 304 free, X-Poll-Interval 45, `Link` with next and last only) and the three
 * issue-event endpoints (integer ids, the issue only where the seed puts it).
 */
import { createHash } from "node:crypto";
import type { ActivityEvent, State } from "./state.ts";
import { activityObject, issueEventObject } from "./shapes.ts";
import { problem, type Answer, type Req } from "./http.ts";
import { covers } from "./oauth.ts";

const PAGE = 30;
const PAGES = 10;
const WINDOW_MS = 90 * 24 * 3600 * 1000;
export const POLL_INTERVAL = "45";

/** `page` as a positive integer; undefined when it is not one. */
function pageOf(req: Req): number | undefined {
  const all = req.url.searchParams.getAll("page");
  if (all.length > 1) return undefined;
  const raw = all[0];
  if (raw === undefined) return 1;
  return /^[1-9][0-9]{0,5}$/.test(raw) ? Number(raw) : undefined;
}

function link(req: Req, page: number, last: number): Record<string, string> {
  if (last <= 1) return {};
  const at = (n: number) => {
    const u = new URL(req.url.href);
    u.searchParams.set("page", String(n));
    return `<${u.href}>`;
  };
  const parts: string[] = [];
  if (page < last) parts.push(`${at(page + 1)}; rel="next"`);
  parts.push(`${at(last)}; rel="last"`);
  return { link: parts.join(", ") };
}

export class Lists {
  constructor(
    private readonly s: State,
    private readonly base: () => string,
  ) {}

  /** Which events a feed path shows, or an Answer when it cannot be read. */
  private feed(req: Req): ActivityEvent[] | Answer | undefined {
    const p = req.path;
    const viewer = req.user?.id;
    // Private events need a token that may read private repositories (seed: scopes limit a token).
    const reader = req.token && covers(req.token.scopes, "repo") ? viewer : undefined;
    const visible = (e: ActivityEvent) => e.public || (reader !== undefined && this.s.canSee(this.s.repoById(e.repoId), reader));
    if (p === "/events") return this.s.events.filter((e) => e.public);
    let m = /^\/(repos|networks)\/([^/]+)\/([^/]+)\/events$/.exec(p);
    if (m) {
      const repo = this.s.repo(m[2]!, m[3]!);
      if (!repo || !this.s.canSee(repo, repo.private ? reader : viewer)) return problem(404, "not_found", "No such repository");
      return this.s.events.filter((e) => e.repoId === repo.id && (m![1] === "repos" ? visible(e) : e.public));
    }
    m = /^\/orgs\/([^/]+)\/events$/.exec(p);
    if (m) {
      const org = this.s.orgs.get(m[1]!.toLowerCase());
      if (!org) return problem(404, "not_found", "No such organization");
      return this.s.events.filter((e) => e.public && this.s.repoById(e.repoId).owner.toLowerCase() === org.login);
    }
    m = /^\/users\/([^/]+)\/(received_events|events)(\/public|\/orgs\/([^/]+))?$/.exec(p);
    if (!m) return undefined;
    const user = this.s.user(m[1]!);
    if (!user) return problem(404, "not_found", "No such user");
    const self = viewer === user.id;
    if (m[3]?.startsWith("/orgs/")) {
      if (!req.user) return problem(401, "unauthenticated", "Sign in as this user to read the dashboard");
      if (!self) return problem(404, "not_found", "Not your dashboard");
      const org = this.s.orgs.get(m[4]!.toLowerCase());
      if (!org) return problem(404, "not_found", "No such organization");
      return this.s.events.filter((e) => this.s.repoById(e.repoId).owner.toLowerCase() === org.login && visible(e));
    }
    const publicOnly = m[3] === "/public" || !self;
    const mine = m[2] === "events" ? (e: ActivityEvent) => e.actorId === user.id : (e: ActivityEvent) => e.actorId !== user.id;
    return this.s.events.filter((e) => mine(e) && (publicOnly ? e.public : visible(e)));
  }

  handleFeed(req: Req): Answer | undefined {
    if (req.method !== "GET") return undefined;
    const got = this.feed(req);
    if (got === undefined || !Array.isArray(got)) return got;
    const page = pageOf(req);
    if (page === undefined || page > PAGES) return problem(422, "bad_page", `page is a whole number from 1 to ${PAGES}`);
    const cutoff = Date.now() - WINDOW_MS;
    const events = got.filter((e) => e.createdAt.getTime() >= cutoff).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || this.s.events.indexOf(b) - this.s.events.indexOf(a)).slice(0, PAGE * PAGES);
    const last = Math.max(1, Math.ceil(events.length / PAGE));
    const body = events.slice((page - 1) * PAGE, page * PAGE).map((e) => activityObject(this.base(), this.s, e));
    const tag = `W/"${createHash("sha1").update(JSON.stringify(body)).update(String(req.user?.id ?? "")).digest("hex").slice(0, 24)}"`;
    const headers = { etag: tag, "x-poll-interval": POLL_INTERVAL, ...link(req, page, last) };
    const inm = req.header("if-none-match");
    if (inm && inm.split(",").map((x) => x.trim()).some((x) => x === tag || x === tag.slice(2) || x === "*")) return { status: 304, headers };
    return { status: 200, headers, json: body };
  }

  handleIssueEvents(req: Req): Answer | undefined {
    if (req.method !== "GET") return undefined;
    const m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(?:(events)(?:\/([^/]+))?|([^/]+)\/events)$/.exec(req.path);
    if (!m) return undefined;
    const repo = this.s.repo(m[1]!, m[2]!);
    if (!repo || !this.s.canSee(repo, req.user?.id)) return problem(404, "not_found", "No such repository");
    const base = this.base();
    if (m[4] !== undefined) {
      const id = /^[0-9]{1,12}$/.test(m[4]) ? Number(m[4]) : NaN;
      const e = this.s.issueEvents.find((x) => x.id === id && x.repoId === repo.id);
      return e ? { status: 200, json: issueEventObject(base, this.s, e, true) } : problem(404, "not_found", "No such issue event");
    }
    let list;
    const withIssue = m[3] === "events";
    if (withIssue) list = this.s.issueEvents.filter((e) => e.repoId === repo.id).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
    else {
      const number = /^[0-9]{1,9}$/.test(m[5]!) ? Number(m[5]) : NaN;
      if (!this.s.issues.some((i) => i.repoId === repo.id && i.number === number)) return problem(404, "not_found", "No such issue");
      list = this.s.issueEvents.filter((e) => e.repoId === repo.id && e.issueNumber === number).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
    }
    const page = pageOf(req);
    if (page === undefined) return problem(422, "bad_page", "page is a whole number from 1");
    const last = Math.max(1, Math.ceil(list.length / PAGE));
    return { status: 200, headers: link(req, Math.min(page, last), last), json: list.slice((page - 1) * PAGE, page * PAGE).map((e) => issueEventObject(base, this.s, e, withIssue)) };
  }
}
