// happen.ts — POST /__test__/happen/:event (Bearer admin key): makes a webhook event or an issue event happen,
// records what the service would record (activity event, issue event) and sends the matching deliveries.
import type { IncomingMessage } from "node:http";
import type { World } from "./ctx.ts";
import { dispatch, envelope } from "./dispatch.ts";
import { errReply, fail, HttpError, invalid, type Reply } from "./http.ts";
import { change, ISSUE_KINDS, pickIssue, PULL_KINDS } from "./issue-changes.ts";
import { MAKERS } from "./makers.ts";
import { Occurrence, type Get } from "./occurrence.ts";
import { userObj, type Obj } from "./present.ts";
import type { User } from "./store.ts";
import { parseJsonObject, randomHex, readBody, safeEqual } from "./util.ts";

/** repository and membership: organization-level events (a repository created under a user reaches no hook). */
function orgEvent(w: World, event: string, actor: User, s: Get): Obj {
  const raw = s("repo") ?? w.org;
  const [ownerPart = "", namePart] = raw.split("/");
  const org = w.store.org(ownerPart);
  const owner = org?.login ?? w.store.user(ownerPart)?.login;
  if (!owner) throw fail(404, "not_found", `No organization or user ${ownerPart}`);
  if (event === "membership") {
    if (!org) throw invalid("invalid", "membership events happen in organizations only");
    const m = w.store.user(s("assignee") ?? s("name") ?? "dave");
    if (!m) throw invalid("invalid", "Unknown member");
    const team = { name: "Owners", id: 1, slug: "owners", permission: "admin", url: `${w.api}/teams/1` };
    const fields = { action: s("action") ?? "added", scope: "team", member: userObj(w, m.login), team };
    return { organization: org.login, member: m.login, deliveries: dispatch(w, "membership", { org: org.login }, envelope(w, actor.login, null, fields, org.login)) };
  }
  // `repo` may name the repository to create, or just select the owner (an existing repository).
  const wanted = s("name") ?? (namePart && !w.store.repoOf(owner, namePart) ? namePart : `new-repo-${w.store.next("new-repo")}`);
  if (!/^[A-Za-z0-9._-]+$/.test(wanted)) throw invalid("invalid", "Invalid repository name");
  let name = wanted;
  for (let n = 2; w.store.repoOf(owner, name); n++) name = `${wanted}-${n}`;
  const repo = w.store.addRepo({
    id: w.store.next("repo", 9000), owner, name, private: false, description: "", collaborators: new Set(),
    createdAt: new Date(), heads: new Map([["refs/heads/master", randomHex(20)]]),
  });
  const o = new Occurrence(w, actor, repo, s);
  o.activity("CreateEvent", { ref: null, ref_type: "repository", master_branch: "master", description: "", pusher_type: "user" });
  o.hook("repository", { action: "created" });
  const made: Obj = { repository: o.full, events: o.events, event: o.events[0], deliveries: o.deliveries };
  if (org) made.organization = org.login;
  return made;
}

function happen(w: World, event: string, body: Record<string, unknown>): Reply {
  const s: Get = (k) => {
    const v = body[k];
    return typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined;
  };
  // A fork needs someone other than the owner; the spare fixture user forks unless an actor is named.
  const fallback = event === "fork" && !s("actor") && w.store.repo(s("repo") ?? w.mainRepo)?.owner === w.main ? "dave" : w.main;
  const actor = w.store.user(s("actor") ?? fallback);
  if (!actor) throw invalid("invalid", "Unknown actor");
  if (event === "repository" || event === "membership") return { status: 200, body: { made: orgEvent(w, event, actor, s) } };
  const maker = MAKERS[event];
  if (!maker && !ISSUE_KINDS.has(event)) throw fail(404, "unknown_event", `Unknown event: ${event}`);
  const repo = w.store.repo(s("repo") ?? w.mainRepo);
  if (!repo) throw fail(404, "not_found", `No repository ${s("repo") ?? ""}`);
  const o = new Occurrence(w, actor, repo, s);
  if (maker) maker(o);
  else change(o, pickIssue(o, PULL_KINDS.has(event) ? "pull" : "issue"), event);
  const made: Obj = { repository: o.full, ...o.made };
  if (o.events.length > 0) Object.assign(made, { event: o.events[0], events: o.events });
  if (o.issueEvents.length > 0) Object.assign(made, { issue_event: o.issueEvents[0], issue_events: o.issueEvents });
  made.deliveries = o.deliveries;
  return { status: 200, body: { made } };
}

export async function testEndpoint(w: World, req: IncomingMessage, url: URL): Promise<Reply> {
  const m = /^\/__test__\/happen\/([^/]+)$/.exec(url.pathname);
  if (req.method !== "POST" || !m?.[1]) { req.resume(); return errReply(404, "not_found", "Not Found"); }
  if (!safeEqual(req.headers.authorization ?? "", `Bearer ${w.adminKey}`)) { req.resume(); return errReply(401, "bad_credentials", "Admin key required"); }
  const buf = await readBody(req);
  const parsed = buf ? parseJsonObject(buf) : { ok: false as const, message: "Body too large" };
  if (!parsed.ok) return errReply(400, "invalid_json", parsed.message);
  let event: string;
  try { event = decodeURIComponent(m[1]); } catch { return errReply(404, "unknown_event", "Unknown event"); }
  try {
    return happen(w, event, parsed.value);
  } catch (e) {
    if (e instanceof HttpError) return e.reply;
    throw e;
  }
}
