// routes-trigger.ts — test-only POST /_test/trigger/:event (X-Test-Admin): makes a webhook event or an issue event
// kind happen, recording what the service would record and sending the matching deliveries. Not rate-limited.
import type { FastifyInstance } from "fastify";
import { params } from "./access.ts";
import {
  ISSUE_EVENT_KINDS, WEBHOOK_EVENTS, createIssue, emit, issueActivity, issueEvent, pushActivityPayload, pushHookPayload, pushRecord,
} from "./activity.ts";
import { type Ctx, type Issue, type Org, type Repo, type User, fullName, nextId, orgByLogin, orgOfRepo, repoByName, userByLogin } from "./model.ts";
import { issueView, pullView, repoView, userView } from "./present.ts";
import { ApiError, badBody, notFound } from "./problem.ts";
import { addRepo } from "./seed.ts";
import { asObject, fakeSha, iso, safeEqual } from "./util.ts";

type Fields = Partial<Record<"repo" | "actor" | "number" | "action" | "ref" | "ref_type" | "name" | "title" | "label" | "assignee" | "milestone", string>>;
type Result = Record<string, unknown>;

export function triggerRoutes(ctx: Ctx, app: FastifyInstance, defaults: { repo: string; org: string; actor: string; other: string }): void {
  const s = ctx.store;

  app.post("/_test/trigger/:event", async (req, reply) => {
    const key = req.headers["x-test-admin"];
    if (typeof key !== "string" || !safeEqual(key, ctx.adminKey)) throw new ApiError(403, "X-Test-Admin key required");
    const raw = asObject(req.body);
    if (!raw) throw badBody();
    const b: Fields = {};
    for (const [k, v] of Object.entries(raw)) if (typeof v === "string" || typeof v === "number") (b as Record<string, string>)[k] = String(v);
    const event = params(req).event ?? "";
    const actor = userByLogin(s, b.actor ?? defaults.actor);
    if (!actor) throw new ApiError(422, `Unknown actor ${b.actor ?? ""}`);
    let result: Result;
    if (event === "repository") result = repositoryEvent(b, actor);
    else if (event === "membership") result = membershipEvent(b, actor);
    else {
      const [owner = "", name = ""] = (b.repo ?? defaults.repo).split("/");
      const repo = repoByName(s, owner, name);
      if (!repo) throw notFound();
      if (ISSUE_EVENT_KINDS.includes(event)) result = issueKind(repo, actor, event, b);
      else if (WEBHOOK_EVENTS.includes(event) && event !== "*") result = webhookEvent(event, repo, actor, b);
      else throw new ApiError(422, `Unknown event ${event}`);
    }
    reply.code(201);
    return result;
  });

  const base = (event: string, repo: Repo, extra: Result = {}): Result => ({ event, repository: fullName(repo), ...extra });
  const seq = (): number => nextId(s, "trigger", 1);
  const userOr = (login: string | undefined, fallback: User): User => (login ? userByLogin(s, login) : undefined) ?? fallback;

  /** The issue (or pull request) named by `number`, else the first of the right kind, else a new one. */
  function pickIssue(repo: Repo, actor: User, b: Fields, pull: boolean | null): Issue {
    if (b.number !== undefined) {
      const i = s.issues.find((x) => x.repoId === repo.id && String(x.number) === b.number);
      if (!i) throw notFound();
      return i;
    }
    return s.issues.find((x) => x.repoId === repo.id && (pull === null || x.isPull === pull))
      ?? createIssue(ctx, repo, actor, pull ? "A pull request" : "An issue", pull === true);
  }

  function issueKind(repo: Repo, actor: User, kind: string, b: Fields): Result {
    const pullOnly = kind === "merged" || kind.startsWith("head_ref_");
    const issue = pickIssue(repo, actor, b, pullOnly ? true : b.number === undefined ? false : null);
    if (pullOnly && !issue.isPull) throw new ApiError(422, `${kind} applies to pull requests only`);
    const o = { label: b.label, assignee: b.assignee, milestone: b.milestone, title: b.title, commit: b.ref };
    const events = [issueEvent(ctx, issue, actor, kind, o)];
    if (kind === "merged") events.push(issueEvent(ctx, issue, actor, "closed", { commit: events[0]?.commitId ?? undefined }));
    const last = events[events.length - 1];
    const act = issueActivity(ctx, issue, actor, kind, last);
    return base(issue.isPull ? "pull_request" : "issues", repo, { kind, issue: issue.number, issue_events: events.map((e) => e.id), ...act });
  }

  function openIssue(repo: Repo, actor: User, b: Fields, pull: boolean): Result {
    const issue = createIssue(ctx, repo, actor, b.title ?? (pull ? "New pull request" : "New issue"), pull);
    const act = issueActivity(ctx, issue, actor, "opened");
    return base(pull ? "pull_request" : "issues", repo, { issue: issue.number, action: "opened", ...act });
  }

  function repositoryEvent(b: Fields, actor: User): Result {
    const [o, n] = b.repo?.includes("/") ? b.repo.split("/") : [defaults.org, b.repo];
    const org = orgByLogin(s, o ?? "");
    if (!org) throw new ApiError(422, "The repository event needs an organization");
    const name = n || b.name || `new-repo-${seq()}`;
    if (repoByName(s, org.login, name)) throw new ApiError(422, `Repository ${org.login}/${name} already exists`);
    const repo = addRepo(ctx, org, name, false);
    const act = emit(ctx, actor, repo, "CreateEvent", null, { ref: null, ref_type: "repository", master_branch: "master", description: repo.description, pusher_type: "user" });
    const hooked = emit(ctx, actor, repo, null, "repository", { action: "created" }, org);
    return { event: "repository", repository: fullName(repo), activity: act.activity, deliveries: hooked.deliveries };
  }

  function membershipEvent(b: Fields, actor: User): Result {
    const [o = defaults.org, n] = (b.repo ?? defaults.org).split("/");
    const repo = n ? repoByName(s, o, n) : undefined;
    const org: Org | undefined = (repo ? orgOfRepo(s, repo) ?? undefined : undefined) ?? orgByLogin(s, o);
    if (!org) throw new ApiError(422, "The membership event needs an organization");
    const member = userOr(b.assignee ?? b.name, userByLogin(s, defaults.other) ?? actor);
    const team = { name: b.title ?? "Owners", id: seq(), slug: (b.title ?? "owners").toLowerCase(), permission: "admin", url: `${ctx.api}/teams/1` };
    const act = emit(ctx, actor, null, null, "membership", { action: b.action ?? "added", scope: "team", member: userView(ctx, member), team }, org);
    return { event: "membership", organization: org.login, ...act };
  }

  function webhookEvent(event: string, repo: Repo, actor: User, b: Fields): Result {
    const n = seq(), now = iso(Date.now()), full = fullName(repo), api = `${ctx.api}/repos/${full}`;
    const comment = (extra: Result): Result => ({ id: n, url: `${api}/comments/${n}`, html_url: `${ctx.web}/${full}#comment-${n}`, user: userView(ctx, actor), body: b.title ?? "A comment", created_at: now, updated_at: now, ...extra });
    const plain = (type: string | null, payload: Result, extra: Result = {}): Result => base(event, repo, { ...extra, ...emit(ctx, actor, repo, type, event, payload) });
    switch (event) {
      case "push": {
        const ref = b.ref ? (b.ref.startsWith("refs/") ? b.ref : `refs/heads/${b.ref}`) : `refs/heads/${repo.defaultBranch}`;
        const p = pushRecord(repo, actor, ref, b.title ?? "Update README.md");
        const a = emit(ctx, actor, repo, "PushEvent", null, pushActivityPayload(ctx, repo, p, actor));
        const h = emit(ctx, actor, repo, null, "push", pushHookPayload(ctx, repo, p, actor));
        return base(event, repo, { ref, after: p.after, activity: a.activity, deliveries: h.deliveries });
      }
      case "create": case "delete": {
        const refType = b.ref_type ?? "branch";
        if (!["branch", "tag"].includes(refType)) throw new ApiError(422, "ref_type must be branch or tag");
        const ref = b.ref ?? `feature-${n}`;
        const payload = event === "create" ? { ref, ref_type: refType, master_branch: repo.defaultBranch, description: repo.description, pusher_type: "user" } : { ref, ref_type: refType, pusher_type: "user" };
        return plain(event === "create" ? "CreateEvent" : "DeleteEvent", payload, { ref, ref_type: refType });
      }
      case "issues": case "pull_request": {
        const action = b.action ?? "opened";
        const pull = event === "pull_request";
        if (action === "opened") return openIssue(repo, actor, b, pull);
        const kind = action === "edited" ? "renamed" : action;
        if (ISSUE_EVENT_KINDS.includes(kind)) {
          return issueKind(repo, actor, kind, { ...b, number: b.number ?? String(pickIssue(repo, actor, b, pull).number) });
        }
        const issue = pickIssue(repo, actor, b, pull);
        const payload = pull ? { action, number: issue.number, pull_request: pullView(ctx, issue) } : { action, issue: issueView(ctx, issue) };
        return plain(pull ? "PullRequestEvent" : "IssuesEvent", payload, { issue: issue.number, action });
      }
      case "issue_comment": {
        const issue = pickIssue(repo, actor, b, null);
        issue.comments++;
        return plain("IssueCommentEvent", { action: "created", issue: issueView(ctx, issue), comment: comment({ issue_url: `${api}/issues/${issue.number}` }) }, { issue: issue.number, comment: n });
      }
      case "pull_request_review_comment": {
        const pr = pickIssue(repo, actor, b, true);
        const c = comment({ path: "README.md", position: 1, commit_id: repo.lastPush?.after ?? fakeSha(), pull_request_url: `${api}/pulls/${pr.number}` });
        return plain("PullRequestReviewCommentEvent", { action: "created", comment: c, pull_request: pullView(ctx, pr) }, { issue: pr.number, comment: n });
      }
      case "commit_comment":
        return plain("CommitCommentEvent", { action: "created", comment: comment({ commit_id: repo.lastPush?.after ?? fakeSha(), path: null, position: null, line: null }) }, { comment: n });
      case "release": {
        const tag = b.name ?? b.ref ?? `v1.0.${n}`;
        const release = { url: `${api}/releases/${n}`, html_url: `${ctx.web}/${full}/releases/${tag}`, id: n, tag_name: tag, target_commitish: repo.defaultBranch, name: b.title ?? tag, draft: false, author: userView(ctx, actor), prerelease: false, created_at: now, published_at: now, body: "" };
        return plain("ReleaseEvent", { action: "published", release }, { release: n });
      }
      case "watch":
        repo.watchers.add(actor.id);
        return plain("WatchEvent", { action: "started" });
      case "fork": {
        let name = b.name ?? repo.name;
        for (let i = 1; repoByName(s, actor.login, name); i++) name = `${b.name ?? repo.name}-${i}`;
        const fork = addRepo(ctx, actor, name, repo.private, Date.now(), repo.id);
        return plain("ForkEvent", { forkee: repoView(ctx, fork) }, { fork: fullName(fork) });
      }
      case "member": {
        const member = userOr(b.assignee ?? b.name, userByLogin(s, defaults.other) ?? actor);
        repo.collaborators.add(member.id);
        return plain("MemberEvent", { action: "added", member: userView(ctx, member) }, { member: member.login });
      }
      case "public":
        repo.private = false;
        return plain("PublicEvent", {});
      case "gollum":
        return plain("GollumEvent", { pages: [{ page_name: b.name ?? "Home", title: b.title ?? b.name ?? "Home", summary: null, action: b.action ?? "edited", sha: fakeSha(), html_url: `${ctx.web}/${full}/wiki/${b.name ?? "Home"}` }] });
      case "team_add":
        return plain("TeamAddEvent", { team: { name: b.name ?? "Owners", id: n, slug: (b.name ?? "owners").toLowerCase(), permission: "pull", url: `${ctx.api}/teams/${n}` } });
      case "deployment": case "deployment_status": {
        const deployment = { url: `${api}/deployments/${n}`, id: n, sha: repo.lastPush?.after ?? fakeSha(), ref: b.ref ?? repo.defaultBranch, task: "deploy", payload: {}, environment: b.name ?? "production", description: b.title ?? null, creator: userView(ctx, actor), created_at: now, updated_at: now, statuses_url: `${api}/deployments/${n}/statuses`, repository_url: api };
        if (event === "deployment") return plain(null, { deployment });
        return plain(null, { deployment_status: { url: `${api}/deployments/${n}/statuses/${n}`, id: n, state: b.action ?? "success", creator: userView(ctx, actor), description: b.title ?? "", target_url: "", created_at: now, updated_at: now, deployment_url: deployment.url, repository_url: api }, deployment });
      }
      case "status": {
        const sha = repo.lastPush?.after ?? fakeSha();
        return plain(null, { id: n, sha, name: full, target_url: null, context: b.name ?? "default", description: b.title ?? null, state: b.action ?? "success", commit: { sha, url: `${api}/commits/${sha}` }, branches: [], created_at: now, updated_at: now });
      }
      case "page_build":
        return plain(null, { id: n, build: { url: `${api}/pages/builds/${n}`, status: b.action ?? "built", error: { message: null }, pusher: userView(ctx, actor), commit: repo.lastPush?.after ?? fakeSha(), duration: 1234, created_at: now, updated_at: now } });
      default:
        throw new ApiError(422, `Unknown event ${event}`);
    }
  }
}
