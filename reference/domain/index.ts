/**
 * The domain layer's entry: one named action per event the reference server can make happen,
 * each run in one transaction (record.ts `act`). `simulate` (CLI) and POST /_admin/simulate/:event
 * both call `runAction`. Names are webhook event names (push, issues, …) with `action=` for
 * their sub-actions, plus the issue event kinds that have no activity event of their own.
 */
import type { Account } from "../store/accounts.ts";
import type { RepoRow } from "../serialize/repository.ts";
import { DomainError, type ActionInput, type ActionResult, type DomainContext } from "./context.ts";
import { accountByLogin } from "./load.ts";
import { act, lockRepository, type Act } from "./record.ts";
import { intParam, oneOf } from "./params.ts";
import { changeIssue, ISSUE_ACTIONS } from "./actions/issues.ts";
import { changePull, headRef, PULL_ACTIONS } from "./actions/pulls.ts";
import { createRef, deleteRef, push } from "./actions/git.ts";
import { fork, watch } from "./actions/social.ts";
import { commentOnIssue } from "./actions/comments.ts";
import { issueKind, ISSUE_ONLY_KINDS } from "./actions/issue-kinds.ts";
import { createRepository, makePublic, member, membership, teamAdd } from "./actions/repo-admin.ts";
import { commitComment, deployment, deploymentStatus, gollum, pageBuild, release, reviewComment, status } from "./actions/ci.ts";

export { DomainError } from "./context.ts";
export type { ActionInput, ActionResult, DomainContext, Listener, Recorded } from "./context.ts";

interface ActionSpec {
  summary: string;
  run: (a: Act, repo: RepoRow, actor: Account, params: Record<string, string>) => Promise<void>;
}

const needNumber = (p: Record<string, string>) => intParam(p, "number");

export const ACTIONS: Record<string, ActionSpec> = {
  push: { summary: "push commits: [ref=main] [commits=N] [message=…] (#N references, 'fixes #N' closes)", run: (a, r, u, p) => push(a, r, u, p) },
  create: { summary: "create a branch or tag: [ref_type=branch|tag] [ref=NAME] [pusher_type=user|deploy_key]", run: (a, r, u, p) => createRef(a, r, u, p) },
  delete: { summary: "delete a branch or tag: [ref_type=branch|tag] [ref=NAME] [pusher_type=user|deploy_key]", run: (a, r, u, p) => deleteRef(a, r, u, p) },
  watch: { summary: "star the repository", run: (a, r, u) => watch(a, r, u) },
  fork: { summary: "fork into the actor's account: [name=NAME]", run: (a, r, u, p) => fork(a, r, u, p) },
  issues: {
    summary: `issue change: action=${ISSUE_ACTIONS.join("|")} (default opened) [number=N] [title=…] [body=…] [assignee=LOGIN] [label=NAME] [commit=SHA]; on a pull request's number it records a PullRequestEvent`,
    run: async (a, r, u, p) => {
      const action = oneOf(p, "action", ISSUE_ACTIONS, "opened");
      await changeIssue(a, r, u, action, p, action === "opened" ? undefined : needNumber(p));
    },
  },
  issue_comment: { summary: "comment: number=N [body=…]", run: (a, r, u, p) => commentOnIssue(a, r, u, needNumber(p), p.body ?? "Looks good to me.") },
  pull_request: {
    summary: `pull request: action=${PULL_ACTIONS.join("|")} (default opened) [number=N] [title=…] [head=BRANCH] [base=BRANCH] [assignee=LOGIN] [label=NAME]`,
    run: async (a, r, u, p) => {
      const action = oneOf(p, "action", PULL_ACTIONS, "opened");
      await changePull(a, r, u, action, p, action === "opened" ? undefined : needNumber(p));
    },
  },
  pull_request_review_comment: { summary: "comment on a pull request diff: number=N [body=…] [path=FILE]", run: (a, r, u, p) => reviewComment(a, r, u, p) },
  commit_comment: { summary: "comment on a commit: [sha=SHA] [body=…] [path=FILE line=N]", run: (a, r, u, p) => commitComment(a, r, u, p) },
  status: { summary: "commit status: [state=pending|success|failure|error] [sha=SHA] [context=…] [target_url=…]", run: (a, r, u, p) => status(a, r, u, p) },
  deployment: { summary: "deployment: [environment=production] [ref=BRANCH] [sha=SHA]", run: (a, r, u, p) => deployment(a, r, u, p) },
  deployment_status: { summary: "status of the latest deployment: [state=success|…] [deployment=ID]", run: (a, r, u, p) => deploymentStatus(a, r, u, p) },
  page_build: { summary: "pages build: [status=built|building|errored]", run: (a, r, u, p) => pageBuild(a, r, u, p) },
  release: { summary: "publish a release: [tag=v1.0.0] [name=…] [body=…]", run: (a, r, u, p) => release(a, r, u, p) },
  gollum: { summary: "wiki page edit: [page=Home] [action=created|edited] [summary=…]", run: (a, r, u, p) => gollum(a, r, u, p) },
  member: { summary: "add a collaborator: user=LOGIN", run: (a, r, u, p) => member(a, r, u, p) },
  public: { summary: "make the (private) repository public", run: (a, r, u) => makePublic(a, r, u) },
  repository: { summary: "create repository name=NAME beside --repo, same owner [private=true] [description=…]", run: (a, r, u, p) => createRepository(a, r, u, p) },
  team_add: { summary: "add the (organization's) repository to a team: [team=Developers]", run: (a, r, u, p) => teamAdd(a, r, u, p) },
  membership: { summary: "team membership in the repository's organization: user=LOGIN [action=added|removed] [team=Developers]", run: (a, r, u, p) => membership(a, r, u, p) },
  head_ref_deleted: { summary: "pull request branch deleted: number=N", run: (a, r, u, p) => headRef(a, r, u, needNumber(p), "head_ref_deleted") },
  head_ref_restored: { summary: "pull request branch restored: number=N", run: (a, r, u, p) => headRef(a, r, u, needNumber(p), "head_ref_restored") },
  ...Object.fromEntries(
    ISSUE_ONLY_KINDS.map((kind) => [
      kind,
      { summary: `issue event ${kind}: number=N${kind === "renamed" ? " title=…" : kind === "milestoned" ? " [milestone=TITLE]" : kind === "mentioned" ? " [user=LOGIN]" : kind === "referenced" ? " [commit=SHA]" : ""}`, run: (a: Act, r: RepoRow, u: Account, p: Record<string, string>) => issueKind(a, r, u, kind, needNumber(p), p) },
    ]),
  ),
};

export const ACTION_NAMES = Object.keys(ACTIONS).sort();

/** Runs one action in its own transaction; unknown names, repositories and actors are DomainErrors. */
export async function runAction(ctx: DomainContext, event: string, input: ActionInput): Promise<ActionResult> {
  const spec = Object.hasOwn(ACTIONS, event) ? ACTIONS[event] : undefined;
  if (!spec) throw new DomainError("not_found", `unknown event "${event}"; one of: ${ACTION_NAMES.join(", ")}`);
  return act(ctx, input.at, async (a) => {
    // Actions on one repository take turns (record.ts, lockRepository): read and locked at once.
    const repo = await lockRepository(a, input.repo);
    const actor = await accountByLogin(a.tx, input.actor);
    if (actor.type !== "User") throw new DomainError("invalid", `actor "${input.actor}" is an organization`);
    await spec.run(a, repo, actor, input.params);
  });
}
