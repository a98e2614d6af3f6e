/**
 * Events from tools around the code: commit statuses, deployments and their statuses, page
 * builds, releases, wiki edits (gollum), and comments on commits and pull request diffs. The
 * commit they concern is the head of the default branch unless sha= is given.
 */
import type { Account } from "../../store/accounts.ts";
import type { IssueRow } from "../../serialize/issue.ts";
import { repoApiUrl, repoHtmlUrl, type RepoRow } from "../../serialize/repository.ts";
import { userJson } from "../../serialize/user.ts";
import { nodeId } from "../../serialize/node-id.ts";
import { isoRequired } from "../../serialize/time.ts";
import { DomainError } from "../context.ts";
import { accountById, issueByNumber } from "../load.ts";
import { intParam, oneOf } from "../params.ts";
import { fakeSha, recordActivity, sequenceNumber, type Act } from "../record.ts";
import { pullRequestPayload } from "./pulls.ts";

/** sha= when given (40 hex), else the default branch's head (or a stand-in for an empty repository). */
async function commitSha(a: Act, repo: RepoRow, params: Record<string, string>): Promise<string> {
  if (params.sha !== undefined) {
    if (!/^[0-9a-f]{40}$/.test(params.sha)) throw new DomainError("invalid", "sha must be 40 hex digits");
    return params.sha;
  }
  const [row] = await a.tx.query<{ sha: string }>("select sha from git_refs where repo_id = $1 and ref = $2", [repo.id, `refs/heads/${repo.default_branch}`]);
  return row?.sha ?? fakeSha(repo.id, "initial");
}

export async function status(a: Act, repo: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  const state = oneOf(params, "state", ["pending", "success", "failure", "error"] as const, "success");
  const sha = await commitSha(a, repo, params);
  const url = repoApiUrl(repo, a.ctx.urls);
  const at = isoRequired(a.at);
  const who = { name: actor.name ?? actor.login, email: actor.email ?? `${actor.login}@users.noreply.local`, date: at };
  const branches = await a.tx.query<{ ref: string }>("select ref from git_refs where repo_id = $1 and sha = $2 and ref like 'refs/heads/%' order by ref limit 10", [repo.id, sha]);
  await recordActivity(a, {
    type: "StatusEvent",
    actor,
    repo,
    payload: {
      id: await sequenceNumber(a),
      sha,
      name: `${repo.owner_login}/${repo.name}`,
      target_url: params.target_url ?? null,
      context: params.context ?? "default",
      description: params.description ?? null,
      state,
      commit: {
        sha,
        commit: { author: who, committer: who, message: "Commit", tree: { sha: fakeSha("tree", sha), url: `${url}/git/trees/${fakeSha("tree", sha)}` }, url: `${url}/git/commits/${sha}`, comment_count: 0 },
        url: `${url}/commits/${sha}`,
        html_url: `${repoHtmlUrl(repo, a.ctx.urls)}/commit/${sha}`,
        comments_url: `${url}/commits/${sha}/comments`,
        author: userJson(actor, a.ctx.urls),
        committer: userJson(actor, a.ctx.urls),
        parents: [],
      },
      branches: branches.map((b) => ({ name: b.ref.slice("refs/heads/".length), commit: { sha, url: `${url}/commits/${sha}` } })),
      created_at: at,
      updated_at: at,
    },
  });
}

interface DeploymentRow { id: number; sha: string; ref: string; environment: string; description: string | null; creator_id: number; created_at: string | Date }

async function deploymentJson(a: Act, repo: RepoRow, d: DeploymentRow) {
  const url = `${repoApiUrl(repo, a.ctx.urls)}/deployments/${d.id}`;
  return {
    url, id: d.id, node_id: nodeId("Deployment", d.id), sha: d.sha, ref: d.ref, task: "deploy", payload: {}, environment: d.environment, description: d.description,
    creator: userJson(await accountById(a.tx, d.creator_id), a.ctx.urls),
    created_at: isoRequired(d.created_at), updated_at: isoRequired(d.created_at), statuses_url: `${url}/statuses`, repository_url: repoApiUrl(repo, a.ctx.urls),
  };
}

