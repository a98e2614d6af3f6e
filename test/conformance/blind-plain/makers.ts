// makers.ts — what each webhook event of the trigger endpoint makes on a repository: push, create, delete,
// issues, comments, pull requests, release, watch, fork, member, public, gollum, team_add, deployments, status, pages.
import { invalid } from "./http.ts";
import { issueAction, pickIssue } from "./issue-changes.ts";
import { ZERO, type Occurrence } from "./occurrence.ts";
import { issueObj, pullObj, repoFull, userObj, type Obj } from "./present.ts";
import { fullName } from "./store.ts";
import { iso, randomHex } from "./util.ts";

function comment(o: Occurrence, path: string, html: string, body: Obj): Obj {
  const id = o.id("comment");
  return {
    url: `${o.w.api}/repos/${o.full}/${path}/${id}`, html_url: `${html}${id}`, id, user: userObj(o.w, o.actor.login),
    created_at: iso(o.now), updated_at: iso(o.now), body: o.s("title") ?? "A comment.", ...body,
  };
}

const qualify = (ref: string, tag = false): string => (ref.startsWith("refs/") ? ref : `refs/${tag ? "tags" : "heads"}/${ref}`);

export const MAKERS: Record<string, (o: Occurrence) => void> = {
  push(o) {
    const ref = qualify(o.s("ref") ?? "master");
    const before = o.repo.heads.get(ref) ?? ZERO;
    const after = randomHex(20);
    o.repo.heads.set(ref, after);
    const author = { name: o.actor.login, email: o.actor.email, username: o.actor.login };
    const message = o.s("title") ?? "Update README.md";
    const commit = {
      id: after, distinct: true, message, timestamp: iso(o.now), url: `${o.w.web}/${o.full}/commit/${after}`,
      author, committer: author, added: [], removed: [], modified: ["README.md"],
    };
    const fields: Obj = {
      ref, before, after, created: before === ZERO, deleted: false, forced: false, base_ref: null,
      compare: `${o.w.web}/${o.full}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`, commits: [commit], head_commit: commit,
      pusher: { name: o.actor.login, email: o.actor.email },
    };
    o.repo.lastPush = fields;
    o.activity("PushEvent", {
      push_id: o.id("push"), size: 1, distinct_size: 1, ref, head: after, before,
      commits: [{ sha: after, author: { email: o.actor.email, name: o.actor.login }, message, distinct: true, url: `${o.w.api}/repos/${o.full}/commits/${after}` }],
    });
    o.hook("push", fields);
    Object.assign(o.made, { ref, after });
  },
  create(o) {
    const refType = o.s("ref_type") ?? "branch";
    if (refType !== "branch" && refType !== "tag") throw invalid("invalid", "ref_type must be branch or tag");
    const ref = o.s("ref") ?? (refType === "tag" ? `v${o.id("tag")}.0.0` : `feature-${o.id("branch")}`);
    o.repo.heads.set(qualify(ref, refType === "tag"), randomHex(20));
    o.both("create", "CreateEvent", { ref, ref_type: refType, master_branch: "master", description: o.repo.description, pusher_type: "user" });
    o.made.ref = ref;
  },
  delete(o) {
    const refType = o.s("ref_type") ?? "branch";
    if (refType !== "branch" && refType !== "tag") throw invalid("invalid", "ref_type must be branch or tag");
    const pullHeads = new Set(o.w.store.issuesOf(o.full).map((i) => `refs/heads/${i.headRef}`));
    const existing = [...o.repo.heads.keys()].reverse()
      .find((k) => k.startsWith(refType === "tag" ? "refs/tags/" : "refs/heads/") && k !== "refs/heads/master" && !pullHeads.has(k));
    const ref = o.s("ref") ?? existing?.replace(/^refs\/(heads|tags)\//, "") ?? "feature-x";
    o.repo.heads.delete(qualify(ref, refType === "tag"));
    o.both("delete", "DeleteEvent", { ref, ref_type: refType, pusher_type: "user" });
    o.made.ref = ref;
  },
  issues: (o) => issueAction(o, false),
  pull_request: (o) => issueAction(o, true),
  issue_comment(o) {
    const i = pickIssue(o, "issue");
    i.comments++;
    const c = comment(o, "issues/comments", `${o.w.web}/${o.full}/issues/${i.number}#issuecomment-`, { issue_url: `${o.w.api}/repos/${o.full}/issues/${i.number}` });
    o.both("issue_comment", "IssueCommentEvent", { action: "created", issue: issueObj(o.w, i), comment: c });
    o.made.comment = c.id;
  },
  commit_comment(o) {
    const sha = o.repo.heads.get("refs/heads/master") ?? randomHex(20);
    const c = comment(o, "comments", `${o.w.web}/${o.full}/commit/${sha}#commitcomment-`, { position: null, line: null, path: null, commit_id: sha });
    o.both("commit_comment", "CommitCommentEvent", { action: "created", comment: c });
    o.made.comment = c.id;
  },
  pull_request_review_comment(o) {
    const i = pickIssue(o, "pull");
    const sha = o.repo.heads.get(`refs/heads/${i.headRef}`) ?? randomHex(20);
    const c = comment(o, "pulls/comments", `${o.w.web}/${o.full}/pull/${i.number}#discussion_r`, {
      diff_hunk: "@@ -1 +1 @@", path: "README.md", position: 1, original_position: 1, commit_id: sha, original_commit_id: sha,
      pull_request_url: `${o.w.api}/repos/${o.full}/pulls/${i.number}`,
    });
    o.both("pull_request_review_comment", "PullRequestReviewCommentEvent", { action: "created", comment: c, pull_request: pullObj(o.w, i) });
    o.made.comment = c.id;
  },
  release(o) {
    const id = o.id("release");
    const tag = o.s("ref") ?? `v${id}.0.0`;
    o.repo.heads.set(qualify(tag, true), randomHex(20));
    const base = `${o.w.api}/repos/${o.full}/releases/${id}`;
    const release = {
      url: base, assets_url: `${base}/assets`, upload_url: `${o.w.api}/repos/${o.full}/releases/${id}/assets{?name}`,
      html_url: `${o.w.web}/${o.full}/releases/tag/${tag}`, id, tag_name: tag, target_commitish: "master", name: o.s("name") ?? tag,
      draft: false, author: userObj(o.w, o.actor.login), prerelease: false, created_at: iso(o.now), published_at: iso(o.now),
      assets: [], tarball_url: `${o.w.api}/repos/${o.full}/tarball/${tag}`, zipball_url: `${o.w.api}/repos/${o.full}/zipball/${tag}`, body: "",
    };
    o.both("release", "ReleaseEvent", { action: o.s("action") ?? "published", release });
    o.made.release = id;
  },
  watch(o) {
    o.actor.watching.add(o.full);
    o.both("watch", "WatchEvent", { action: "started" });
  },
  fork(o) {
    const st = o.w.store;
    const base = o.s("name") ?? o.repo.name;
    let name = base;
    for (let n = 2; st.repoOf(o.actor.login, name); n++) name = `${base}-${n}`;
    const fork = st.addRepo({
      id: o.id("repo"), owner: o.actor.login, name, private: o.repo.private, description: o.repo.description,
      collaborators: new Set(), forkOf: o.full, createdAt: o.now, heads: new Map(o.repo.heads),
    });
    o.both("fork", "ForkEvent", { forkee: repoFull(o.w, fork) });
    o.made.fork = fullName(fork);
  },
  member(o) {
    const m = o.w.store.user(o.s("assignee") ?? o.s("name") ?? "dave");
    if (!m) throw invalid("invalid", "Unknown member");
    o.repo.collaborators.add(m.login);
    o.both("member", "MemberEvent", { action: o.s("action") ?? "added", member: userObj(o.w, m.login) });
    o.made.member = m.login;
  },
  public(o) {
    o.repo.private = false;
    o.both("public", "PublicEvent", {});
  },
  gollum(o) {
    const page = o.s("name") ?? "Home";
    o.both("gollum", "GollumEvent", {
      pages: [{ page_name: page, title: o.s("title") ?? page, summary: null, action: o.s("action") ?? "edited", sha: randomHex(20), html_url: `${o.w.web}/${o.full}/wiki/${encodeURIComponent(page)}` }],
    });
  },
  team_add(o) {
    const id = o.id("team");
    o.both("team_add", "TeamAddEvent", { team: { name: o.s("name") ?? "Owners", id, slug: "owners", permission: "pull", url: `${o.w.api}/teams/${id}` } });
  },
  deployment(o) {
    o.hook("deployment", { deployment: deploymentObj(o) });
  },
  deployment_status(o) {
    const id = o.id("deployment-status");
    const state = o.s("action") ?? "success";
    o.hook("deployment_status", {
      deployment_status: { url: `${o.w.api}/repos/${o.full}/deployments/statuses/${id}`, id, state, creator: userObj(o.w, o.actor.login), description: "", target_url: null, created_at: iso(o.now), updated_at: iso(o.now) },
      deployment: deploymentObj(o),
    });
  },
  status(o) {
    const sha = o.repo.heads.get("refs/heads/master") ?? randomHex(20);
    o.hook("status", {
      id: o.id("status"), sha, name: o.full, target_url: null, context: "default", description: null, state: o.s("action") ?? "success",
      commit: { sha, url: `${o.w.api}/repos/${o.full}/commits/${sha}` }, branches: [], created_at: iso(o.now), updated_at: iso(o.now),
    });
  },
  page_build(o) {
    const id = o.id("page-build");
    o.hook("page_build", {
      id, build: { url: `${o.w.api}/repos/${o.full}/pages/builds/${id}`, status: "built", error: { message: null }, pusher: userObj(o.w, o.actor.login), commit: o.repo.heads.get("refs/heads/master") ?? ZERO, duration: 1000, created_at: iso(o.now), updated_at: iso(o.now) },
    });
  },
};

function deploymentObj(o: Occurrence): Obj {
  const id = o.id("deployment");
  const base = `${o.w.api}/repos/${o.full}/deployments/${id}`;
  return {
    url: base, id, sha: o.repo.heads.get("refs/heads/master") ?? ZERO, ref: o.s("ref") ?? "master", task: "deploy", payload: {},
    environment: "production", description: null, creator: userObj(o.w, o.actor.login), created_at: iso(o.now), updated_at: iso(o.now),
    statuses_url: `${base}/statuses`, repository_url: `${o.w.api}/repos/${o.full}`,
  };
}
