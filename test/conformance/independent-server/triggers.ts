/**
 * How the independent server's tests make things happen: `POST /_indie/happen/:event` with the
 * admin key, `{ repo, actor, params }`. Each event is recorded as an activity event (and, for
 * issue changes, an issue event) and delivered to the hooks that take it.
 */
import { randomBytes } from "node:crypto";
import type { Issue, State } from "./state.ts";
import { pushPayload } from "./state.ts";
import { issueObject } from "./shapes.ts";
import { bodyOf, problem, type Answer, type Req } from "./http.ts";
import type { Hooks } from "./hooks.ts";

const ISSUE_KINDS = ["subscribed", "mentioned", "milestoned", "demilestoned", "renamed", "locked", "unlocked", "referenced"];

export class Happenings {
  constructor(
    private readonly s: State,
    private readonly hooks: Hooks,
    private readonly base: () => string,
    private readonly adminKey: string,
  ) {}

  handle(req: Req): Answer | undefined {
    const m = /^\/_indie\/happen\/([a-z_]+)$/.exec(req.path);
    if (!m || req.method !== "POST") return undefined;
    if (req.header("x-indie-admin") !== this.adminKey) return problem(403, "forbidden", "admin key needed");
    const body = bodyOf(req) ?? {};
    const [owner = "", name = ""] = String(body.repo ?? "").split("/");
    const repo = this.s.repo(owner, name);
    const actor = this.s.user(String(body.actor ?? ""));
    if (!repo || !actor) return problem(422, "invalid", "repo and actor must exist");
    const params = (body.params && typeof body.params === "object" ? body.params : {}) as Record<string, string>;
    const event = m[1]!;
    const record = (type: string, payload: Record<string, unknown>) => this.s.addEvent({ type, public: !repo.private, payload, repoId: repo.id, actorId: actor.id });
    const issueOf = (): Issue | undefined => this.s.issues.find((i) => i.repoId === repo.id && i.number === Number(params.number ?? 1));
    switch (event) {
      case "push": {
        const ref = `refs/heads/${params.ref ?? "main"}`;
        const payload = pushPayload(ref);
        record("PushEvent", payload);
        const commits = (payload.commits as { sha: string; message: string; url: string }[]).map((c) => ({ id: c.sha, message: c.message, url: c.url, timestamp: new Date().toISOString(), author: { name: actor.login, email: `${actor.login}@indie.test` } }));
        this.hooks.emit(repo, actor, "push", { ref, before: payload.before, after: payload.head, commits, head_commit: commits[0], pusher: { name: actor.login, email: `${actor.login}@indie.test` } });
        break;
      }
      case "create":
      case "delete": {
        const fields = { ref: params.ref ?? `branch-${randomBytes(3).toString("hex")}`, ref_type: "branch", pusher_type: "user", ...(event === "create" ? { master_branch: "main", description: "" } : {}) };
        record(event === "create" ? "CreateEvent" : "DeleteEvent", fields);
        this.hooks.emit(repo, actor, event, fields);
        break;
      }
      case "watch":
        record("WatchEvent", { action: "started" });
        this.hooks.emit(repo, actor, "watch", { action: "started" });
        break;
      case "release": {
        const release = { id: this.s.next(), tag_name: `v${this.s.next()}`, name: "A release", draft: false, prerelease: false, created_at: new Date().toISOString(), published_at: new Date().toISOString(), author: { login: actor.login, id: actor.id }, assets: [] };
        record("ReleaseEvent", { action: "published", release });
        this.hooks.emit(repo, actor, "release", { action: "published", release });
        break;
      }
      case "issues":
        return this.issues(repo.id, actor.id, params, issueOf(), (payload) => {
          record("IssuesEvent", payload);
          this.hooks.emit(repo, actor, "issues", payload);
        });
      case "issue_comment": {
        const issue = issueOf();
        if (!issue) return problem(422, "invalid", "no such issue");
        const comment = { id: this.s.next(), body: params.body ?? "A comment", user: { login: actor.login, id: actor.id }, created_at: new Date().toISOString() };
        const payload = { action: "created", issue: issueObject(this.base(), this.s, issue), comment };
        record("IssueCommentEvent", payload);
        this.hooks.emit(repo, actor, "issue_comment", payload);
        break;
      }
      default: {
        if (!ISSUE_KINDS.includes(event)) return problem(404, "unknown_event", `cannot make ${event} happen`);
        const issue = issueOf();
        if (!issue) return problem(422, "invalid", "no such issue");
        const extra: Record<string, unknown> = {};
        if (event === "renamed") {
          extra.rename = { from: issue.title, to: params.title ?? `${issue.title}!` };
          issue.title = String((extra.rename as { to: string }).to);
        }
        if (event === "milestoned" || event === "demilestoned") extra.milestone = { title: params.milestone ?? "v1" };
        if (event === "milestoned") issue.milestone = { number: 1, title: String(params.milestone ?? "v1") };
        if (event === "demilestoned") delete issue.milestone;
        if (event === "locked" || event === "unlocked") issue.locked = event === "locked";
        if (event === "referenced") extra.commit_id = randomBytes(20).toString("hex");
        issue.updatedAt = new Date();
        this.s.addIssueEvent({ repoId: repo.id, issueNumber: issue.number, actorId: actor.id, event, extra });
      }
    }
    return { status: 200, json: { done: event } };
  }

  private issues(repoId: number, actorId: number, params: Record<string, string>, existing: Issue | undefined, publish: (payload: Record<string, unknown>) => void): Answer {
    const action = params.action ?? "opened";
    let issue = existing;
    if (action === "opened" || !issue) {
      if (action !== "opened") return problem(422, "invalid", "no such issue");
      const number = Math.max(0, ...this.s.issues.filter((i) => i.repoId === repoId).map((i) => i.number)) + 1;
      issue = { id: this.s.next(), repoId, number, title: params.title ?? "An issue", state: "open", userId: actorId, labels: [], locked: false, pull: false, createdAt: new Date(), updatedAt: new Date() };
      this.s.issues.push(issue);
    }
    const extra: Record<string, unknown> = {};
    const fields: Record<string, unknown> = {};
    switch (action) {
      case "closed":
        issue.state = "closed";
        issue.closedAt = new Date();
        break;
      case "reopened":
        issue.state = "open";
        delete issue.closedAt;
        break;
      case "labeled":
      case "unlabeled": {
        const label = { name: params.label ?? "bug", color: "0e8a16" };
        extra.label = label;
        fields.label = label;
        issue.labels = action === "labeled" ? [...issue.labels.filter((l) => l.name !== label.name), label] : issue.labels.filter((l) => l.name !== label.name);
        break;
      }
      case "assigned":
      case "unassigned": {
        const who = this.s.user(params.assignee ?? "") ?? this.s.userById(actorId);
        extra.assigneeId = who.id;
        fields.assignee = { login: who.login, id: who.id };
        if (action === "assigned") issue.assigneeId = who.id;
        else delete issue.assigneeId;
        break;
      }
    }
    issue.updatedAt = new Date();
    if (action !== "opened") this.s.addIssueEvent({ repoId, issueNumber: issue.number, actorId, event: action, extra });
    publish({ action, issue: issueObject(this.base(), this.s, issue), ...fields });
    return { status: 200, json: { done: "issues", number: issue.number } };
  }
}