export async function deployment(a: Act, repo: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  const sha = await commitSha(a, repo, params);
  const [d] = await a.tx.query<DeploymentRow>(
    "insert into deployments (repo_id, sha, ref, environment, description, creator_id, created_at) values ($1, $2, $3, $4, $5, $6, $7) returning *",
    [repo.id, sha, params.ref ?? repo.default_branch, params.environment ?? "production", params.description ?? null, actor.id, a.at.toISOString()],
  );
  await recordActivity(a, { type: "DeploymentEvent", actor, repo, payload: { deployment: await deploymentJson(a, repo, d!) } });
}

export async function deploymentStatus(a: Act, repo: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  const state = oneOf(params, "state", ["pending", "success", "failure", "error"] as const, "success");
  const rows = params.deployment
    ? await a.tx.query<DeploymentRow>("select * from deployments where repo_id = $1 and id = $2", [repo.id, intParam(params, "deployment")])
    : await a.tx.query<DeploymentRow>("select * from deployments where repo_id = $1 order by id desc limit 1", [repo.id]);
  if (!rows[0]) throw new DomainError("invalid", "no deployment in this repository (simulate deployment first, or deployment=ID)");
  const d = await deploymentJson(a, repo, rows[0]);
  const id = await sequenceNumber(a);
  const at = isoRequired(a.at);
  const deployment_status = { url: `${d.statuses_url}/${id}`, id, node_id: nodeId("DeploymentStatus", id), state, creator: userJson(actor, a.ctx.urls), description: params.description ?? null, target_url: params.target_url ?? null, created_at: at, updated_at: at, deployment_url: d.url, repository_url: d.repository_url };
  await recordActivity(a, { type: "DeploymentStatusEvent", actor, repo, payload: { deployment_status, deployment: d } });
}

export async function pageBuild(a: Act, repo: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  const statusName = oneOf(params, "status", ["built", "building", "errored"] as const, "built");
  const id = await sequenceNumber(a);
  const at = isoRequired(a.at);
  const build = {
    url: `${repoApiUrl(repo, a.ctx.urls)}/pages/builds/${id}`,
    status: statusName,
    error: { message: statusName === "errored" ? (params.message ?? "Page build failed.") : null },
    pusher: userJson(actor, a.ctx.urls),
    commit: await commitSha(a, repo, params),
    duration: 1000 + (id % 5000),
    created_at: at,
    updated_at: at,
  };
  await recordActivity(a, { type: "PageBuildEvent", actor, repo, payload: { id, build } });
}

export async function release(a: Act, repo: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  const [{ n }] = (await a.tx.query<{ n: number }>("select count(*)::int as n from releases where repo_id = $1", [repo.id])) as [{ n: number }];
  const tag = params.tag ?? `v1.${n}.0`;
  const taken = await a.tx.query("select 1 from releases where repo_id = $1 and tag_name = $2", [repo.id, tag]);
  if (taken.length > 0) throw new DomainError("invalid", `a release for ${tag} exists`);
  const [r] = await a.tx.query<{ id: number; created_at: string | Date }>(
    "insert into releases (repo_id, tag_name, target, name, body, author_id, created_at) values ($1, $2, $3, $4, $5, $6, $7) returning id, created_at",
    [repo.id, tag, params.target ?? repo.default_branch, params.name ?? null, params.body ?? null, actor.id, a.at.toISOString()],
  );
  await a.tx.query("insert into git_refs (repo_id, ref, sha) values ($1, $2, $3) on conflict do nothing", [repo.id, `refs/tags/${tag}`, await commitSha(a, repo, {})]);
  const url = `${repoApiUrl(repo, a.ctx.urls)}/releases/${r!.id}`;
  const at = isoRequired(r!.created_at);
  const payload = {
    action: "published",
    release: {
      url, assets_url: `${url}/assets`, upload_url: `${url}/assets{?name}`, html_url: `${repoHtmlUrl(repo, a.ctx.urls)}/releases/tag/${tag}`, id: r!.id, node_id: nodeId("Release", r!.id), tag_name: tag,
      target_commitish: params.target ?? repo.default_branch, name: params.name ?? null, body: params.body ?? null, draft: false, prerelease: params.prerelease === "true",
      author: userJson(actor, a.ctx.urls), created_at: at, published_at: at, assets: [],
      tarball_url: `${repoApiUrl(repo, a.ctx.urls)}/tarball/${tag}`, zipball_url: `${repoApiUrl(repo, a.ctx.urls)}/zipball/${tag}`,
    },
  };
  await recordActivity(a, { type: "ReleaseEvent", actor, repo, payload });
}

