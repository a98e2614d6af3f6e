// issue-changes.ts — issue and pull request changes made by the trigger endpoint: opening, and every issue
// event kind (state, labels, assignee, milestone, title, lock, head ref), with their feed events and webhooks.
import { fail, invalid } from "./http.ts";
import type { Occurrence } from "./occurrence.ts";
import { issueObj, pullObj, userObj, type Obj } from "./present.ts";
import type { Issue, IssueEvent } from "./store.ts";
import { positiveInt, randomHex } from "./util.ts";

export const ISSUE_KINDS: ReadonlySet<string> = new Set([
  "closed", "reopened", "subscribed", "merged", "referenced", "mentioned", "assigned", "unassigned", "labeled", "unlabeled",
  "milestoned", "demilestoned", "renamed", "locked", "unlocked", "head_ref_deleted", "head_ref_restored",
]);
export const PULL_KINDS = new Set(["merged", "head_ref_deleted", "head_ref_restored"]);
const HOOK_ACTIONS = new Set(["opened", "closed", "reopened", "assigned", "unassigned", "labeled", "unlabeled"]);
const FEED_ACTIONS = new Set(["opened", "closed", "reopened"]);

export function newIssue(o: Occurrence, pull: boolean, title: string): Issue {
  const st = o.w.store;
  const number = Math.max(0, ...st.issuesOf(o.full).map((i) => i.number)) + 1;
  const i = st.addIssue({
    id: o.id("issue-id"), repo: o.full, number, title, body: "", state: "open", user: o.actor.login, assignee: null, labels: [],
    milestone: null, comments: 0, isPull: pull, locked: false, closedAt: null, createdAt: o.now, updatedAt: o.now,
    headRef: pull ? o.s("ref") ?? `feature-${number}` : "", merged: false, mergeSha: null,
  });
  if (pull) o.repo.heads.set(`refs/heads/${i.headRef}`, randomHex(20));
  o.made.issue = number;
  return i;
}

export function pickIssue(o: Occurrence, kind: "issue" | "pull" | "any"): Issue {
  const st = o.w.store;
  const n = positiveInt(o.s("number"));
  if (n !== undefined) {
    const i = st.issue(o.full, n);
    if (!i) throw fail(404, "not_found", `No issue #${n} in ${o.full}`);
    if (kind === "pull" && !i.isPull) throw invalid("not_a_pull_request", `#${n} is not a pull request`);
    o.made.issue = n;
    return i;
  }
  const pull = kind === "pull";
  const found = st.issuesOf(o.full).filter((i) => i.isPull === pull).sort((a, b) => a.number - b.number)[0];
  const i = found ?? newIssue(o, pull, pull ? "A pull request" : "An issue");
  o.made.issue = i.number;
  return i;
}

/** The issues / pull_request webhook (and the feed event for opened, closed, reopened). */
function announce(o: Occurrence, i: Issue, action: string, extra: Obj): void {
  const fields: Obj = i.isPull ? { action, number: i.number, pull_request: pullObj(o.w, i), ...extra } : { action, issue: issueObj(o.w, i), ...extra };
  if (FEED_ACTIONS.has(action)) o.activity(i.isPull ? "PullRequestEvent" : "IssuesEvent", fields);
  o.hook(i.isPull ? "pull_request" : "issues", fields);
}

/** Applies one issue event kind: state change, the issue event(s), then the webhook where one exists. */
export function change(o: Occurrence, i: Issue, kind: string): void {
  const st = o.w.store;
  const extra: Obj = {};
  const add = (event: string, more: Partial<Pick<IssueEvent, "commitId" | "label" | "assignee" | "milestone" | "rename">> = {}): void => {
    o.issueEvents.push(st.addIssueEvent({ repo: o.full, issue: i.number, actor: o.actor.login, event, createdAt: o.now, ...more }).id);
  };
  const sha = o.s("ref");
  switch (kind) {
    case "closed":
      Object.assign(i, { state: "closed", closedAt: o.now });
      add("closed", sha && /^[0-9a-f]{40}$/.test(sha) ? { commitId: sha } : {});
      break;
    case "reopened":
      Object.assign(i, { state: "open", closedAt: null, merged: false });
      add("reopened");
      break;
    case "merged": {
      const head = randomHex(20);
      Object.assign(i, { state: "closed", closedAt: o.now, merged: true, mergeSha: head });
      add("merged", { commitId: head });
      add("closed", { commitId: head });
      break;
    }
    case "referenced":
      add("referenced", { commitId: sha && /^[0-9a-f]{40}$/.test(sha) ? sha : randomHex(20) });
      break;
    case "assigned":
    case "unassigned": {
      const who = st.user(o.s("assignee") ?? (kind === "unassigned" ? i.assignee : null)) ?? o.actor;
      i.assignee = kind === "assigned" ? who.login : null;
      add(kind, { assignee: who.login });
      extra.assignee = userObj(o.w, who.login);
      break;
    }
    case "labeled":
    case "unlabeled": {
      const name = o.s("label") ?? (kind === "unlabeled" ? i.labels[0] : undefined) ?? "bug";
      i.labels = kind === "labeled" ? [...new Set([...i.labels, name])] : i.labels.filter((l) => l !== name);
      const label = { name, color: st.labelColors.get(name) ?? "ededed" };
      add(kind, { label });
      extra.label = { url: `${o.w.api}/repos/${o.full}/labels/${encodeURIComponent(name)}`, ...label };
      break;
    }
    case "milestoned":
    case "demilestoned": {
      const current = i.milestone === null ? undefined : st.milestone(o.full, i.milestone)?.title;
      const title = o.s("milestone") ?? (kind === "demilestoned" ? current : undefined) ?? "v1.0";
      const m = st.milestoneByTitle(o.full, title, o.actor.login);
      i.milestone = kind === "milestoned" ? m.number : null;
      add(kind, { milestone: title });
      break;
    }
    case "renamed": {
      const from = i.title;
      const to = o.s("title") ?? `${from} (renamed)`;
      i.title = to;
      add("renamed", { rename: { from, to } });
      break;
    }
    case "locked":
    case "unlocked":
      i.locked = kind === "locked";
      add(kind);
      break;
    case "head_ref_deleted":
    case "head_ref_restored":
      if (kind === "head_ref_deleted") o.repo.heads.delete(`refs/heads/${i.headRef}`);
      else o.repo.heads.set(`refs/heads/${i.headRef}`, randomHex(20));
      add(kind);
      break;
    default:
      add(kind);
  }
  i.updatedAt = o.now;
  const action = kind === "merged" ? "closed" : kind;
  if (HOOK_ACTIONS.has(action)) announce(o, i, action, extra);
}

export function issueAction(o: Occurrence, pull: boolean): void {
  const action = o.s("action") ?? "opened";
  if (action === "opened") {
    announce(o, newIssue(o, pull, o.s("title") ?? (pull ? "A new pull request" : "A new issue")), "opened", {});
    return;
  }
  const i = pickIssue(o, pull ? "pull" : "issue");
  if (ISSUE_KINDS.has(action)) change(o, i, action);
  else announce(o, i, action, {});
}