export async function gollum(a: Act, repo: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  const title = params.page ?? "Home";
  const pageName = title.replace(/\s+/g, "-");
  const action = oneOf(params, "action", ["created", "edited"] as const, "edited");
  const sha = fakeSha("wiki", repo.id, pageName, a.at.toISOString(), await sequenceNumber(a));
  await recordActivity(a, {
    type: "GollumEvent",
    actor,
    repo,
    payload: { pages: [{ page_name: pageName, title, summary: params.summary ?? null, action, sha, html_url: `${repoHtmlUrl(repo, a.ctx.urls)}/wiki/${encodeURIComponent(pageName)}` }] },
  });
}

export async function commitComment(a: Act, repo: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  const sha = await commitSha(a, repo, params);
  const id = await sequenceNumber(a);
  const at = isoRequired(a.at);
  const onLine = params.path !== undefined;
  const comment = {
    id, node_id: nodeId("CommitComment", id), url: `${repoApiUrl(repo, a.ctx.urls)}/comments/${id}`, html_url: `${repoHtmlUrl(repo, a.ctx.urls)}/commit/${sha}#commitcomment-${id}`,
    user: userJson(actor, a.ctx.urls), body: params.body ?? "Nice change.", created_at: at, updated_at: at, commit_id: sha,
    path: params.path ?? null, position: onLine ? 1 : null, line: onLine ? intParam(params, "line", 1) : null,
  };
  await recordActivity(a, { type: "CommitCommentEvent", actor, repo, payload: { comment } });
}

export async function reviewComment(a: Act, repo: RepoRow, actor: Account, params: Record<string, string>): Promise<void> {
  const issue: IssueRow = await issueByNumber(a.tx, repo.id, intParam(params, "number"));
  const pr = await pullRequestPayload(a, repo, issue, "created");
  const pull = pr.pull_request as { url: string; html_url: string; head: { sha: string } };
  const id = await sequenceNumber(a);
  const at = isoRequired(a.at);
  const url = `${repoApiUrl(repo, a.ctx.urls)}/pulls/comments/${id}`;
  const comment = {
    id, node_id: nodeId("PullRequestReviewComment", id), url, html_url: `${pull.html_url}#discussion_r${id}`, user: userJson(actor, a.ctx.urls), body: params.body ?? "Could this be simpler?",
    created_at: at, updated_at: at, diff_hunk: "@@ -1,3 +1,4 @@\n line\n+added", path: params.path ?? "README.md", position: 1, original_position: 1,
    commit_id: pull.head.sha, original_commit_id: pull.head.sha, pull_request_url: pull.url,
    _links: { self: { href: url }, html: { href: `${pull.html_url}#discussion_r${id}` }, pull_request: { href: pull.url } },
  };
  await recordActivity(a, { type: "PullRequestReviewCommentEvent", actor, repo, payload: { action: "created", pull_request: pull, comment } });
}
